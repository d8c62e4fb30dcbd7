/**
 * Posting lists decoded from the compressed on-disk form, on first use, and cached per index (per
 * doc range) for lists with at least CACHE_MIN_DF postings.
 *
 * The cached form is compact and score-ready (`CompactList`): the doc range is cut into chunks of
 * 65,536 documents aligned to multiples of 65,536; a posting stores its doc id's low 16 bits
 * (Uint16) and its tf (Uint8; 255 = escape, the real tf in `bigTf`), and `chunkEnd[c]` is the first
 * posting of the list past chunk c. 3 bytes per posting instead of 6 (Uint32 doc + Uint16 tf):
 * half the memory a long query streams through and half what a serving process keeps
 * (issue 18: the worst-case Zipf corpus touches ~16M postings per query). Cached lists and dense
 * tf bytes are held in the view's WebAssembly memory (kernel/view-memory.ts), where blocked-taat.ts's
 * kernel walks them in place.
 *
 * Lists are decoded in WebAssembly (kernel/decode.wat, in the view's kernel memory; decodeWasm),
 * the JavaScript loop (decodeJs) kept behind decodeOptions.wasm: both give the same lists.
 *
 * The cache is bounded (issue 38 item 3, list-cache.ts): the bytes of a view's cached lists stay
 * under its budget (`setCacheBudget`; the index's budget split over its query threads), the least
 * recently used lists evicted first and never one the running query has touched; a list that does
 * not fit is decoded for the query alone. Eviction changes no score: a list comes back decoded from
 * the same bytes.
 *
 * `decodedPostings` gives the wide form (Uint32 doc ids) that plain TAAT and MaxScore walk; it is
 * built from the compact list on each call and never cached (those strategies run on sparse
 * queries; the dense ones go through blocked-taat.ts on the compact form).
 */
import { listBytes } from './list-bytes.js';
import { alignedSize, MemoryViews, viewMemory, type ViewMemory } from './kernel/view-memory.js';
import { cacheBudgetBytes, ListCache } from './list-cache.js';
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
  readonly low: Uint16Array;
  readonly tfs: Uint8Array;
  /**
   * Byte offsets of `low` and `tfs` in the view's kernel memory (kernel/view-memory.ts) when the
   * list is held there (cached lists), so the kernel walks it in place; −1 for ordinary arrays.
   */
  readonly lowOff: number;
  readonly tfOff: number;
  /** Largest stored tf byte (255 = some escape in bigTf): the per-tf weight tables need no entry above it. */
  readonly maxTf: number;
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

/**
 * This thread's decode counters (all its views together): cached lists found (`hits`), lists
 * decoded from the on-disk bytes (`decodes`: cache misses, lists too short to cache, lists held
 * only densely walked by postings), the postings and compressed bytes those decodes read, cached
 * lists evicted and lists refused a place under the budget.
 * Cheap (a few additions per list, not per posting); read by the scale bench's cold/warm figures.
 */
export const decodeStats = { hits: 0, decodes: 0, decodedPostings: 0, decodedBytes: 0, evictions: 0, refused: 0 };

const caches = new WeakMap<ScoringView, (CompactList | undefined)[]>();
const budgets = new WeakMap<ScoringView, ListCache>();

/** The view's cache bookkeeping (budget: LEXCASE_CACHE_MIB or the default until setCacheBudget). */
export function listCache(view: ScoringView): ListCache {
  let c = budgets.get(view);
  if (!c) budgets.set(view, (c = new ListCache(cacheBudgetBytes())));
  return c;
}

/** Set the byte budget of the view's decoded-list cache (evicting down to it now, when the running query allows). */
export function setCacheBudget(view: ScoringView, bytes: number): void {
  const c = listCache(view);
  c.budget = Math.max(0, Math.floor(bytes));
  while (c.bytes > c.budget && c.evictOne());
}

/** A new query on the view: the lists the previous one touched may be evicted again (score-core.ts scoreTopK). */
export function beginQuery(view: ScoringView): void {
  budgets.get(view)?.beginQuery();
}

/** Cache keys: a term's compact list and its dense form. */
const compactKey = (termId: number) => termId * 2;
const denseKey = (termId: number) => termId * 2 + 1;

/**
 * Bytes of the view's memory for a new cache entry: room made under the budget (evicting what the
 * running query has not touched), then a hole or the end of the resident part, kept ≤ the budget
 * plus the per-document arrays held; −1 when that cannot be had (the list is then not cached).
 */
function cacheAlloc(view: ScoringView, mem: ViewMemory, bytes: number): number {
  const cache = listCache(view);
  const need = alignedSize(bytes);
  if (!cache.makeRoom(need)) {
    cache.refused++;
    decodeStats.refused++;
    return -1;
  }
  const limit = () => 64 + cache.budget + mem.heldBytes;
  for (;;) {
    const off = mem.alloc(need, limit());
    if (off >= 0) return off;
    // No hole fits and the end is at the limit: evict more until a hole opens up.
    if (!cache.evictOne()) {
      cache.refused++;
      decodeStats.refused++;
      return -1;
    }
  }
}

function chunkRange(view: ScoringView): { c0: number; chunks: number } {
  const c0 = view.lo >>> CHUNK_BITS;
  const c1 = view.hi > view.lo ? ((view.hi - 1) >>> CHUNK_BITS) + 1 : c0;
  return { c0, chunks: c1 - c0 };
}

/**
 * This thread's decode buffers (grown to the longest list decoded): lists are decoded here and
 * then copied, at their length in the view's range, into the view memory or into arrays of their
 * own, so decoding allocates nothing df-sized that would be garbage at once (freed malloc memory
 * a serving process keeps in its RSS).
 */
let tmpLow = new Uint16Array(0);
let tmpTfs = new Uint8Array(0);

/**
 * Which decoder decodeCompact runs: `wasm` true, the WebAssembly one (kernel/decode.wat, in the
 * view's kernel memory), else the JavaScript loop (decodeJs). Both give the same lists, posting for
 * posting, and the same decodeStats (decode-wasm.test.ts); the switch is for A/B measurements.
 */
export const decodeOptions = { wasm: true };

/**
 * Varint-decode one list's postings in [lo, hi) into the compact form: 'cache' holds it in the
 * view memory (own arrays when refused), 'fresh' in arrays of its own, 'scratch' leaves it in the
 * decode buffers (valid until the next decode on this thread). Exported for the decoders' tests.
 */
export function decodeCompact(view: ScoringView, termId: number, how: 'cache' | 'fresh' | 'scratch'): CompactList {
  return decodeOptions.wasm ? decodeWasm(view, termId, how) : decodeJs(view, termId, how);
}

/**
 * decodeCompact in WebAssembly (kernel/decode.wat): the list's bytes copied into the view's kernel
 * memory above everything allocated there, decoded next to them, then a cached list copied from
 * there to its allocation (copyWithin), other lists into arrays of their own or the decode buffers.
 * The scratch (ViewMemory.scratchAt: it stays put while it can, so its pages are touched once)
 * starts past the room the list's cache allocation could take at the end of the allocations
 * (3 bytes per posting, df at most), so that allocation never overlaps it.
 */
function decodeWasm(view: ScoringView, termId: number, how: 'cache' | 'fresh' | 'scratch'): CompactList {
  const src = listBytes(view, termId);
  const len = view.offsets[termId + 1] - view.offsets[termId];
  const df = view.df[termId];
  const { c0, chunks } = chunkRange(view);
  const mem = viewMemory(view);
  // Scratch: the list's bytes (and 8 more, read past its end by no decode of a well-formed list),
  // the out slots, chunk ends, low bits, tfs, escaped tfs (a tf ≥ 255 takes 2 bytes at least, after
  // a gap of 1 at least: at most len / 3 of them).
  const outAt = alignedSize(len + 8);
  const chunkAt = outAt + 32;
  const lowAt = alignedSize(chunkAt + 4 * chunks);
  const tfAt = alignedSize(lowAt + 2 * df);
  const bigAt = alignedSize(tfAt + df);
  const srcOff = mem.scratchAt(alignedSize(mem.used) + alignedSize(3 * df) + 16, bigAt + 16 * Math.min(df, Math.floor(len / 3) + 1));
  const outOff = srcOff + outAt;
  const chunkOff = srcOff + chunkAt;
  const lowOff = srcOff + lowAt;
  const tfOff = srcOff + tfAt;
  const bigOff = srcOff + bigAt;
  mem.bytes().set(src.buf.subarray(src.pos, src.pos + len), srcOff);
  const n = mem.decoder.decode(srcOff, df, view.lo, view.hi, c0, chunks, lowOff, tfOff, chunkOff, bigOff, outOff);
  let b = mem.kernel.memory.buffer;
  const out = new Int32Array(b, outOff, 5);
  const maxTf = out[1];
  decodeStats.decodes++;
  decodeStats.decodedPostings += out[2];
  decodeStats.decodedBytes += out[3];
  const chunkEnd = new Int32Array(b, chunkOff, chunks).slice();
  let bigTf: Map<number, number> | undefined;
  if (out[4] > 0) {
    bigTf = new Map();
    const idx = new Int32Array(b, bigOff, 4 * out[4]);
    const tf = new Float64Array(b, bigOff, 2 * out[4]);
    for (let k = 0; k < out[4]; k++) bigTf.set(idx[4 * k], tf[2 * k + 1]);
  }
  if (how === 'cache') {
    const off = cacheAlloc(view, mem, 3 * n);
    if (off >= 0) {
      // The allocation may have grown the memory: a fresh view.
      const bytes = mem.bytes();
      bytes.copyWithin(off, lowOff, lowOff + 2 * n);
      bytes.copyWithin(off + 2 * n, tfOff, tfOff + n);
      return new ResidentList(mem, off, off + 2 * n, n, c0, chunkEnd, bigTf, maxTf);
    }
    b = mem.kernel.memory.buffer;
  }
  let low: Uint16Array;
  let tfs: Uint8Array;
  if (how === 'scratch') {
    if (tmpLow.length < n) {
      const size = Math.max(n, Math.ceil(tmpLow.length * 1.5));
      tmpLow = new Uint16Array(size);
      tmpTfs = new Uint8Array(size);
    }
    tmpLow.set(new Uint16Array(b, lowOff, n));
    tmpTfs.set(new Uint8Array(b, tfOff, n));
    low = tmpLow.subarray(0, n);
    tfs = tmpTfs.subarray(0, n);
  } else {
    low = new Uint16Array(b, lowOff, n).slice();
    tfs = new Uint8Array(b, tfOff, n).slice();
  }
  return { low, tfs, lowOff: -1, tfOff: -1, maxTf, length: n, c0, chunkEnd, bigTf, cached: false };
}

/** decodeCompact in JavaScript (the fallback, and the reference the WebAssembly decoder is tested against). */
function decodeJs(view: ScoringView, termId: number, how: 'cache' | 'fresh' | 'scratch'): CompactList {
  const src = listBytes(view, termId);
  const buf = src.buf;
  let pos = src.pos;
  const df = view.df[termId];
  const { lo, hi } = view;
  const { c0, chunks } = chunkRange(view);
  if (tmpLow.length < df) {
    const size = Math.max(df, Math.ceil(tmpLow.length * 1.5));
    tmpLow = new Uint16Array(size);
    tmpTfs = new Uint8Array(size);
  }
  const low = tmpLow;
  const tfs = tmpTfs;
  const chunkEnd = new Int32Array(chunks);
  let bigTf: Map<number, number> | undefined;
  let doc = -1;
  let n = 0;
  let c = 0;
  let maxTf = 0;
  let chunkLimit = (c0 + 1) * CHUNK_DOCS;
  let i = 0;
  for (; i < df; i++) {
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
    if (tf > maxTf) maxTf = tf;
    tfs[n++] = tf;
  }
  while (c < chunks) chunkEnd[c++] = n;
  decodeStats.decodes++;
  decodeStats.decodedPostings += i;
  decodeStats.decodedBytes += pos - src.pos;
  const scratch: CompactList = {
    low: low.subarray(0, n),
    tfs: tfs.subarray(0, n),
    lowOff: -1,
    tfOff: -1,
    maxTf,
    length: n,
    c0,
    chunkEnd,
    bigTf,
    cached: false,
  };
  return how === 'scratch' ? scratch : keep(view, scratch, how === 'cache');
}

/**
 * A list decoded into the scratch buffers, kept: in the view memory when `cache` (own arrays when
 * the memory refuses it), else in arrays of its own.
 */
function keep(view: ScoringView, s: CompactList, cache: boolean): CompactList {
  if (cache) {
    const held = resident(view, s.low, s.tfs, s.length, s.c0, s.chunkEnd, s.bigTf, s.maxTf);
    if (held) return held;
  }
  // Not cached (too short, or no room under the budget): this query's own copy.
  return { ...s, low: s.low.slice(), tfs: s.tfs.slice(), cached: false };
}

/** A cached list held in its view's kernel memory (typed arrays over it taken afresh after a growth). */
class ResidentList extends MemoryViews implements CompactList {
  readonly cached = true;
  ub?: Map<string, number>;
  private lowV = new Uint16Array(0);
  private tfsV = new Uint8Array(0);

  constructor(
    mem: ViewMemory,
    readonly lowOff: number,
    readonly tfOff: number,
    readonly length: number,
    readonly c0: number,
    readonly chunkEnd: Int32Array,
    readonly bigTf: Map<number, number> | undefined,
    readonly maxTf: number,
  ) {
    super(mem.kernel.memory);
  }

  get low(): Uint16Array {
    this.refresh();
    return this.lowV;
  }

  get tfs(): Uint8Array {
    this.refresh();
    return this.tfsV;
  }

  protected retake(b: ArrayBuffer): void {
    this.lowV = new Uint16Array(b, this.lowOff, this.length);
    this.tfsV = new Uint8Array(b, this.tfOff, this.length);
  }
}

/** The first n postings copied into the view's memory (low bits, then tfs) and cached, or undefined when there is no room. */
function resident(
  view: ScoringView,
  low: Uint16Array,
  tfs: Uint8Array,
  n: number,
  c0: number,
  chunkEnd: Int32Array,
  bigTf: Map<number, number> | undefined,
  maxTf: number,
): CompactList | undefined {
  const mem = viewMemory(view);
  const off = cacheAlloc(view, mem, 3 * n);
  if (off < 0) return undefined;
  mem.u16().set(low.subarray(0, n), off >>> 1);
  mem.bytes().set(tfs.subarray(0, n), off + 2 * n);
  return new ResidentList(mem, off, off + 2 * n, n, c0, chunkEnd, bigTf, maxTf);
}

/** Cache a resident compact list of `termId` (its bytes released on eviction). */
function holdCompact(view: ScoringView, termId: number, list: CompactList): void {
  let lists = caches.get(view);
  if (!lists) caches.set(view, (lists = []));
  lists[termId] = list;
  const mem = viewMemory(view);
  const bytes = alignedSize(3 * list.length);
  listCache(view).add(compactKey(termId), {
    bytes,
    evict: () => {
      if (lists[termId] === list) lists[termId] = undefined;
      decodeStats.evictions++;
      mem.release(list.lowOff, bytes);
    },
  });
}

/** The compact list of `termId` over the view's doc range (cached for lists of ≥ 64 postings). */
export function compactPostings(view: ScoringView, termId: number): CompactList {
  const df = view.df[termId];
  // Lists held only densely (denseTfs) are decoded afresh for the rare strategy that walks postings.
  if (df < CACHE_MIN_DF || denseOnly(view, termId)) return decodeCompact(view, termId, 'fresh');
  const list = caches.get(view)?.[termId];
  if (list) {
    decodeStats.hits++;
    listCache(view).touch(compactKey(termId));
    return list;
  }
  const fresh = decodeCompact(view, termId, 'cache');
  if (fresh.cached) holdCompact(view, termId, fresh);
  return fresh;
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
  const ctfs = c.tfs;
  const docs = new Uint32Array(length);
  const tfs = new Uint16Array(length);
  let bigTf: Map<number, number> | undefined;
  let p = 0;
  for (let k = 0; k < chunkEnd.length; k++) {
    const base = (c.c0 + k) * CHUNK_DOCS;
    for (const end = chunkEnd[k]; p < end; p++) docs[p] = base + low[p];
  }
  for (let i = 0; i < length; i++) {
    let tf = ctfs[i];
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

/** The wide form of one posting (doc, tf): what decodedPostings gives of a list in a one-document range. */
export function singlePosting(doc: number, tf: number): PostingList {
  const big = tf >= TF_ESCAPE;
  return {
    docs: Uint32Array.of(doc),
    tfs: Uint16Array.of(big ? TF_ESCAPE : tf),
    length: 1,
    ...(big ? { bigTf: new Map([[0, tf]]) } : {}),
    cached: false,
  };
}

/**
 * Decode and cache, up front, every list with at least max(64, N/1024) postings over the view's
 * collection (the lists long queries keep coming back to), so that their first use does not fall
 * inside a query's latency. Costs what those lists would cost once used (3 bytes per posting, or
 * 1 byte per doc for lists held densely).
 */
export function prewarmPostings(view: ScoringView, minDf = Math.max(CACHE_MIN_DF, Math.ceil(view.N / 1024))): number {
  // Under the cache's budget: the longest lists first (the costliest to decode inside a query),
  // each only while it fits without evicting (a bound on its bytes: 3 per posting, or 1 per doc).
  const cache = listCache(view);
  const span = view.hi - view.lo;
  const terms: number[] = [];
  for (let t = 0; t < view.df.length; t++) if (view.df[t] >= minDf) terms.push(t);
  terms.sort((a, b) => view.df[b] - view.df[a] || a - b);
  let n = 0;
  for (const t of terms) {
    const most = view.df[t] >= DENSE_ONLY_SHARE * span ? Math.max(span + 16, 3 * Math.min(view.df[t], span)) : 3 * Math.min(view.df[t], span);
    if (!cache.fits(alignedSize(most))) continue;
    const d = denseTfs(view, t);
    if (d) n += d.off >= 0 ? span : 0;
    else {
      const c = compactPostings(view, t);
      if (c.cached) n += c.length;
    }
  }
  return n;
}

/** A list as one tf byte per doc of the view's range; `off` ≥ 0: held in the view's kernel memory there. */
export interface DenseList {
  readonly tfs: Uint8Array;
  readonly off: number;
  /** Largest tf. */
  readonly maxTf: number;
}

/** A dense list in the view's kernel memory (followed by 16 spare bytes: the kernel loads 8 at a time). */
class ResidentDense extends MemoryViews implements DenseList {
  private v = new Uint8Array(0);

  constructor(
    mem: ViewMemory,
    readonly off: number,
    private readonly span: number,
    readonly maxTf: number,
  ) {
    super(mem.kernel.memory);
  }

  get tfs(): Uint8Array {
    this.refresh();
    return this.v;
  }

  protected retake(b: ArrayBuffer): void {
    this.v = new Uint8Array(b, this.off, this.span);
  }
}

const denseCaches = new WeakMap<ScoringView, (DenseList | undefined)[]>();

/** Lists in at least this share of the range's docs are held only as one tf byte per doc. */
export const DENSE_ONLY_SHARE = 0.5;

/**
 * The list as one tf byte per document of the view's range (0 = absent), for lists present in
 * most documents (blocked-taat.ts walks those densely: no doc ids to load, sequential access), or
 * null when `termId`'s list is in fewer than DENSE_ONLY_SHARE of the range's docs or has a tf ≥ 255.
 * Cached per view and term, in the view's kernel memory; a list in ≥ DENSE_ONLY_SHARE of the docs
 * is then held only in this form (1 byte/doc < 3 bytes/posting), its compact form never cached.
 */
export function denseTfs(view: ScoringView, termId: number): DenseList | null {
  const span = view.hi - view.lo;
  let cache = denseCaches.get(view);
  if (!cache) denseCaches.set(view, (cache = []));
  const hit = cache[termId];
  const lc = listCache(view);
  if (hit) {
    decodeStats.hits++;
    lc.touch(denseKey(termId));
    return hit;
  }
  if (view.df[termId] < DENSE_ONLY_SHARE * span) return null;
  // The compact form: the cached one if there is one, else decoded for this conversion only (a
  // list that turns out to stay compact is cached through compactPostings).
  const had = caches.get(view)?.[termId];
  // Pinned: the allocation below must not evict the list it is read from.
  if (had) lc.touch(compactKey(termId));
  const c = had ?? decodeCompact(view, termId, 'scratch');
  if (c.bigTf || c.length < DENSE_ONLY_SHARE * span) {
    // Stays compact: cache what was just decoded (no second decode through compactPostings).
    if (!had && view.df[termId] >= CACHE_MIN_DF) {
      const kept = keep(view, c, true);
      if (kept.cached) holdCompact(view, termId, kept);
    }
    return null;
  }
  const mem = viewMemory(view);
  const off = cacheAlloc(view, mem, span + 16);
  let out: DenseList;
  let bytes: Uint8Array;
  let at: number;
  if (off >= 0) {
    bytes = mem.bytes();
    bytes.fill(0, off, off + span + 16);
    at = off;
    out = new ResidentDense(mem, off, span, c.maxTf);
  } else {
    bytes = new Uint8Array(span);
    at = 0;
    out = { tfs: bytes, off: -1, maxTf: c.maxTf };
  }
  const { low, tfs } = c;
  let p = 0;
  for (let k = 0; k < c.chunkEnd.length; k++) {
    const base = at + (c.c0 + k) * CHUNK_DOCS - view.lo;
    for (const end = c.chunkEnd[k]; p < end; p++) bytes[base + low[p]] = tfs[p];
  }
  // Not cached when there was no room: this query's own dense copy, the compact form kept as it was.
  if (off < 0) return out;
  cache[termId] = out;
  const denseBytes = alignedSize(span + 16);
  lc.add(denseKey(termId), {
    bytes: denseBytes,
    evict: () => {
      if (cache![termId] === out) cache![termId] = undefined;
      decodeStats.evictions++;
      mem.release(off, denseBytes);
    },
  });
  // Held only densely from now on: its compact form is dropped (its bytes released once no query holds it).
  const lists = caches.get(view);
  if (lists) lists[termId] = undefined;
  lc.retire(compactKey(termId));
  return out;
}

/** Whether `termId` is held only densely (its compact form must be decoded afresh). */
function denseOnly(view: ScoringView, termId: number): boolean {
  return !!denseCaches.get(view)?.[termId];
}
