/**
 * The on-disk bytes of one term's posting list. Either the whole postings file is in memory
 * (`postings`, small indexes), or it stays on disk and lists are read with positional reads on the
 * file descriptor the index was loaded with (`postingsFd`: descriptors are per process, so query
 * workers read through it too; a rebuilt index renamed over the dir does not change what an open
 * descriptor reads). Lists are decoded once into the compact cached form (decoded-postings.ts),
 * so a serving process need not also keep the compressed file resident: at 856,835 passages that
 * is 119–133 MB of RSS.
 */
import { readSync } from 'node:fs';
import { errors } from '../../core/errors.js';
import type { ScoringData } from '../../indexer/sparse/scoring-view.js';
import { checkInMemory, readCheckedSync } from '../../indexer/block-checksums.js';

let scratch = new Uint8Array(1 << 16);

/** Bytes of `termId`'s list: `buf[pos…]` (a shared scratch buffer when read from disk). */
export function listBytes(data: ScoringData, termId: number): { buf: Uint8Array; pos: number } {
  const start = data.offsets[termId];
  const end = data.offsets[termId + 1];
  // The list's blocks are checked against their CRC-32 the first time any list reads them (block-checksums.ts).
  if (data.postingsFd === undefined) {
    checkInMemory(data.postingsBlocks, data.postings, start, end);
    return { buf: data.postings, pos: start };
  }
  if (data.postingsBlocks) return readCheckedSync(data.postingsBlocks, data.postingsFd, start, end);
  const len = end - start;
  if (scratch.length < len) scratch = new Uint8Array(Math.max(len, scratch.length * 2));
  let off = 0;
  while (off < len) {
    const n = readSync(data.postingsFd, scratch, off, len - off, start + off);
    if (n === 0) throw errors.indexCorrupt(data.postingsFile ?? 'sparse/postings.bin', `file ended inside the postings of term ${termId}`);
    off += n;
  }
  return { buf: scratch, pos: 0 };
}
