/**
 * The build's duplicate-id table (id-ordinals.ts) answers exactly as the Map<string, number> it
 * replaced: the first index of a key seen before, -1 for a new one — across table growth, page
 * boundaries, long and non-ASCII keys, lone surrogates (which UTF-8 would write as U+FFFD and so
 * confuse) and keys whose hashes all collide (every answer then rests on the byte comparison).
 */
import { describe, expect, it } from 'vitest';
import { IdOrdinals } from './id-ordinals.js';

/** Every key hashes to the same slot and tag: only the stored bytes tell keys apart. */
class Colliding extends IdOrdinals {
  protected override finish(): number {
    return 7;
  }
}

/** Replays `keys` into the table and into a Map; returns the table's answers and the Map's. */
function replay(table: IdOrdinals, keys: string[]): { got: number[]; want: number[] } {
  const map = new Map<string, number>();
  const got: number[] = [];
  const want: number[] = [];
  for (const k of keys) {
    got.push(table.addOrFind(k));
    const first = map.get(k);
    want.push(first ?? -1);
    if (first === undefined) map.set(k, map.size);
  }
  return { got, want };
}

/** Seeded ids in the shapes corpora use, with repeats mixed in. */
function corpusIds(n: number, seed: number): string[] {
  let s = seed >>> 0;
  const rnd = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = rnd();
    if (r < 0.05 && ids.length) ids.push(ids[Math.floor(rnd() * ids.length)]);
    else if (r < 0.1) ids.push(`caf\u00e9-${i}`);
    else if (r < 0.12) ids.push(`文書-${i}-${'x'.repeat(Math.floor(rnd() * 300))}`);
    else if (r < 0.13) ids.push(`emoji-\u{1f600}-${i}`);
    else ids.push(`syn-${i}`);
  }
  return ids;
}

describe('IdOrdinals: the duplicate-id check off the GC heap', () => {
  it('answers as a Map over 200,000 ids with repeats (table growth, 4 pages)', () => {
    const table = new IdOrdinals();
    const { got, want } = replay(table, corpusIds(200_000, 1));
    expect(got.findIndex((g, i) => g !== want[i])).toBe(-1);
    expect(want.filter((w) => w >= 0).length).toBeGreaterThan(9000);
    expect(table.size).toBe(new Set(corpusIds(200_000, 1)).size);
  });

  it('tells keys apart by their bytes when every hash collides', () => {
    const keys = corpusIds(1500, 2);
    // same length, one code unit apart; prefixes of each other
    keys.push('ab', 'ba', 'abc', 'a', 'ab', 'abc', 'b\u0301', 'b\u0301');
    const { got, want } = replay(new Colliding(), keys);
    expect(got).toEqual(want);
  });

  it('keeps lone surrogates and U+FFFD distinct (no UTF-8 replacement)', () => {
    const keys = ['x\ud800', 'x\udc00', 'x\ufffd', 'x\ud800\udc00', 'x\u{10000}', 'x\ud800', 'x\ufffd'];
    for (const table of [new IdOrdinals(), new Colliding()]) {
      const answers = keys.map((k) => table.addOrFind(k));
      // 'x\ud800\udc00' and 'x\u{10000}' are the same string
      expect(answers).toEqual([-1, -1, -1, -1, 3, 0, 2]);
    }
  });

  it('a key longer than a page buffer is stored and found', () => {
    const table = new IdOrdinals();
    const long = 'k'.repeat(100_000);
    expect(table.addOrFind(long)).toBe(-1);
    expect(table.addOrFind('short')).toBe(-1);
    expect(table.addOrFind(`${long}k`)).toBe(-1);
    expect(table.addOrFind(long)).toBe(0);
    expect(table.addOrFind(`${long}k`)).toBe(2);
  });

  it('clear() empties the table', () => {
    const table = new IdOrdinals();
    table.addOrFind('a');
    table.clear();
    expect(table.size).toBe(0);
    expect(table.addOrFind('a')).toBe(-1);
  });
});
