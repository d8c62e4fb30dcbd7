/** Where `run case|baseline|mad|acal` and `evidence` look when no --index is given (the demo's index dir; default-index.ts builds it). */
import { join } from 'node:path';

export const DEFAULT_INDEX_DIR = join('.lexcase', 'demo', 'index');
