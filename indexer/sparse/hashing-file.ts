/**
 * A buffered, synchronous, append-only file writer that computes the sha256 of what it writes, so
 * the manifest's per-file checksums cost no second pass over the data.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { createHash, type Hash } from 'node:crypto';

export class HashingFile {
  private fd: number;
  private hash: Hash = createHash('sha256');
  private buf: Uint8Array;
  private len = 0;
  bytesWritten = 0;

  constructor(
    readonly path: string,
    bufferSize = 1 << 20,
  ) {
    this.fd = openSync(path, 'w');
    this.buf = new Uint8Array(bufferSize);
  }

  write(bytes: Uint8Array): void {
    if (this.len + bytes.length > this.buf.length) this.flush();
    if (bytes.length > this.buf.length) {
      this.hash.update(bytes);
      writeAll(this.fd, bytes);
    } else {
      this.buf.set(bytes, this.len);
      this.len += bytes.length;
    }
    this.bytesWritten += bytes.length;
  }

  /** Write a typed array's bytes (little-endian on every platform Node supports here). */
  writeTyped(a: ArrayBufferView): void {
    this.write(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
  }

  flush(): void {
    if (this.len === 0) return;
    const chunk = this.buf.subarray(0, this.len);
    this.hash.update(chunk);
    writeAll(this.fd, chunk);
    this.len = 0;
  }

  /** Flush, close and return the sha256 (hex) of everything written. */
  close(): string {
    this.flush();
    closeSync(this.fd);
    return this.hash.digest('hex');
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let off = 0;
  while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
}
