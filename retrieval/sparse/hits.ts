/** Shared helpers for the sparse retrievers: hits, option parsing (k: ../search-options.ts). */
import { errors } from '../../core/errors.js';
import type { SparseIndex } from '../../indexer/sparse/sparse-index.js';
import type { Hit } from '../types.js';
import type { Ranked } from './score-core.js';

export function toHits(index: SparseIndex, ranked: Ranked): Hit[] {
  const docs = index.docs;
  return ranked.docs.map((doc, i) => ({ id: docs.idAt(doc), score: ranked.scores[i], rank: i + 1 }));
}

export function numberOption(opts: Record<string, unknown> | undefined, name: string, dflt: number, min: number, max = Infinity): number {
  const v = opts?.[name];
  if (v === undefined || v === null) return dflt;
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < min || n > max) {
    throw errors.invalidInput(name, `expected a number in [${min}, ${max === Infinity ? '∞' : max}], got ${JSON.stringify(v)}`);
  }
  return n;
}

export function docIndexOf(index: SparseIndex, id: string): number {
  const i = index.docs.indexOf(id);
  if (i < 0) throw errors.notFound('passage', id);
  return i;
}
