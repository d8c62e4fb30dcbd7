/**
 * The split names, sizes and default seed (splits.ts draws the members with a seeded shuffle); a
 * module of its own so the CLI help and flag parsing load no random-number library.
 */
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
