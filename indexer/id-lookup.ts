/**
 * Passage id → internal doc index without a JS string per id: an open-addressing table of doc
 * indices (Uint32, twice the passages, ~8 bytes per passage) keyed by the FNV-1a hash of each id's
 * UTF-8 bytes, compared byte for byte on a hit. A Map<string, number> over 10M ids held ~1 GB.
 */

const EMPTY = 0xffffffff;

function fnv1a(bytes: Uint8Array, a: number, b: number): number {
  let h = 0x811c9dc5;
  for (let i = a; i < b; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
  return h >>> 0;
}

function sameBytes(blob: Uint8Array, a: number, b: number, key: Uint8Array): boolean {
  if (b - a !== key.length) return false;
  for (let i = 0; i < key.length; i++) if (blob[a + i] !== key[i]) return false;
  return true;
}

export interface IdLookup {
  /** The doc index of `id`, or -1. Where an id is repeated, the last passage that has it. */
  indexOf(id: string): number;
}

/** `blob`: the ids' UTF-8 bytes end to end; `offsets[i]..offsets[i+1]`: id i. */
export function buildIdLookup(blob: Uint8Array, offsets: ArrayLike<number>, n: number): IdLookup {
  let size = 1;
  while (size < n * 2) size *= 2;
  const mask = size - 1;
  const table = new Uint32Array(size).fill(EMPTY);
  const probe = (h: number, a: number, b: number, key: Uint8Array): number => {
    for (let s = h & mask; ; s = (s + 1) & mask) {
      const d = table[s];
      if (d === EMPTY || sameBytes(blob, offsets[d], offsets[d + 1], key)) return s;
    }
  };
  for (let i = 0; i < n; i++) {
    const a = offsets[i];
    const b = offsets[i + 1];
    table[probe(fnv1a(blob, a, b), a, b, blob.subarray(a, b))] = i;
  }
  const enc = new TextEncoder();
  return {
    indexOf(id: string): number {
      const key = enc.encode(id);
      const d = table[probe(fnv1a(key, 0, key.length), 0, key.length, key)];
      return d === EMPTY ? -1 : d;
    },
  };
}
