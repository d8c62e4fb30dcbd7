/**
 * What each scorer mode (accumulator.ts `Mode`) is, as one table: the per-query decisions of the
 * walks (blocked-taat.ts, max-score.ts, block-max.ts, score-core.ts) read their facts here instead of
 * listing modes at each site. The per-posting loops stay specialised per mode (one loop each, no
 * lookup inside them): that is where the table stops.
 */
import { Mode } from './accumulator.js';

export interface ModeFacts {
  /** The scorer as the request names it (method / variant / scorer). */
  name: string;
  /**
   * A weight can be 0, so a zero score does not mean "untouched": the walk marks the docs it touches
   * and adds and selects in JavaScript (Lucene QLD and the lucene scorer).
   */
  marks: boolean;
  /**
   * The WebAssembly kernel's walks and selection take it, and with them blocked TAAT's pruning and
   * block-max MaxScore's bounds (BM25 and textbook QLD: weight = p1 · f(tf, doc), f > 0).
   */
  kernel: boolean;
  /** Weights are Lucene's float32 values: scores rounded with Math.fround, looser tie margins. */
  f32: boolean;
  /**
   * A list's upper bound is of the whole weight (cached under p1 too), not p1 times a tf part: float
   * rounding makes weight ≠ p1 · part (the lucene scorer).
   */
  wholeWeightBound: boolean;
  /** The per-doc array `arr` is BM25's norm k1·(1 − b + b·dl/avgdl), held or copied per block by the blocked walk. */
  bm25Norm: boolean;
  /**
   * Weights by tf the blocked walk reads from a table: 'scratch' (textbook QLD, in the kernel's
   * memory), 'own' (a table of the walk's own: Lucene QLD and LMD), 'none' (BM25 divides per posting).
   */
  tfTable: 'scratch' | 'own' | 'none';
}

/** Indexed by `Mode`: MODE_FACTS[mode]. */
export const MODE_FACTS: readonly ModeFacts[] = [
  { name: 'bm25', marks: false, kernel: true, f32: false, wholeWeightBound: false, bm25Norm: true, tfTable: 'none' },
  { name: 'qld', marks: false, kernel: true, f32: false, wholeWeightBound: false, bm25Norm: false, tfTable: 'scratch' },
  { name: 'qld (lucene variant)', marks: true, kernel: false, f32: false, wholeWeightBound: false, bm25Norm: false, tfTable: 'own' },
  { name: 'bm25 (lucene scorer)', marks: true, kernel: false, f32: true, wholeWeightBound: true, bm25Norm: false, tfTable: 'none' },
  { name: 'qld (lucene scorer, LMDirichlet)', marks: true, kernel: false, f32: true, wholeWeightBound: true, bm25Norm: false, tfTable: 'own' },
];

/** The facts of one mode. */
export function modeFacts(mode: Mode): ModeFacts {
  return MODE_FACTS[mode];
}

// The table is indexed by the enum's values: keep the two in step.
for (const [key, value] of Object.entries(Mode)) if (MODE_FACTS[value] === undefined) throw new Error(`mode-facts.ts: no facts for Mode.${key}`);
