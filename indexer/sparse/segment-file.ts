/**
 * Segment files: the spill unit of the streaming build. A segment is read strictly sequentially
 * during the merge, so it is one stream of term records in sorted term order:
 *
 *   "LXSG" u32 version u32 termCount
 *   per term: varint termBytes, term (UTF-8), varint df, varint cf, varint postingBytes, postings
 *
 * Postings use the final encoding (docs as gaps from -1, tf folded; see varint.ts), so a term found
 * in one segment only is copied byte for byte.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { errors } from '../../core/errors.js';
import { HashingFile } from './hashing-file.js';
import { ByteSink } from './varint.js';

const MAGIC = 0x4753584c; // "LXSG" little-endian
const VERSION = 1;
const enc = new TextEncoder();
const dec = new TextDecoder();

export interface SegmentTerm {
  term: string;
  df: number;
  cf: number;
  postings: Uint8Array;
}

/** Every SAMPLE_EVERY-th term record of a segment, with its byte offset: where a reader may start. */
export interface SegmentSample {
  term: string;
  /** Byte offset of the record in the file. */
  offset: number;
  /** Its position among the segment's terms. */
  index: number;
}

const SAMPLE_EVERY = 256;

/** Write a segment file; returns a sample of its term records (see SegmentSample) and its size in bytes. */
export function writeSegment(path: string, termCount: number, terms: Iterable<SegmentTerm>): { samples: SegmentSample[]; bytes: number } {
  const f = new HashingFile(path);
  f.writeTyped(new Uint32Array([MAGIC, VERSION, termCount]));
  const head = new ByteSink(64);
  const samples: SegmentSample[] = [];
  let index = 0;
  for (const t of terms) {
    if (index % SAMPLE_EVERY === 0) samples.push({ term: t.term, offset: f.bytesWritten, index });
    index++;
    head.len = 0;
    const tb = enc.encode(t.term);
    head.varint(tb.length);
    head.bytes(tb);
    head.varint(t.df);
    head.varint(t.cf);
    head.varint(t.postings.length);
    f.write(head.view());
    f.write(t.postings);
  }
  f.close();
  return { samples, bytes: f.bytesWritten };
}

/** Sequential reader over one segment file; `next()` advances to the next term record. */
export class SegmentReader {
  private fd: number;
  private buf: Uint8Array;
  private pos = 0;
  private end = 0;
  private eof = false;
  /** File position of the next read. */
  private filePos = 0;
  private closed = false;
  private remaining: number;
  term = '';
  df = 0;
  cf = 0;
  postings: Uint8Array = new Uint8Array(0);
  done = false;

  /** `from`: start at that sampled record (writeSegment's samples) instead of the first. */
  constructor(
    readonly path: string,
    bufferSize = 1 << 22,
    from?: { offset: number; index: number },
  ) {
    this.fd = openSync(path, 'r');
    this.buf = new Uint8Array(bufferSize);
    this.fill(12);
    const head = new Uint32Array(this.buf.buffer.slice(0, 12));
    if (head[0] !== MAGIC || head[1] !== VERSION) throw errors.indexCorrupt(path, 'not a lexcase segment file');
    this.remaining = head[2];
    this.pos = 12;
    if (from && from.offset > 12) {
      if (from.index > this.remaining) throw errors.indexCorrupt(path, 'segment sample beyond its terms');
      this.remaining -= from.index;
      this.pos = this.end = 0;
      this.eof = false;
      this.filePos = from.offset;
    }
  }

  /** Ensure `n` bytes are buffered from `pos`. */
  private fill(n: number, allowShort = false): void {
    if (this.end - this.pos >= n) return;
    if (n > this.buf.length) {
      const bigger = new Uint8Array(Math.max(n, this.buf.length * 2));
      bigger.set(this.buf.subarray(this.pos, this.end));
      this.buf = bigger;
    } else this.buf.copyWithin(0, this.pos, this.end);
    this.end -= this.pos;
    this.pos = 0;
    while (this.end < n && !this.eof) {
      const r = readSync(this.fd, this.buf, this.end, this.buf.length - this.end, this.filePos);
      if (r === 0) this.eof = true;
      this.end += r;
      this.filePos += r;
    }
    if (this.end < n && !allowShort) throw errors.indexCorrupt(this.path, 'segment file is truncated');
  }

  private varint(): number {
    if (this.end - this.pos < 5) this.fill(5, true);
    let v = 0;
    let mul = 1;
    for (;;) {
      if (this.pos >= this.end) throw errors.indexCorrupt(this.path, 'segment file is truncated');
      const b = this.buf[this.pos++];
      v += (b & 127) * mul;
      if (b < 128) return v;
      mul *= 128;
    }
  }

  /** Advance to the next term; returns false (and sets `done`) at the end. */
  next(): boolean {
    if (this.remaining === 0) {
      this.done = true;
      this.close();
      return false;
    }
    this.remaining--;
    const tl = this.varint();
    this.fill(tl);
    this.term = dec.decode(this.buf.subarray(this.pos, this.pos + tl));
    this.pos += tl;
    this.df = this.varint();
    this.cf = this.varint();
    const pl = this.varint();
    this.fill(pl);
    this.postings = this.buf.subarray(this.pos, this.pos + pl);
    this.pos += pl;
    return true;
  }

  /** Close the file (also done at the end of the records). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}
