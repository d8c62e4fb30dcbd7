/**
 * The paired randomization (swap) test of a macro-F1 difference B − A on the same items: under "no
 * difference" each item's two predictions are as likely to belong to the other run, so the p-value is
 * the share of swap vectors (each item's predictions swapped or not) whose |macro-F1(B*) − macro-F1(A*)|
 * reaches the observed |Δ| — two-sided, the definition of scipy.stats.permutation_test
 * (permutation_type='samples', 2·min of the two tails; the swap distribution is symmetric, so the two
 * agree: eval/reference/macro-swap-agreement.py). Items where both runs predict the same change nothing
 * and are left out of the enumeration. Up to EXACT_FLIP_MAX differing items every swap vector is
 * enumerated (Gray code, one swap per step, the per-label counts updated in place), so the p-value is
 * exact; above, PERMUTATIONS seeded swap vectors give p = (count + 1) / (B + 1), as the sign-flip test.
 * Macro-F1 is computed as classification.ts computes it (the same operations on the same counts), over
 * the labels fixed by macro.ts's rule, a failed item scored as no prediction.
 */
import { createRng } from '../../core/rng.js';
import { EXACT_FLIP_MAX, PERMUTATIONS, SEED } from '../stats/index.js';

export interface SwapTestResult {
  p: number;
  exact: boolean;
  /** Items where the two runs' predictions differ (the only ones a swap changes). */
  m: number;
  /** Swap vectors drawn (Monte Carlo) or enumerated (exact: 2^m). */
  resamples: number;
}

const div = (a: number, b: number) => (b === 0 ? 0 : a / b);

/** Per-label TP, FP, FN of one run, updated one item at a time. */
class Counts {
  readonly tp: Float64Array;
  readonly fp: Float64Array;
  readonly fn: Float64Array;
  constructor(readonly labels: number) {
    this.tp = new Float64Array(labels);
    this.fp = new Float64Array(labels);
    this.fn = new Float64Array(labels);
  }
  /** Adds (`s` = 1) or removes (−1) an item of gold `g` predicted `p` (label indices; −1: not a label / no prediction). */
  add(g: number, p: number, s: number): void {
    if (p >= 0 && p === g) this.tp[p] += s;
    else {
      if (p >= 0) this.fp[p] += s;
      if (g >= 0) this.fn[g] += s;
    }
  }
  /** Macro-F1 in classification.ts's operations: per label P, R, F1 (0/0 = 0), then their sum in label order over the label count. */
  macroF1(): number {
    let sum = 0;
    for (let l = 0; l < this.labels; l++) {
      const precision = div(this.tp[l], this.tp[l] + this.fp[l]);
      const recall = div(this.tp[l], this.tp[l] + this.fn[l]);
      sum += div(2 * precision * recall, precision + recall);
    }
    return div(sum, this.labels);
  }
}

/**
 * p of the swap test for macro-F1(B) − macro-F1(A) over `labels`: `golds[i]`, `a[i]` and `b[i]` are item
 * i's gold label and the two runs' scored predictions (null: failed or none).
 */
export function macroF1SwapTest(
  golds: readonly string[],
  a: readonly (string | null)[],
  b: readonly (string | null)[],
  labels: readonly string[],
  o: { permutations?: number; seed?: number } = {},
): SwapTestResult {
  if (a.length !== golds.length || b.length !== golds.length)
    throw new RangeError(`macroF1SwapTest: ${golds.length} golds, ${a.length} and ${b.length} predictions; a paired test needs the same items`);
  const index = new Map(labels.map((l, i) => [l, i]));
  const code = (x: string | null) => (x === null ? -1 : (index.get(x) ?? -1));
  const A = new Counts(labels.length);
  const B = new Counts(labels.length);
  const g = golds.map(code);
  const pa = a.map(code);
  const pb = b.map(code);
  for (let i = 0; i < g.length; i++) {
    A.add(g[i], pa[i], 1);
    B.add(g[i], pb[i], 1);
  }
  // the items a swap changes, in id-independent order: by (gold, A, B) codes, so the seeded draws fall alike whatever order the items come in
  const diff = g
    .map((_, i) => i)
    .filter((i) => pa[i] !== pb[i])
    .sort((x, y) => g[x] - g[y] || pa[x] - pa[y] || pb[x] - pb[y]);
  const m = diff.length;
  const observed = Math.abs(B.macroF1() - A.macroF1());
  if (m === 0) return { p: 1, exact: true, m, resamples: 1 };
  const reaches = (d: number) => Math.abs(d) >= observed - 1e-12;
  // swap item i between the runs: take each prediction out of its run and put it into the other
  const swap = (i: number) => {
    A.add(g[i], pa[i], -1);
    B.add(g[i], pb[i], -1);
    A.add(g[i], pb[i], 1);
    B.add(g[i], pa[i], 1);
    const t = pa[i];
    pa[i] = pb[i];
    pb[i] = t;
  };
  if (m <= EXACT_FLIP_MAX) {
    const total = 2 ** m;
    let count = 1; // the identity arrangement reaches the observed difference
    for (let k = 1; k < total; k++) {
      // the item that changes between Gray codes k − 1 and k: the lowest set bit of k
      swap(diff[31 - Math.clz32(k & -k)]);
      if (reaches(B.macroF1() - A.macroF1())) count++;
    }
    return { p: Math.min(1, count / total), exact: true, m, resamples: total };
  }
  const rng = createRng(o.seed ?? SEED);
  const resamples = o.permutations ?? PERMUTATIONS;
  const swapped = new Uint8Array(g.length);
  let count = 0;
  for (let it = 0; it < resamples; it++) {
    for (const i of diff)
      if (rng.int(0, 1) !== swapped[i]) {
        swap(i);
        swapped[i] ^= 1;
      }
    if (reaches(B.macroF1() - A.macroF1())) count++;
  }
  return { p: Math.min(1, (count + 1) / (resamples + 1)), exact: false, m, resamples };
}
