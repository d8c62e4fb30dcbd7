/**
 * Seeded splits. The original Bar Exam QA train/validation/test membership is not available here
 * (only its sizes, 954 / 124 / 117 of 1,195), so lexcase draws its own: the items, in file order,
 * are shuffled with createRng(seed) (Fisher–Yates) and cut into train, val, test in that order.
 * For a dataset of another size the same proportions are used (val and test rounded, train the
 * rest). Same seed + same file → same membership; the seed is recorded wherever a split is used.
 * These are NOT the paper's splits: numbers on them are comparable with each other, not with it.
 */
import { checkSeed, createRng } from '../core/rng.js';
import type { Split } from './types.js';
import { BAREXAM_SPLIT_SIZES, DEFAULT_SPLIT_SEED, parseSplit, SPLITS, splitSizes } from './split-spec.js';

export { BAREXAM_SPLIT_SIZES, DEFAULT_SPLIT_SEED, parseSplit, SPLITS, splitSizes };

/** The items of one split (in shuffled order for train/val/test; file order for "all"). */
export function selectSplit<T>(items: readonly T[], split: Split, seed = DEFAULT_SPLIT_SEED): T[] {
  if (split === 'all') return items.slice();
  checkSeed(seed, 'splitSeed'); // 13 and 13.5 drew the same split
  const sizes = splitSizes(items.length);
  const shuffled = createRng(seed).shuffle(items);
  if (split === 'train') return shuffled.slice(0, sizes.train);
  if (split === 'val') return shuffled.slice(sizes.train, sizes.train + sizes.val);
  return shuffled.slice(sizes.train + sizes.val);
}
