/**
 * Seeded randomness for everything that must be reproducible (splits, jury panels, synthetic data).
 * Backed by pure-rand's xoroshiro128+; never use Math.random in product code.
 */
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';

export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [min, max] (inclusive). */
  int(min: number, max: number): number;
  /** Fisher-Yates shuffle of a copy. */
  shuffle<T>(items: readonly T[]): T[];
  /** k distinct items, in sampled order. */
  sample<T>(items: readonly T[], k: number): T[];
}

export function createRng(seed: number): Rng {
  const gen = xoroshiro128plus(seed | 0);
  const int = (min: number, max: number) => uniformInt(gen, min, max);
  const next = () => int(0, 0x7fffffff) / 0x80000000;
  const shuffle = <T>(items: readonly T[]): T[] => {
    const a = items.slice();
    for (let i = a.length - 1; i > 0; i--) {
      const j = int(0, i);
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  };
  return { next, int, shuffle, sample: (items, k) => shuffle(items).slice(0, Math.max(0, Math.min(k, items.length))) };
}

/**
 * How deriveSeed turns a seed and a key into a sub-seed; a run's config.json records it
 * (`seedDerivation`, eval/runner.ts), so a run dir whose draws were made another way is not resumed
 * or merged as if they were the same. An older lexcase drew with the bare FNV-1a hash (no name recorded).
 */
export const SEED_DERIVATION = 'fnv1a-fmix32';

/**
 * The bare FNV-1a hash of `key`, started from `seed`. Its low bits depend only on the low bits of
 * the seed and the key (seeds 13, 15 and 1001 give the same first 2-way draw of createRng), so draws use
 * deriveSeed. Only the benchmark corpora (bench/synthetic.ts, bench/clustered-vectors.ts) use it
 * directly, so the corpora behind the figures of docs/bench.md and docs/scale.md stay the same.
 */
export function fnv1aSeed(seed: number, key: string): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (let i = 0; i < key.length; i++) {
    h = Math.imul(h ^ key.charCodeAt(i), 0x01000193) >>> 0;
  }
  return h | 0;
}

/** murmur3's 32-bit finalizer: every output bit depends on every input bit. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h | 0;
}

/**
 * Derive a stable sub-seed from a seed and a string key (e.g. a question id): FNV-1a, then murmur3's
 * finalizer, so two seeds (or keys) give independent draws, whichever bits they differ in.
 */
export function deriveSeed(seed: number, key: string): number {
  return fmix32(fnv1aSeed(seed, key));
}
