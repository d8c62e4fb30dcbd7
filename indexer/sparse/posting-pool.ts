/**
 * Postings of every term of an in-memory segment in one byte pool (as Lucene's ByteBlockPool):
 * each term owns a chain of blocks of 8, 16, 32, … up to 4096 data bytes, each followed by the
 * 4-byte position of the next block. One Uint8Array for the whole segment instead of one growable
 * buffer per term, so the build worker's heap holds no per-term ArrayBuffers for the garbage
 * collector to track and no regrown copies to discard. The bytes are the same varints as
 * ByteSink/writePosting (varint.ts) would have written.
 *
 * Every term's bookkeeping — the pool's (first block, write position, end of the current block)
 * and the segment builder's (tf in the current doc, last doc, df, cf) — lives in one 32-byte record
 * of `state` (STRIDE Int32s; cf is a Float64 over ints 6–7, `f64[id * 4 + 3]`), so a posting
 * touches one cache line of term state instead of one line in each of eight arrays.
 */
const FIRST_BLOCK = 8;
const MAX_BLOCK = 4096;

/** Int32s per term in `state`. */
export const STRIDE = 8;
/** Field offsets in a term's record: tf in the doc being added (the builder's), last doc added (-1: none), df. */
export const TF = 0;
export const LAST = 1;
export const DF = 2;
/** The pool's own: position of the first block (-1: no postings yet), write position, end of the current block's data. */
const HEAD = 3;
const CUR = 4;
const END = 5;
/** Index of a term's cf in `f64`: `id * F64_STRIDE + CF`. */
export const F64_STRIDE = 4;
export const CF = 3;

export class PostingPool {
  private buf = new Uint8Array(1 << 20);
  private top = 0;
  /** Per term, STRIDE Int32s (see the field offsets above). Replaced when it grows: re-read after ensureTerms. */
  state: Int32Array;
  /** The same memory as Float64s (cf). */
  f64: Float64Array;
  /** Per term: data bytes of its current block (read only at block boundaries). */
  private size: Int32Array;
  private capacity = 0;

  constructor() {
    this.state = new Int32Array(0);
    this.f64 = new Float64Array(0);
    this.size = new Int32Array(0);
    this.grow(1024);
  }

  private grow(cap: number): void {
    const buffer = new ArrayBuffer(cap * STRIDE * 4);
    const state = new Int32Array(buffer);
    state.set(this.state);
    for (let id = this.capacity; id < cap; id++) {
      state[id * STRIDE + HEAD] = -1;
      state[id * STRIDE + LAST] = -1;
    }
    const size = new Int32Array(cap);
    size.set(this.size);
    this.state = state;
    this.f64 = new Float64Array(buffer);
    this.size = size;
    this.capacity = cap;
  }

  /** Make room for term ids below `n` (new terms: no postings, last doc -1, df and cf 0). */
  ensureTerms(n: number): void {
    if (n <= this.capacity) return;
    let cap = this.capacity * 2;
    while (cap < n) cap *= 2;
    this.grow(cap);
  }

  private alloc(bytes: number): number {
    const at = this.top;
    if (at + bytes > this.buf.length) {
      let cap = this.buf.length * 2;
      while (cap < at + bytes) cap *= 2;
      const next = new Uint8Array(cap);
      next.set(this.buf.subarray(0, at));
      this.buf = next;
    }
    this.top = at + bytes;
    return at;
  }

  /** Start the next block of term `id` (its current one is full, or it has none); returns the write position. */
  private nextBlock(id: number): number {
    const o = id * STRIDE;
    const s = this.state;
    if (s[o + HEAD] < 0) {
      const at = this.alloc(FIRST_BLOCK + 4);
      s[o + HEAD] = at;
      s[o + END] = at + FIRST_BLOCK;
      this.size[id] = FIRST_BLOCK;
      return at;
    }
    const size = Math.min(this.size[id] * 2, MAX_BLOCK);
    const at = this.alloc(size + 4);
    const link = s[o + END];
    const buf = this.buf;
    buf[link] = at & 255;
    buf[link + 1] = (at >>> 8) & 255;
    buf[link + 2] = (at >>> 16) & 255;
    buf[link + 3] = at >>> 24;
    s[o + END] = at + size;
    this.size[id] = size;
    return at;
  }

  /** Append the varint `v` (0 ≤ v < 2^32) to term `id`'s postings. */
  varint(id: number, v: number): void {
    const s = this.state;
    const o = id * STRIDE;
    let p = s[o + HEAD] < 0 ? this.nextBlock(id) : s[o + CUR];
    let end = s[o + END];
    let buf = this.buf;
    while (v >= 128) {
      if (p === end) {
        p = this.nextBlock(id);
        end = s[o + END];
        buf = this.buf;
      }
      buf[p++] = (v & 127) | 128;
      v = v > 0x7fffffff ? Math.floor(v / 128) : v >>> 7;
    }
    if (p === end) {
      p = this.nextBlock(id);
      buf = this.buf;
    }
    buf[p++] = v;
    s[o + CUR] = p;
  }

  /** Append one posting (doc-gap `gap` ≥ 1, tf ≥ 1), encoded as writePosting does. */
  posting(id: number, gap: number, tf: number): void {
    if (tf === 1) this.varint(id, gap * 2 + 1);
    else {
      this.varint(id, gap * 2);
      this.varint(id, tf);
    }
  }

  /** Term `id`'s postings bytes, copied contiguously into `out` (grown as needed); returns the length. */
  copyTo(id: number, out: { buf: Uint8Array }): number {
    const o = id * STRIDE;
    let pos = this.state[o + HEAD];
    if (pos < 0) return 0;
    const last = this.state[o + END] - this.size[id];
    let size = FIRST_BLOCK;
    let len = 0;
    const buf = this.buf;
    for (;;) {
      const n = pos === last ? this.state[o + CUR] - pos : size;
      if (len + n > out.buf.length) {
        let cap = out.buf.length * 2;
        while (cap < len + n) cap *= 2;
        const b = new Uint8Array(cap);
        b.set(out.buf.subarray(0, len));
        out.buf = b;
      }
      out.buf.set(buf.subarray(pos, pos + n), len);
      len += n;
      if (pos === last) return len;
      const link = pos + size;
      pos = (buf[link] | (buf[link + 1] << 8) | (buf[link + 2] << 16) | (buf[link + 3] << 24)) >>> 0;
      size = Math.min(size * 2, MAX_BLOCK);
    }
  }

  /** Forget the postings of terms below `termCount` (keeps the pool's memory for the next segment). */
  clear(termCount: number): void {
    const s = this.state;
    const n = Math.min(termCount, this.capacity);
    for (let id = 0; id < n; id++) s[id * STRIDE + HEAD] = -1;
    this.top = 0;
  }

  /** Every term back to "new": no postings, last doc -1, df and cf 0 (the dictionary is dropped). */
  reset(): void {
    this.state.fill(0);
    for (let id = 0; id < this.capacity; id++) {
      this.state[id * STRIDE + HEAD] = -1;
      this.state[id * STRIDE + LAST] = -1;
    }
    this.top = 0;
  }

  /** Bytes of pool memory in use. */
  get bytes(): number {
    return this.top;
  }
}
