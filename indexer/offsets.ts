/**
 * The check every offsets array of an index passes on open (doc store columns and blocks, sparse
 * offsets): kept apart from integrity.ts, which needs the doc store's file names, so that the doc
 * store can use it without an import circle.
 */
import { errors } from '../core/errors.js';

/** Offsets as held in memory: Uint32 where the data they index is under 4 GiB (half the bytes of the Float64 on disk). */
export type Offsets = Float64Array | Uint32Array;

/**
 * `a` as Uint32 when its last (largest) offset fits, else `a` itself. A column with no bytes (every
 * offset 0: the titles of a corpus that has none) gets a fresh zeroed array, whose pages are never
 * written and so take no resident memory (a copy took 4 bytes a passage: 40 MB at 10M passages).
 */
export function compactOffsets(a: Float64Array): Offsets {
  if (!a.length || a[a.length - 1] > 0xffffffff) return a;
  // offsets never fall (checkOffsets), so a last offset of 0 means all are 0
  return a[a.length - 1] === 0 ? new Uint32Array(a.length) : Uint32Array.from(a);
}

/** Offsets must start at 0, never fall, and end at `end` (the size of the file they index). */
export function checkOffsets(file: string, offsets: Float64Array, end: number): void {
  let prev = 0;
  if (offsets[0] !== 0) throw errors.indexCorrupt(file, `first offset is ${offsets[0]}, expected 0`);
  for (let i = 1; i < offsets.length; i++) {
    const v = offsets[i];
    if (!(v >= prev) || !Number.isInteger(v)) throw errors.indexCorrupt(file, `offset ${i} (${v}) is not an integer at or after offset ${i - 1} (${prev})`);
    prev = v;
  }
  if (prev !== end) throw errors.indexCorrupt(file, `last offset is ${prev}, but the data it indexes has ${end} bytes`);
}
