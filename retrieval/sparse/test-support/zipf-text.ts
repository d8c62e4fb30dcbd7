import type { createRng } from '../../../core/rng.js';

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
