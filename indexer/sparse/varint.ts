/**
 * Unsigned LEB128 varints (7 bits a byte, low bits first) for values below 2^32, and a growable
 * byte buffer. Postings are (doc-delta, tf) pairs folded into varints; see docs/index-format.md.
 */

/** Growable byte buffer that varints are appended to. */
export class ByteSink {
  buf: Uint8Array;
  len = 0;
  constructor(initial = 64) {
    this.buf = new Uint8Array(initial);
  }
  private grow(need: number): void {
    let cap = this.buf.length * 2;
    while (cap < need) cap *= 2;
    const next = new Uint8Array(cap);
    next.set(this.buf.subarray(0, this.len));
    this.buf = next;
  }
  varint(v: number): void {
    if (this.len + 5 > this.buf.length) this.grow(this.len + 5);
    this.len = writeVarint(this.buf, this.len, v);
  }
  bytes(src: Uint8Array): void {
    if (this.len + src.length > this.buf.length) this.grow(this.len + src.length);
    this.buf.set(src, this.len);
    this.len += src.length;
  }
  view(): Uint8Array {
    return this.buf.subarray(0, this.len);
  }
}

/** Write `v` (0 ≤ v < 2^32) at `pos`; returns the position after it. */
export function writeVarint(buf: Uint8Array, pos: number, v: number): number {
  if (v < 0x80000000) {
    // Small-integer path: the same bytes, shifts instead of float division.
    while (v >= 128) {
      buf[pos++] = (v & 127) | 128;
      v >>>= 7;
    }
    buf[pos++] = v;
    return pos;
  }
  while (v >= 128) {
    buf[pos++] = (v & 127) | 128;
    v = Math.floor(v / 128);
  }
  buf[pos++] = v;
  return pos;
}

/** Read a varint at `pos`; returns [value, next position]. For hot loops the decoders inline this. */
export function readVarint(buf: Uint8Array, pos: number): [number, number] {
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
  return [v, pos];
}

/**
 * Append one posting: doc-gap `gap` (≥ 1) and term frequency `tf` (≥ 1). The common tf = 1 costs
 * one varint: (gap·2 + 1); otherwise (gap·2) then tf.
 */
export function writePosting(sink: ByteSink, gap: number, tf: number): void {
  if (tf === 1) sink.varint(gap * 2 + 1);
  else {
    sink.varint(gap * 2);
    sink.varint(tf);
  }
}

/**
 * Decode `count` postings starting at `pos` into `docs`/`tfs` (doc ids absolute, starting from
 * `prevDoc` = -1 for a whole list). Returns the next position.
 */
export function decodePostings(buf: Uint8Array, pos: number, count: number, docs: Uint32Array | number[], tfs: Uint32Array | number[], prevDoc = -1): number {
  let doc = prevDoc;
  for (let i = 0; i < count; i++) {
    let b = buf[pos++];
    let v = b & 127;
    if (b >= 128) {
      let r: [number, number] = readVarint(buf, pos - 1);
      v = r[0];
      pos = r[1];
    }
    doc += Math.floor(v / 2);
    let tf = 1;
    if ((v & 1) === 0) {
      b = buf[pos++];
      tf = b & 127;
      if (b >= 128) {
        const r = readVarint(buf, pos - 1);
        tf = r[0];
        pos = r[1];
      }
    }
    docs[i] = doc;
    tfs[i] = tf;
  }
  return pos;
}
