/**
 * The paired sign-flip permutation test for graded per-item values (MRR, nDCG, …): under "no
 * difference" each item's difference d = b − a is as likely to carry the other sign, so the p-value
 * is the share of sign vectors whose |Σ ±d| reaches the observed |Σ d|. Items with d = 0 change
 * nothing and are left out. Up to EXACT_FLIP_MAX non-zero differences every sign vector is
 * enumerated (Gray code: one flip per step), so the p-value is exact — 2 items can give no less
 * than 0.5; above, PERMUTATIONS seeded random flips give p = (count + 1) / (B + 1).
 */
import { createRng } from '../../core/rng.js';
import { EXACT_FLIP_MAX, PERMUTATIONS, SEED } from './settings.js';

export interface SignFlipResult {
  p: number;
  exact: boolean;
  /** Non-zero differences. */
  m: number;
}

export function signFlipTest(diffs: readonly number[], o: { permutations?: number; seed?: number } = {}): SignFlipResult {
  for (let i = 0; i < diffs.length; i++)
    if (!Number.isFinite(diffs[i]))
      throw new RangeError(`signFlipTest: difference ${i + 1} of ${diffs.length} is ${diffs[i]}; every difference must be a finite number`);
  // sorted: the seeded flips of the Monte-Carlo path fall on the same differences whatever order the items are listed in
  const d = diffs.filter((x) => x !== 0).sort((x, y) => x - y);
  const m = d.length;
  if (m === 0) return { p: 1, exact: true, m };
  const observed = Math.abs(d.reduce((s, x) => s + x, 0));
  const scale = d.reduce((s, x) => s + Math.abs(x), 0);
  const reaches = (sum: number) => Math.abs(sum) >= observed - 1e-12 * scale;
  if (m <= EXACT_FLIP_MAX) {
    const sign = new Int8Array(m).fill(1);
    let sum = d.reduce((s, x) => s + x, 0);
    let count = reaches(sum) ? 1 : 0;
    const total = 2 ** m;
    for (let g = 1; g < total; g++) {
      // the bit that changes between Gray codes g − 1 and g: the lowest set bit of g
      const j = 31 - Math.clz32(g & -g);
      sum -= 2 * sign[j] * d[j];
      sign[j] = -sign[j] as 1 | -1;
      if (reaches(sum)) count++;
    }
    return { p: Math.min(1, count / total), exact: true, m };
  }
  const rng = createRng(o.seed ?? SEED);
  const b = o.permutations ?? PERMUTATIONS;
  let count = 0;
  for (let it = 0; it < b; it++) {
    let sum = 0;
    for (const x of d) sum += rng.int(0, 1) ? x : -x;
    if (reaches(sum)) count++;
  }
  return { p: Math.min(1, (count + 1) / (b + 1)), exact: false, m };
}
