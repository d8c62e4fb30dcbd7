/**
 * Posting lists decoded from the compressed on-disk form into typed arrays (doc ids Uint32, tf
 * Uint16 with an escape for tf ≥ 65535), on first use, and cached per index for lists with at least
 * CACHE_MIN_DF postings; shorter lists are decoded into a scratch list on every use (cheap, and a
 * million tiny cached arrays would cost more memory than they save). Memory: ≤ 6 bytes/posting of
 * the terms that queries actually touched. A view over a doc range keeps only that range's postings.
 */
import type { ScoringView } from '../../indexer/sparse/scoring-view.js';

export const TF_ESCAPE = 0xffff;
const CACHE_MIN_DF = 64;

export interface PostingList {
  docs: Uint32Array;
  tfs: Uint16Array;
  length: number;
  /** Posting index → tf, for tf ≥ 65535. */
  bigTf?: Map<number, number>;
  /** False for the scratch list of short terms (overwritten by the next decode). */
  cached: boolean;
  /** Largest per-posting weight factor, per scorer parameters (max-score.ts). */
  ub?: Map<string, number>;
}

const caches = new WeakMap<ScoringView, { lists: (PostingList | undefined)[]; scratch: PostingList }>();

function decodeInto(index: ScoringView, termId: number, list: PostingList): void {
  const buf = index.postings;
  let pos = index.offsets[termId];
  const df = index.df[termId];
  const { docs, tfs } = list;
  const { lo, hi } = index;
  let doc = -1;
  let n = 0;
  list.bigTf = undefined;
  for (let i = 0; i < df; i++) {
    let b = buf[pos++];
    let v = b & 127;
    if (b >= 128) {
      b = buf[pos++];
      v |= (b & 127) << 7;
      if (b >= 128) {
        b = buf[pos++];
        v |= (b & 127) << 14;
        if (b >= 128) {
          b = buf[pos++];
          v |= (b & 127) << 21;
          if (b >= 128) {
            b = buf[pos++];
            v += (b & 127) * 268435456;
          }
        }
      }
    }
    doc += Math.floor(v / 2);
    let tf = 1;
    if (v % 2 === 0) {
      b = buf[pos++];
      tf = b & 127;
      let shift = 128;
      while (b >= 128) {
        b = buf[pos++];
        tf += (b & 127) * shift;
        shift *= 128;
      }
    }
    if (doc < lo) continue;
    if (doc >= hi) break;
    docs[n] = doc;
    if (tf >= TF_ESCAPE) {
      (list.bigTf ??= new Map()).set(n, tf);
      tf = TF_ESCAPE;
    }
    tfs[n++] = tf;
  }
  list.length = n;
}

export function decodedPostings(index: ScoringView, termId: number): PostingList {
  let c = caches.get(index);
  if (!c) caches.set(index, (c = { lists: [], scratch: { docs: new Uint32Array(CACHE_MIN_DF), tfs: new Uint16Array(CACHE_MIN_DF), length: 0, cached: false } }));
  const df = index.df[termId];
  if (df < CACHE_MIN_DF) {
    decodeInto(index, termId, c.scratch);
    return c.scratch;
  }
  let list = c.lists[termId];
  if (!list) {
    list = { docs: new Uint32Array(df), tfs: new Uint16Array(df), length: df, cached: true };
    decodeInto(index, termId, list);
    if (list.length < df) list = { docs: list.docs.slice(0, list.length), tfs: list.tfs.slice(0, list.length), length: list.length, bigTf: list.bigTf, cached: true };
    c.lists[termId] = list;
  }
  return list;
}
