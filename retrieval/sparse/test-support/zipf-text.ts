import type { createRng } from '../../../core/rng.js';

/**
 * `n` texts of `minLen`–`maxLen` words from `vocab`, word r drawn with weight ~e^(−r/scale) (low ranks
 * frequent: lists from dense to a handful of postings; the last word takes the tail).
 */
export function geometricTexts(
  rng: ReturnType<typeof createRng>,
  n: number,
  vocab: readonly string[],
  minLen: number,
  maxLen: number,
  scale: number,
): string[] {
  const ts: string[] = [];
  for (let i = 0; i < n; i++) {
    const words: string[] = [];
    const len = rng.int(minLen, maxLen);
    for (let j = 0; j < len; j++) words.push(vocab[Math.min(vocab.length - 1, Math.floor(-Math.log(1 - rng.next()) * scale))]);
    ts.push(words.join(' '));
  }
  return ts;
}

/** Zipf-distributed words over a `vocab`-word vocabulary: a few very long lists, many short ones (property tests). */
export function zipfText(rng: ReturnType<typeof createRng>, vocab: number, len: number): string {
  const H = Array.from({ length: vocab }, (_, r) => 1 / (r + 1)).reduce((a, b) => a + b);
  const words: string[] = [];
  for (let i = 0; i < len; i++) {
    let u = rng.next() * H;
    let r = 0;
    while (r < vocab - 1 && (u -= 1 / (r + 1)) > 0) r++;
    words.push(`w${r.toString(36)}x`);
  }
  return words.join(' ');
}
