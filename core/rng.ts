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

/** Derive a stable sub-seed from a seed and a string key (e.g. a question id). */
export function deriveSeed(seed: number, key: string): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (let i = 0; i < key.length; i++) {
    h = Math.imul(h ^ key.charCodeAt(i), 0x01000193) >>> 0;
  }
  return h | 0;
}
