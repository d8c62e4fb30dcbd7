/**
 * Block-compressed string column (doc store v2, used for passage texts): passages are grouped in
 * blocks of BLOCK_PASSAGES, each block's concatenated UTF-8 bytes deflated (raw deflate, level 1:
 * fast to write, ~0.3 ms to inflate a block). Files:
 *   <base>.off  Float64[N+1]  byte offsets of each string in the UNcompressed stream (as in v1)
 *   <base>.dfl               the deflated blocks, concatenated
 *   <base>.blk  Float64[B+1]  byte offset of each block in <base>.dfl (B = ceil(N / BLOCK_PASSAGES))
 * A get() inflates one block; the last few blocks are cached, so showing the top hits of a query
 * (often neighbours) and streaming entries() cost one inflate per block.
 */
import { createHash, type Hash } from 'node:crypto';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { createInflateRaw, deflateRaw, deflateRawSync, inflateRawSync, constants, type ZlibOptions } from 'node:zlib';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import { envChoice } from '../core/env-number.js';
import { errors, isLexcaseError } from '../core/errors.js';
import { HashingFile } from './sparse/hashing-file.js';
import { checkOffsets, type Offsets } from './offsets.js';
import { checkWholeFile, readChecked, type FileBlocks, type IndexBlocks } from './block-checksums.js';
import { closeOwned, releaseOnCollect } from './release-on-collect.js';

export const BLOCK_PASSAGES = 64;
export const BLOCK_CODEC = 'deflate-raw-1';
const encoder = new TextEncoder();
const DEFLATE: ZlibOptions = { level: 1, strategy: constants.Z_DEFAULT_STRATEGY };

/**
 * Where text blocks are deflated: 'pool', zlib's async deflateRaw on libuv's thread pool (off the
 * thread that adds them); 'calling', deflateRawSync on the thread that adds them. The same bytes.
 */
export type DeflateOn = 'pool' | 'calling';

/**
 * 'calling' on machines with at most 2 usable cores, else 'pool'; LEXCASE_DEFLATE=pool|calling
 * overrides. On 2 cores the build workers already keep both busy, and each async deflate made a zlib
 * context on a pool thread whose freed memory went back to the OS and faulted in again for the next
 * block (~40 page faults a block, ~11 µs each on this project's VMs); measured alone, the 856,835-passage
 * Zipf build took 37.1 / 36.8 s of CPU against 39.2 / 45.0 s on the pool
 * (docs/notes/2026-12-04-build-page-faults.md). With more cores the pool's
 * threads run beside the workers, and that was not measured here.
 */
export function defaultDeflateOn(cores = availableParallelism(), env: NodeJS.ProcessEnv = process.env): DeflateOn {
  return envChoice('LEXCASE_DEFLATE', ['pool', 'calling'] as const, env) ?? (cores <= 2 ? 'calling' : 'pool');
}

/** A block handed to zlib's thread pool; `z` is set when it is compressed. */
interface PendingBlock {
  done: Promise<void>;
  z?: Buffer;
  error?: Error;
}

/**
 * Writes a block-compressed column. Blocks are deflated on libuv's thread pool (zlib's async
 * `deflateRaw`, the same bytes as `deflateRawSync`), off the thread that calls `add`, or on that
 * thread (`deflateOn`, defaultDeflateOn); they are written in order as they come back. Call `drain(max)` now and then to bound the blocks in flight,
 * and `drain(0)` before `close()`.
 */
export class BlockColumnWriter {
  private dfl: HashingFile;
  private offs: HashingFile;
  private blockOffsets: number[] = [0];
  private buf = new Uint8Array(1 << 18);
  private len = 0;
  private inBlock = 0;
  private offsets = new Float64Array(4096);
  private nOff = 1;
  private total = 0;
  private dflBytes = 0;
  /** sha256 of the uncompressed bytes: equals v1's `<base>.bin` checksum for the same strings. */
  private raw: Hash = createHash('sha256');
  private pending: PendingBlock[] = [];

  constructor(
    readonly dir: string,
    readonly base: string,
    readonly deflateOn: DeflateOn = defaultDeflateOn(),
  ) {
    this.dfl = new HashingFile(join(dir, `${base}.dfl`));
    this.offs = new HashingFile(join(dir, `${base}.off`));
  }

  add(s: string): void {
    if (s.length * 3 > this.buf.length - this.len) {
      let n = this.buf.length * 2;
      while (n - this.len < s.length * 3) n *= 2;
      const b = new Uint8Array(n);
      b.set(this.buf.subarray(0, this.len));
      this.buf = b;
    }
    const bytes = encoder.encodeInto(s, this.buf.subarray(this.len)).written;
    this.len += bytes;
    this.total += bytes;
    if (this.nOff === this.offsets.length) {
      this.offs.writeTyped(this.offsets);
      this.nOff = 0;
    }
    this.offsets[this.nOff++] = this.total;
    if (++this.inBlock === BLOCK_PASSAGES) this.flushBlock();
  }

  private flushBlock(): void {
    if (this.inBlock === 0) return;
    const raw = this.buf.subarray(0, this.len);
    this.raw.update(raw);
    this.len = 0;
    this.inBlock = 0;
    if (this.deflateOn === 'calling') {
      this.pending.push({ done: Promise.resolve(), z: deflateRawSync(raw, DEFLATE) });
      this.writeDone();
      return;
    }
    const copy = Buffer.from(raw);
    const block: PendingBlock = { done: Promise.resolve() };
    block.done = new Promise<void>((resolve) =>
      deflateRaw(copy, DEFLATE, (err, z) => {
        if (err) block.error = err;
        else block.z = z;
        resolve();
      }),
    );
    this.pending.push(block);
    this.writeDone();
  }

  /** Write the compressed blocks at the head of the queue that are back from zlib. */
  private writeDone(): void {
    while (this.pending.length) {
      const b = this.pending[0];
      if (b.error) throw b.error;
      if (!b.z) return;
      this.pending.shift();
      this.dfl.write(b.z);
      this.dflBytes += b.z.length;
      this.blockOffsets.push(this.dflBytes);
    }
  }

  /** Wait until at most `max` blocks are still being compressed (all written when 0), writing those done. */
  async drain(max: number): Promise<void> {
    this.writeDone();
    while (this.pending.length > max) {
      await this.pending[0].done;
      this.writeDone();
    }
  }

  /** Close (after `drain(0)`); returns the sha256 of the uncompressed stream. File checksums land in `checksums`. */
  async close(checksums: Record<string, string>): Promise<string> {
    this.flushBlock();
    await this.drain(0);
    this.offs.writeTyped(this.offsets.subarray(0, this.nOff));
    checksums[`${this.base}.dfl`] = this.dfl.close();
    checksums[`${this.base}.off`] = this.offs.close();
    const blk = new HashingFile(join(this.dir, `${this.base}.blk`));
    blk.writeTyped(Float64Array.from(this.blockOffsets));
    checksums[`${this.base}.blk`] = blk.close();
    return this.raw.digest('hex');
  }
}

const CACHED_BLOCKS = 8;

/** Reader of a block-compressed column (same get/range/close as the plain column). */
export class BlockColumn {
  private cache = new Map<number, Buffer>();

  private constructor(
    private fh: FileHandle,
    readonly offsets: Offsets,
    private blocks: Float64Array,
    private file: string,
    /** CRC-32 of the .dfl file's 64 KiB blocks, checked the first time a read touches them. */
    private sums: FileBlocks | undefined,
  ) {
    releaseOnCollect(this, fh);
  }

  static async open(dir: string, base: string, offsets: Offsets, sums?: IndexBlocks): Promise<BlockColumn> {
    const n = offsets.length - 1;
    const nb = Math.ceil(n / BLOCK_PASSAGES);
    const blkFile = join(dir, `${base}.blk`);
    const buf = await readFile(blkFile).catch(() => {
      throw errors.indexCorrupt(blkFile, 'doc store file is missing');
    });
    if (buf.byteLength !== (nb + 1) * 8) throw errors.indexCorrupt(blkFile, `expected ${nb + 1} block offsets, found ${buf.byteLength / 8}`);
    checkWholeFile(sums?.of(`${base}.blk`), buf);
    const blocks = new Float64Array(nb + 1);
    new Uint8Array(blocks.buffer).set(buf);
    const file = join(dir, `${base}.dfl`);
    const fh = await open(file, 'r').catch(() => {
      throw errors.indexCorrupt(file, 'doc store file is missing');
    });
    try {
      checkOffsets(blkFile, blocks, (await fh.stat()).size);
    } catch (e) {
      await fh.close();
      throw e;
    }
    return new BlockColumn(fh, offsets, blocks, file, sums?.of(`${base}.dfl`));
  }

  private async block(b: number): Promise<Buffer> {
    const hit = this.cache.get(b);
    if (hit) {
      this.cache.delete(b);
      this.cache.set(b, hit);
      return hit;
    }
    const a = this.blocks[b];
    const len = this.blocks[b + 1] - a;
    const z = await readChecked(this.sums, this.fh, this.file, a, a + len);
    let raw: Buffer;
    try {
      raw = len ? inflateRawSync(z) : Buffer.alloc(0);
    } catch (e) {
      throw errors.indexCorrupt(this.file, `block ${b} does not inflate: ${(e as Error).message}`);
    }
    const first = b * BLOCK_PASSAGES;
    const last = Math.min(first + BLOCK_PASSAGES, this.offsets.length - 1);
    if (raw.length !== this.offsets[last] - this.offsets[first])
      throw errors.indexCorrupt(this.file, `block ${b} inflates to ${raw.length} bytes, offsets say ${this.offsets[last] - this.offsets[first]}`);
    this.cache.set(b, raw);
    if (this.cache.size > CACHED_BLOCKS) this.cache.delete(this.cache.keys().next().value!);
    return raw;
  }

  async get(i: number): Promise<string> {
    const b = Math.floor(i / BLOCK_PASSAGES);
    const raw = await this.block(b);
    const base = this.offsets[b * BLOCK_PASSAGES];
    return raw.toString('utf8', this.offsets[i] - base, this.offsets[i + 1] - base);
  }

  async range(i: number, j: number): Promise<string[]> {
    const out: string[] = new Array(j - i);
    for (let x = i; x < j; x++) out[x - i] = await this.get(x);
    return out;
  }

  /**
   * At most the first `maxBytes` bytes of string i (cut at a character boundary). A block larger
   * than PREFIX_WHOLE_BLOCK (a passage of tens of MB) is inflated as a stream and only up to the
   * end of that prefix, read from the file in chunks: memory stays near `maxBytes`, not the size of
   * the passage (a search showing a 60 MB passage's snippet read and decoded all of it).
   */
  async prefix(i: number, maxBytes: number): Promise<string> {
    const b = Math.floor(i / BLOCK_PASSAGES);
    const base = this.offsets[b * BLOCK_PASSAGES];
    const start = this.offsets[i] - base;
    const end = Math.min(this.offsets[i + 1] - base, start + maxBytes);
    const last = Math.min((b + 1) * BLOCK_PASSAGES, this.offsets.length - 1);
    if (this.cache.has(b) || this.offsets[last] - base <= PREFIX_WHOLE_BLOCK) return utf8Prefix((await this.block(b)).subarray(start, end));
    // Compressed bytes go in small pieces, each inflated before the next is read (the write callback),
    // and reading stops once the output reaches `end`: one 64 KiB piece of highly compressible text
    // inflates to a few MB at most, never the whole passage.
    const chunks: Buffer[] = [];
    let got = 0;
    let failed: Error | undefined;
    const inflate = createInflateRaw();
    inflate.on('data', (c: Buffer) => {
      if (got < end) chunks.push(c);
      got += c.length;
    });
    let wake: (() => void) | undefined;
    inflate.on('error', (e) => {
      failed ??= e;
      wake?.();
    });
    const a = this.blocks[b];
    const len = this.blocks[b + 1] - a;
    try {
      for (let off = 0; off < len && got < end && !failed; ) {
        const n = Math.min(PREFIX_READ_BYTES, len - off);
        const input = await readChecked(this.sums, this.fh, this.file, a + off, a + off + n);
        off += n;
        await new Promise<void>((resolve) => {
          wake = resolve;
          inflate.write(input, () => resolve());
        });
      }
      // The whole block was fed but the prefix reaches its end: flush what zlib still holds.
      if (got < end && !failed)
        await new Promise<void>((resolve) => {
          wake = resolve;
          inflate.once('end', resolve);
          inflate.end();
        });
    } catch (e) {
      failed ??= e as Error;
    } finally {
      inflate.destroy();
    }
    if (failed) throw isLexcaseError(failed) ? failed : errors.indexCorrupt(this.file, `block ${b} does not inflate: ${failed.message}`);
    if (got < end) throw errors.indexCorrupt(this.file, `block ${b} inflates to ${got} bytes, offsets say at least ${end}`);
    return utf8Prefix(Buffer.concat(chunks).subarray(start, end));
  }

  close(): Promise<void> {
    return closeOwned(this, this.fh);
  }
}

/** Blocks up to this many uncompressed bytes are inflated whole (and cached) even for a prefix. */
const PREFIX_WHOLE_BLOCK = 8 << 20;
/** Compressed bytes read and inflated at a time by prefix(). */
const PREFIX_READ_BYTES = 64 << 10;

/** UTF-8 bytes cut anywhere, decoded without a broken last character. */
export function utf8Prefix(bytes: Buffer): string {
  let n = bytes.length;
  // Drop a trailing partial sequence: back up over continuation bytes to the lead byte and check its length.
  let k = n - 1;
  while (k >= 0 && n - k <= 4 && (bytes[k] & 0xc0) === 0x80) k--;
  if (k >= 0) {
    const lead = bytes[k];
    const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
    if (n - k < need) n = k;
  }
  return bytes.toString('utf8', 0, n);
}
