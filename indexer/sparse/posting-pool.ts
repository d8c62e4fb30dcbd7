/**
 * Postings of every term of an in-memory segment in one byte pool (as Lucene's ByteBlockPool):
 * each term owns a chain of blocks of 8, 16, 32, … up to 4096 data bytes, each followed by the
 * 4-byte position of the next block. One Uint8Array for the whole segment instead of one growable
 * buffer per term, so the build worker's heap holds no per-term ArrayBuffers for the garbage
 * collector to track and no regrown copies to discard. The bytes are the same varints as
 * ByteSink/writePosting (varint.ts) would have written.
 */
const FIRST_BLOCK = 8;
const MAX_BLOCK = 4096;

export class PostingPool {
  private buf = new Uint8Array(1 << 20);
  private top = 0;
  /** Per term: position of its first block (-1: no postings yet), current block, write position. */
  private head = new Int32Array(1024).fill(-1);
  private tail = new Int32Array(1024);
  private cur = new Int32Array(1024);
  /** Per term: data bytes of its current block. */
  private size = new Int32Array(1024);

  /** Make room for term ids below `n`. */
  ensureTerms(n: number): void {
    if (n <= this.head.length) return;
    let cap = this.head.length * 2;
    while (cap < n) cap *= 2;
    const grow = (a: Int32Array, fill: number) => {
      const b = new Int32Array(cap).fill(fill);
      b.set(a);
      return b;
    };
    this.head = grow(this.head, -1);
    this.tail = grow(this.tail, 0);
    this.cur = grow(this.cur, 0);
    this.size = grow(this.size, 0);
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
    if (this.head[id] < 0) {
      const at = this.alloc(FIRST_BLOCK + 4);
      this.head[id] = at;
      this.tail[id] = at;
      this.size[id] = FIRST_BLOCK;
      return at;
    }
    const size = Math.min(this.size[id] * 2, MAX_BLOCK);
    const at = this.alloc(size + 4);
    const link = this.tail[id] + this.size[id];
    const buf = this.buf;
    buf[link] = at & 255;
    buf[link + 1] = (at >>> 8) & 255;
    buf[link + 2] = (at >>> 16) & 255;
    buf[link + 3] = at >>> 24;
    this.tail[id] = at;
    this.size[id] = size;
    return at;
  }

  /** Append the varint `v` (0 ≤ v < 2^32) to term `id`'s postings. */
  varint(id: number, v: number): void {
    let p = this.head[id] < 0 ? this.nextBlock(id) : this.cur[id];
    let end = this.tail[id] + this.size[id];
    let buf = this.buf;
    while (v >= 128) {
      if (p === end) {
        p = this.nextBlock(id);
        end = p + this.size[id];
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
    this.cur[id] = p;
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
    let pos = this.head[id];
    if (pos < 0) return 0;
    const last = this.tail[id];
    let size = FIRST_BLOCK;
    let len = 0;
    const buf = this.buf;
    for (;;) {
      const n = pos === last ? this.cur[id] - pos : size;
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

  /** Forget every term's postings (keeps the pool's memory for the next segment). */
  clear(termCount: number): void {
    this.head.fill(-1, 0, Math.min(termCount, this.head.length));
    this.top = 0;
  }

  /** Bytes of pool memory in use. */
  get bytes(): number {
    return this.top;
  }
}
