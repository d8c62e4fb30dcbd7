/**
 * Seeded randomness for everything that must be reproducible (splits, jury panels, synthetic data).
 * Backed by pure-rand's xoroshiro128+; never use Math.random in product code.
 */
import { uniformInt } from 'pure-rand/distribution/uniformInt';
import { xoroshiro128plus } from 'pure-rand/generator/xoroshiro128plus';
import { errors } from './errors.js';

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

/**
 * The largest seed a user may give. Draws use the seed's 32 bits only (createRng's `seed | 0`,
 * fnv1aSeed's `seed ^ …`), so 1, 1.5 and 4294967297 drew the same: a seed is an integer from 0 to this.
 */
export const MAX_SEED = 0xffffffff;

/** "an integer from 0 to 4294967295": the rule every seed a user gives follows (CLI flags, library options). */
export const SEED_RULE = `an integer from 0 to ${MAX_SEED}`;

/** Whether `seed` is a seed a user may give (an integer from 0 to MAX_SEED). */
export function isValidSeed(seed: unknown): seed is number {
  return typeof seed === 'number' && Number.isInteger(seed) && seed >= 0 && seed <= MAX_SEED;
}

/**
 * Refuse a seed a user gave (`field` names the flag or option) that is not an integer from 0 to
 * MAX_SEED; sub-seeds the code derives (deriveSeed, possibly negative) are not checked.
 */
export function checkSeed(seed: unknown, field = 'seed'): number {
  if (!isValidSeed(seed))
    throw errors.invalidInput(
      field,
      `a seed must be ${SEED_RULE} (draws use its 32 bits only, so another value draws as some seed in that range), got ${String(seed)}`,
    );
  return seed;
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
