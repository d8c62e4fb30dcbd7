import { describe, expect, it } from 'vitest';
import { buildIdLookup } from './id-lookup.js';

function pack(ids: string[]): { blob: Uint8Array; offsets: Uint32Array } {
  const parts = ids.map((s) => Buffer.from(s, 'utf8'));
  const offsets = new Uint32Array(ids.length + 1);
  parts.forEach((p, i) => (offsets[i + 1] = offsets[i] + p.length));
  return { blob: Buffer.concat(parts), offsets };
}

describe('buildIdLookup: passage id → doc index over the ids’ bytes (no string per id)', () => {
  it('finds every id of 50,000 bar-exam-like ids and no id it does not hold', () => {
    const ids = Array.from({ length: 50_000 }, (_, i) => (i % 3 === 0 ? `mbe_${i}` : i % 3 === 1 ? `caselaw:${i}:§${i % 17}` : `lc-${i.toString(36)}`));
    const { blob, offsets } = pack(ids);
    const look = buildIdLookup(blob, offsets, ids.length);
    for (let i = 0; i < ids.length; i++) expect(look.indexOf(ids[i])).toBe(i);
    for (const absent of ['mbe_1', 'mbe_50001', '', 'caselaw:1:§1 ', 'MBE_0']) expect(look.indexOf(absent)).toBe(-1);
  });

  it('non-ASCII ids match by their UTF-8 bytes; a prefix or extension of an id is another id', () => {
    const ids = ['Art. 1382 Code civil', 'Art. 1382', '§ 823 BGB', 'München/1', 'Zoë', '東京地判'];
    const { blob, offsets } = pack(ids);
    const look = buildIdLookup(blob, offsets, ids.length);
    ids.forEach((id, i) => expect(look.indexOf(id)).toBe(i));
    expect(look.indexOf('Art. 1382 Code')).toBe(-1);
    expect(look.indexOf('Zoe')).toBe(-1);
  });

  it('a repeated id resolves to its last passage (as a Map filled in index order did)', () => {
    const ids = ['a', 'b', 'a', 'c', 'a'];
    const { blob, offsets } = pack(ids);
    expect(buildIdLookup(blob, offsets, ids.length).indexOf('a')).toBe(4);
  });

  it('an empty store finds nothing', () => {
    expect(buildIdLookup(new Uint8Array(0), new Uint32Array([0]), 0).indexOf('x')).toBe(-1);
  });
});
