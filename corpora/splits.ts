/**
 * Seeded splits. The original Bar Exam QA train/validation/test membership is not available here
 * (only its sizes, 954 / 124 / 117 of 1,195), so lexcase draws its own: the items, in file order,
 * are shuffled with createRng(seed) (Fisher–Yates) and cut into train, val, test in that order.
 * For a dataset of another size the same proportions are used (val and test rounded, train the
 * rest). Same seed + same file → same membership; the seed is recorded wherever a split is used.
 * These are NOT the paper's splits: numbers on them are comparable with each other, not with it.
 */
import { createRng } from '../core/rng.js';
import { errors } from '../core/errors.js';
import type { Split } from './types.js';

export const DEFAULT_SPLIT_SEED = 13;
export const BAREXAM_SPLIT_SIZES = { train: 954, val: 124, test: 117 } as const;
export const SPLITS: readonly Split[] = ['train', 'val', 'test', 'all'];

export function splitSizes(n: number): { train: number; val: number; test: number } {
  const total = BAREXAM_SPLIT_SIZES.train + BAREXAM_SPLIT_SIZES.val + BAREXAM_SPLIT_SIZES.test;
  const val = Math.round((n * BAREXAM_SPLIT_SIZES.val) / total);
  const test = Math.round((n * BAREXAM_SPLIT_SIZES.test) / total);
  return { train: n - val - test, val, test };
}

export function parseSplit(s: string): Split {
  const v = s === 'validation' || s === 'dev' ? 'val' : s;
  if (!(SPLITS as readonly string[]).includes(v)) throw errors.invalidInput('split', `"${s}"; expected one of ${SPLITS.join(', ')}`);
  return v as Split;
}

/** The items of one split (in shuffled order for train/val/test; file order for "all"). */
export function selectSplit<T>(items: readonly T[], split: Split, seed = DEFAULT_SPLIT_SEED): T[] {
  if (split === 'all') return items.slice();
  const sizes = splitSizes(items.length);
  const shuffled = createRng(seed).shuffle(items);
  if (split === 'train') return shuffled.slice(0, sizes.train);
  if (split === 'val') return shuffled.slice(sizes.train, sizes.train + sizes.val);
  return shuffled.slice(sizes.train + sizes.val);
}
