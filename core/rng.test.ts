import { describe, expect, it } from 'vitest';
import { createRng, deriveSeed } from './rng.js';

describe('seeded rng', () => {
  it('same seed gives the same sequence, different seeds differ', () => {
    const a = createRng(7),
      b = createRng(7),
      c = createRng(8);
    const sa = Array.from({ length: 20 }, () => a.int(0, 1000));
    const sb = Array.from({ length: 20 }, () => b.int(0, 1000));
    const sc = Array.from({ length: 20 }, () => c.int(0, 1000));
    expect(sa).toEqual(sb);
    expect(sa).not.toEqual(sc);
  });
  it('shuffle is a permutation and sample draws distinct items', () => {
    const r = createRng(1);
    const items = Array.from({ length: 50 }, (_, i) => i);
    expect(r.shuffle(items).sort((x, y) => x - y)).toEqual(items);
    const s = r.sample(items, 10);
    expect(new Set(s).size).toBe(10);
    expect(r.next()).toBeGreaterThanOrEqual(0);
  });
  it('derived seeds are stable per key', () => {
    expect(deriveSeed(42, 'q1')).toBe(deriveSeed(42, 'q1'));
    expect(deriveSeed(42, 'q1')).not.toBe(deriveSeed(42, 'q2'));
  });
});
