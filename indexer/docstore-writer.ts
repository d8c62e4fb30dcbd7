/**
 * Writes the doc store of an index dir: per passage id, text, title, docId and source, as string
 * columns (a UTF-8 blob + Float64 byte offsets) read back by offset, so 856K passages never have to
 * live in memory as JS objects. Layout in docs/index-format.md.
 */
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { HashingFile } from './sparse/hashing-file.js';
import type { Passage } from '../corpora/types.js';
import { BlockColumnWriter, type DeflateOn } from './docstore-blocks.js';

export const DOCSTORE_FILES = {
  ids: 'docs/ids',
  text: 'docs/text',
  title: 'docs/title',
  docId: 'docs/docid',
  /** Optional (manifest docstore.meta): per passage the JSON of its kept fields, '' for none. */
  meta: 'docs/meta',
  source: 'docs/source.u32',
  sources: 'docs/sources.json',
} as const;

const encoder = new TextEncoder();

/** One string column: `<base>.bin` (UTF-8, concatenated) and `<base>.off` (Float64[N+1] byte offsets). */
export class StringColumnWriter {
  private blob: HashingFile;
  private offs: HashingFile;
  private chunk = new Uint8Array(1 << 20);
  private len = 0;
  private offsets = new Float64Array(4096);
  private nOff = 1;
  private total = 0;

  constructor(
    readonly dir: string,
    readonly base: string,
  ) {
    this.blob = new HashingFile(join(dir, `${base}.bin`), 1);
    this.offs = new HashingFile(join(dir, `${base}.off`));
  }

  add(s: string): void {
    let bytes: number;
    if (s.length * 3 > this.chunk.length - this.len) {
      this.flushChunk();
      if (s.length * 3 > this.chunk.length) {
        const b = encoder.encode(s);
        this.blob.write(b);
        bytes = b.length;
        this.pushOffset((this.total += bytes));
        return;
      }
    }
    bytes = encoder.encodeInto(s, this.chunk.subarray(this.len)).written;
    this.len += bytes;
    this.pushOffset((this.total += bytes));
  }

  private pushOffset(v: number): void {
    if (this.nOff === this.offsets.length) {
      this.offs.writeTyped(this.offsets);
      this.nOff = 0;
    }
    this.offsets[this.nOff++] = v;
  }

  private flushChunk(): void {
    if (this.len) this.blob.write(this.chunk.subarray(0, this.len));
    this.len = 0;
  }

  close(checksums: Record<string, string>): void {
    this.flushChunk();
    this.offs.writeTyped(this.offsets.subarray(0, this.nOff));
    checksums[`${this.base}.bin`] = this.blob.close();
    checksums[`${this.base}.off`] = this.offs.close();
  }
}

export class DocStoreWriter {
  private ids: StringColumnWriter;
  private text: StringColumnWriter | BlockColumnWriter;
  /** sha256 of the uncompressed texts (the v1 `docs/text.bin` checksum), set by close(). */
  textHash = '';
  private title: StringColumnWriter;
  private docId: StringColumnWriter;
  private source: HashingFile;
  private sourceIdx = new Map<string, number>();
  private sourceCounts: number[] = [];
  private sourceBuf = new Uint32Array(4096);
  private nSource = 0;
  /** Created at the first passage with `meta` (earlier passages get ''), so indexes without any have no such column. */
  private meta?: StringColumnWriter;
  count = 0;

  /** compress: texts in deflated blocks (doc store v2, docstore-blocks.ts); else plain (v1). */
  constructor(
    readonly dir: string,
    readonly compress = true,
    deflateOn?: DeflateOn,
  ) {
    this.ids = new StringColumnWriter(dir, DOCSTORE_FILES.ids);
    this.text = compress ? new BlockColumnWriter(dir, DOCSTORE_FILES.text, deflateOn) : new StringColumnWriter(dir, DOCSTORE_FILES.text);
    this.title = new StringColumnWriter(dir, DOCSTORE_FILES.title);
    this.docId = new StringColumnWriter(dir, DOCSTORE_FILES.docId);
    this.source = new HashingFile(join(dir, DOCSTORE_FILES.source));
  }

  add(p: Passage): void {
    this.ids.add(p.id);
    this.text.add(p.text);
    this.title.add(p.title ?? '');
    this.docId.add(p.docId ?? '');
    const src = p.source ?? '';
    let si = this.sourceIdx.get(src);
    if (si === undefined) {
      si = this.sourceCounts.length;
      this.sourceIdx.set(src, si);
      this.sourceCounts.push(0);
    }
    this.sourceCounts[si]++;
    if (this.nSource === this.sourceBuf.length) {
      this.source.writeTyped(this.sourceBuf);
      this.nSource = 0;
    }
    this.sourceBuf[this.nSource++] = si;
    if (p.meta !== undefined && !this.meta) {
      this.meta = new StringColumnWriter(this.dir, DOCSTORE_FILES.meta);
      for (let i = 0; i < this.count; i++) this.meta.add('');
    }
    this.meta?.add(p.meta !== undefined ? JSON.stringify(p.meta) : '');
    this.count++;
  }

  /** Whether any passage had `meta` (the manifest then records docstore.meta). */
  get hasMeta(): boolean {
    return this.meta !== undefined;
  }

  /** Let the text column's compression fall at most `maxBlocks` blocks behind (see BlockColumnWriter.drain). */
  async drain(maxBlocks: number): Promise<void> {
    if (this.text instanceof BlockColumnWriter) await this.text.drain(maxBlocks);
  }

  /** Close every column; returns per-source passage counts. Checksums land in `checksums`. */
  async close(checksums: Record<string, string>): Promise<Record<string, number>> {
    this.ids.close(checksums);
    if (this.text instanceof BlockColumnWriter) this.textHash = await this.text.close(checksums);
    else {
      this.text.close(checksums);
      this.textHash = checksums[`${DOCSTORE_FILES.text}.bin`];
    }
    this.title.close(checksums);
    this.docId.close(checksums);
    this.meta?.close(checksums);
    this.source.writeTyped(this.sourceBuf.subarray(0, this.nSource));
    checksums[DOCSTORE_FILES.source] = this.source.close();
    const names = [...this.sourceIdx.keys()];
    const json = JSON.stringify(names) + '\n';
    writeFileSync(join(this.dir, DOCSTORE_FILES.sources), json);
    checksums[DOCSTORE_FILES.sources] = createHash('sha256').update(json).digest('hex');
    // No prototype: a source named "__proto__" (or "constructor") is a count like any other, not a prototype write.
    const counts: Record<string, number> = Object.create(null);
    names.forEach((n, i) => (counts[n] = this.sourceCounts[i]));
    return counts;
  }
}
