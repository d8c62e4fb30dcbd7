/**
 * Offsets at the 4 GiB boundary: a doc store or postings file past 4 GiB cannot be built in a test,
 * so the arithmetic is checked directly. compactOffsets keeps Uint32 only while the largest offset
 * fits (2^32 − 1 does, 2^32 does not), and every offset reads back exactly either way.
 */
import { describe, expect, it } from 'vitest';
import { checkOffsets, compactOffsets } from './offsets.js';

describe('offsets at the 4 GiB boundary', () => {
  it('a column ending at 2^32 − 1 bytes is held as Uint32, one ending at 2^32 or past stays Float64, every offset exact', () => {
    for (const [end, kind] of [
      [2 ** 32 - 1, Uint32Array],
      [2 ** 32, Float64Array],
      [2 ** 32 + 1, Float64Array],
      [2 ** 40 + 3, Float64Array],
    ] as const) {
      const disk = Float64Array.from([0, 1, 2 ** 31 - 1, 2 ** 31, end - 1, end]);
      checkOffsets('col.off', disk, end);
      const held = compactOffsets(disk);
      expect(held, String(end)).toBeInstanceOf(kind);
      expect(Array.from(held)).toEqual(Array.from(disk));
      // a text's byte length is the difference of two offsets: exact across 2^31 and 2^32
      expect(held[5] - held[4]).toBe(1);
      expect(held[3] - held[2]).toBe(1);
    }
  });

  it('an offset that is not an integer or falls is INDEX_CORRUPT naming the file, also past 2^32', () => {
    expect(() => checkOffsets('col.off', Float64Array.from([0, 2 ** 32 + 0.5, 2 ** 32 + 1]), 2 ** 32 + 1)).toThrow(
      /col\.off.*offset 1 \(4294967296\.5\) is not an integer/,
    );
    expect(() => checkOffsets('col.off', Float64Array.from([0, 2 ** 32 + 2, 2 ** 32 + 1]), 2 ** 32 + 1)).toThrow(
      /col\.off.*offset 2 \(4294967297\) is not an integer at or after offset 1/,
    );
  });

  it('an empty column (every offset 0: a corpus without titles) is held as zeros that take no resident memory', () => {
    const n = 16 * 2 ** 20; // 16M passages: a copied Uint32 array would add 64 MiB of RSS
    const disk = new Float64Array(n + 1); // zero pages, never written: not resident either
    checkOffsets('title.off', disk, 0);
    const before = process.memoryUsage.rss();
    const held = compactOffsets(disk);
    const grew = process.memoryUsage.rss() - before;
    expect(held).toBeInstanceOf(Uint32Array);
    expect(held.length).toBe(n + 1);
    expect(held[0]).toBe(0);
    expect(held[n]).toBe(0);
    expect(held[n >>> 1]).toBe(0);
    expect(grew).toBeLessThan(16 * 2 ** 20);
  });
});
