/** Registry of benchmarked engines, by the name used on the command line and in results. */
import { lanceDbFtsEngine } from './lancedb-fts.js';
import { lexcaseEngine } from './lexcase.js';
import { miniSearchEngine } from './minisearch.js';
import type { Engine } from './types.js';
import { winkEngine } from './wink.js';

export const ENGINE_NAMES = ['lexcase', 'wink-bm25', 'minisearch', 'lancedb-fts'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

export function getEngine(name: string, opts: { workers?: number } = {}): Engine {
  switch (name) {
    case 'lexcase':
      return lexcaseEngine(opts.workers ?? 2);
    case 'wink-bm25':
      return winkEngine;
    case 'minisearch':
      return miniSearchEngine;
    case 'lancedb-fts':
      return lanceDbFtsEngine;
    default:
      throw new Error(`unknown bench engine "${name}" (known: ${ENGINE_NAMES.join(', ')})`);
  }
}
