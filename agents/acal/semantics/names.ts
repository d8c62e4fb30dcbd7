/** The gradual semantics' names (index.ts computes them); a module of its own so the CLI help loads no semantics. */
import type { SemanticsName } from './types.js';

export const SEMANTICS: readonly SemanticsName[] = ['quadratic', 'dfquad', 'acal-compat'];

export function isSemanticsName(v: unknown): v is SemanticsName {
  return typeof v === 'string' && (SEMANTICS as readonly string[]).includes(v);
}
