/**
 * Posting lists decoded from the compressed on-disk form, on first use, and cached per index (per
 * doc range) for lists with at least CACHE_MIN_DF postings.
 *
 * The cached form is compact and score-ready (`CompactList`): the doc range is cut into chunks of
 * 65,536 documents aligned to multiples of 65,536; a posting stores its doc id's low 16 bits
 * (Uint16) and its tf (Uint8; 255 = escape, the real tf in `bigTf`), and `chunkEnd[c]` is the first
 * posting of the list past chunk c. 3 bytes per posting instead of 6 (Uint32 doc + Uint16 tf):
 * half the memory a long query streams through and half what a serving process keeps
 * (issue 18: the worst-case Zipf corpus touches ~16M postings per query).
 *
 * `decodedPostings` gives the wide form (Uint32 doc ids) that plain TAAT and MaxScore walk; it is
 * built from the compact list on each call and never cached (those strategies run on sparse
 * queries; the dense ones go through blocked-taat.ts on the compact form).
 */
import { listBytes } from './list-bytes.js';
import type { ScoringView } from '../../indexer/sparse/scoring-view.js';

export const TF_ESCAPE = 0xffff;
/** tf ≥ TF8_ESCAPE is stored as TF8_ESCAPE in the compact form, the real value in bigTf. */
export const TF8_ESCAPE = 0xff;
export const CHUNK_BITS = 16;
export const CHUNK_DOCS = 1 << CHUNK_BITS;
const CACHE_MIN_DF = 64;

/** The wide form: doc ids and tfs of one list restricted to the view's doc range. */
export interface PostingList {
  docs: Uint32Array;
  tfs: Uint16Array;
  length: number;
  /** Posting index → tf, for tf ≥ 65535. */
  bigTf?: Map<number, number>;
  /** True when `ub` persists across queries (the list's compact form is cached). */
  cached: boolean;
  /** Largest per-posting weight factor, per scorer parameters (max-score.ts). */
  ub?: Map<string, number>;
}

/** The compact, cached form (see the file comment). */
export interface CompactList {
  low: Uint16Array;
  tfs: Uint8Array;
  length: number;
  /** First chunk of the view's range: chunk c covers docs [(c0 + c)·65536, (c0 + c + 1)·65536). */
  c0: number;
  /** chunkEnd[c] = index of the first posting past chunk c0 + c (length = chunks of the range). */
  chunkEnd: Int32Array;
  /** Posting index → tf, for tf ≥ 255. */
  bigTf?: Map<number, number>;
  cached: boolean;
  ub?: Map<string, number>;
}

const caches = new WeakMap<ScoringView, (CompactList | undefined)[]>();

function chunkRange(view: ScoringView): { c0: number; chunks: number } {
  const c0 = view.lo >>> CHUNK_BITS;
  const c1 = view.hi > view.lo ? ((view.hi - 1) >>> CHUNK_BITS) + 1 : c0;
  return { c0, chunks: c1 - c0 };
}

/** Varint-decode one list's postings in [lo, hi) straight into the compact form. */
function decodeCompact(view: ScoringView, termId: number, cached: boolean): CompactList {
  const src = listBytes(view, termId);
  const buf = src.buf;
  let pos = src.pos;
  const df = view.df[termId];
  const { lo, hi } = view;
  const { c0, chunks } = chunkRange(view);
  let low = new Uint16Array(df);
  let tfs = new Uint8Array(df);
  const chunkEnd = new Int32Array(chunks);
  let bigTf: Map<number, number> | undefined;
  let doc = -1;
  let n = 0;
  let c = 0;
  let chunkLimit = (c0 + 1) * CHUNK_DOCS;
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
    while (doc >= chunkLimit) {
      chunkEnd[c++] = n;
      chunkLimit += CHUNK_DOCS;
    }
    low[n] = doc & (CHUNK_DOCS - 1);
    if (tf >= TF8_ESCAPE) {
      (bigTf ??= new Map()).set(n, tf);
      tf = TF8_ESCAPE;
    }
    tfs[n++] = tf;
  }
  while (c < chunks) chunkEnd[c++] = n;
  if (n < df) {
    low = low.slice(0, n);
    tfs = tfs.slice(0, n);
  }
  return { low, tfs, length: n, c0, chunkEnd, bigTf, cached };
}

/** The compact list of `termId` over the view's doc range (cached for lists of ≥ 64 postings). */
export function compactPostings(view: ScoringView, termId: number): CompactList {
  const df = view.df[termId];
  // Lists held only densely (denseTfs) are decoded afresh for the rare strategy that walks postings.
  if (df < CACHE_MIN_DF || denseOnly(view, termId)) return decodeCompact(view, termId, false);
  let lists = caches.get(view);
  if (!lists) caches.set(view, (lists = []));
  let list = lists[termId];
  if (!list) lists[termId] = list = decodeCompact(view, termId, true);
  return list;
}

/** tf of posting p of a compact list. */
export const compactTf = (list: CompactList, p: number): number => {
  const tf = list.tfs[p];
  return tf === TF8_ESCAPE ? list.bigTf!.get(p)! : tf;
};

/** The wide form (Uint32 doc ids, Uint16 tfs) of `termId` over the view's range; not cached. */
export function decodedPostings(view: ScoringView, termId: number): PostingList {
  const c = compactPostings(view, termId);
  const { length, low, chunkEnd } = c;
  const docs = new Uint32Array(length);
  const tfs = new Uint16Array(length);
  let bigTf: Map<number, number> | undefined;
  let p = 0;
  for (let k = 0; k < chunkEnd.length; k++) {
    const base = (c.c0 + k) * CHUNK_DOCS;
    for (const end = chunkEnd[k]; p < end; p++) docs[p] = base + low[p];
  }
  for (let i = 0; i < length; i++) {
    let tf = c.tfs[i];
    if (tf === TF8_ESCAPE) {
      tf = c.bigTf!.get(i)!;
      if (tf >= TF_ESCAPE) {
        (bigTf ??= new Map()).set(i, tf);
        tf = TF_ESCAPE;
      }
    }
    tfs[i] = tf;
  }
  if (c.cached) c.ub ??= new Map();
  return { docs, tfs, length, bigTf, cached: c.cached, ub: c.ub };
}

/**
 * Decode and cache, up front, every list with at least max(64, N/1024) postings over the view's
 * collection (the lists long queries keep coming back to), so that their first use does not fall
 * inside a query's latency. Costs what those lists would cost once used (3 bytes per posting, or
 * 1 byte per doc for lists held densely).
 */
export function prewarmPostings(view: ScoringView, minDf = Math.max(CACHE_MIN_DF, Math.ceil(view.N / 1024))): number {
  let n = 0;
  for (let t = 0; t < view.df.length; t++) {
    if (view.df[t] < minDf) continue;
    if (denseTfs(view, t, DENSE_ONLY_SHARE)) n += view.hi - view.lo;
    else n += compactPostings(view, t).length;
  }
  return n;
}

const denseCaches = new WeakMap<ScoringView, (Uint8Array | null | undefined)[]>();

/** Lists in at least this share of the range's docs are held only as one tf byte per doc. */
export const DENSE_ONLY_SHARE = 0.5;

/**
 * The list as one tf byte per document of the view's range (0 = absent), for lists present in
 * most documents (blocked-taat.ts walks those densely: no doc ids to load, sequential access), or
 * null when `termId`'s list is in fewer than `minShare` of the range's docs or has a tf ≥ 255.
 * Cached per view and term; a list in ≥ DENSE_ONLY_SHARE of the docs is then held only in this
 * form (1 byte/doc < 3 bytes/posting), its compact form dropped.
 */
export function denseTfs(view: ScoringView, termId: number, minShare: number): Uint8Array | null {
  const span = view.hi - view.lo;
  let cache = denseCaches.get(view);
  if (!cache) denseCaches.set(view, (cache = []));
  const hit = cache[termId];
  if (hit) return hit;
  if (view.df[termId] < minShare * span) return null;
  const c = compactPostings(view, termId);
  if (c.bigTf || c.length < minShare * span) return null;
  const out = new Uint8Array(span);
  let p = 0;
  for (let k = 0; k < c.chunkEnd.length; k++) {
    const base = (c.c0 + k) * CHUNK_DOCS - view.lo;
    for (const end = c.chunkEnd[k]; p < end; p++) out[base + c.low[p]] = c.tfs[p];
  }
  if (c.length >= DENSE_ONLY_SHARE * span) {
    cache[termId] = out;
    const lists = caches.get(view);
    if (lists) lists[termId] = undefined;
  } else {
    // Kept beside the compact form (a scorer with a higher share threshold walks its postings).
    cache[termId] = out;
    (partial.get(view) ?? partial.set(view, new Set()).get(view)!).add(termId);
  }
  return out;
}

/** Dense arrays kept beside a cached compact form (lists below DENSE_ONLY_SHARE). */
const partial = new WeakMap<ScoringView, Set<number>>();

/** Whether `termId` is held only densely (its compact form must be decoded afresh). */
function denseOnly(view: ScoringView, termId: number): boolean {
  return !!denseCaches.get(view)?.[termId] && !partial.get(view)?.has(termId);
}
