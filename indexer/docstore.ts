/**
 * Reads the doc store written by docstore-writer.ts. Offsets and ids are loaded into memory
 * (a few bytes per passage); texts, titles and doc ids are read from disk by offset on demand.
 */
import { open, readFile, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { errors } from '../core/errors.js';
import type { Passage } from '../corpora/types.js';
import { DOCSTORE_FILES } from './docstore-writer.js';
import { readManifest, type Manifest } from './manifest.js';
import { checkIndexFiles, verifyOnFirstOpen } from './integrity.js';
import { checkOffsets } from './offsets.js';
import { BlockColumn, BLOCK_CODEC, BLOCK_PASSAGES, utf8Prefix } from './docstore-blocks.js';

/** Fetches passage text by id from an index's doc store. */
export interface DocStore {
  /** `maxTextBytes`: read at most that many bytes of the text (for snippets: a 60 MB passage is not read whole). */
  get(id: string, opts?: { maxTextBytes?: number }): Promise<{ id: string; text: string; title?: string; source?: string } | undefined>;
  size: number;
}

export type OpenedDocStore = DocStore & {
  /** All passages in index order. */
  entries(): AsyncIterable<Passage>;
  /** Passage ids in index order (internal doc index i ↔ ids()[i]). */
  ids(): string[];
  /** Every passage's document id ('' where none), in index order: the column read once, on first call. */
  docIds(): Promise<string[]>;
  /** A passage's fields without its text (source, title, docId, meta): for filters that must not read texts. */
  fieldsAt(index: number): Promise<Omit<Passage, 'text'>>;
  /** Passage by internal doc index (`maxTextBytes`: at most that much of its text). */
  at(index: number, opts?: { maxTextBytes?: number }): Promise<Passage>;
  /** Internal doc index of a passage id, or -1. */
  indexOf(id: string): number;
  close(): Promise<void>;
};

/** Offsets of a column, checked to rise and (when `dataFile` is given) to end at that file's size. */
async function readOffsets(dir: string, base: string, n: number, dataFile?: string): Promise<Float64Array> {
  const file = join(dir, `${base}.off`);
  const buf = await readFile(file).catch(() => {
    throw errors.indexCorrupt(file, 'doc store file is missing');
  });
  if (buf.byteLength !== (n + 1) * 8) throw errors.indexCorrupt(file, `expected ${n + 1} offsets, found ${buf.byteLength / 8}`);
  const a = new Float64Array(n + 1);
  new Uint8Array(a.buffer).set(buf);
  if (dataFile) {
    const size = await stat(join(dir, dataFile)).then(
      (s) => s.size,
      () => {
        throw errors.indexCorrupt(join(dir, dataFile), 'doc store file is missing');
      },
    );
    checkOffsets(file, a, size);
  } else checkOffsets(file, a, a[n]);
  return a;
}

class Column {
  constructor(
    private fh: FileHandle,
    readonly offsets: Float64Array,
  ) {}
  async get(i: number): Promise<string> {
    const a = this.offsets[i];
    const len = this.offsets[i + 1] - a;
    if (len === 0) return '';
    const buf = Buffer.allocUnsafe(len);
    await this.fh.read(buf, 0, len, a);
    return buf.toString('utf8');
  }
  /** At most the first `maxBytes` bytes of string i (cut at a character boundary). */
  async prefix(i: number, maxBytes: number): Promise<string> {
    const a = this.offsets[i];
    const len = Math.min(this.offsets[i + 1] - a, maxBytes);
    if (len <= 0) return '';
    const buf = Buffer.allocUnsafe(len);
    await this.fh.read(buf, 0, len, a);
    return utf8Prefix(buf);
  }
  /** Strings i..j-1 with one read. */
  async range(i: number, j: number): Promise<string[]> {
    const a = this.offsets[i];
    const len = this.offsets[j] - a;
    const buf = Buffer.allocUnsafe(len);
    if (len) await this.fh.read(buf, 0, len, a);
    const out: string[] = new Array(j - i);
    for (let x = i; x < j; x++) out[x - i] = buf.toString('utf8', this.offsets[x] - a, this.offsets[x + 1] - a);
    return out;
  }
  close(): Promise<void> {
    return this.fh.close();
  }
}

const ENTRY_BLOCK = 1024;

async function openColumn(dir: string, base: string, n: number): Promise<Column> {
  const offsets = await readOffsets(dir, base, n, `${base}.bin`);
  const file = join(dir, `${base}.bin`);
  const fh = await open(file, 'r').catch(() => {
    throw errors.indexCorrupt(file, 'doc store file is missing');
  });
  return new Column(fh, offsets);
}

/**
 * `checked`: the manifest of `dir` as a caller has just read it and checked its files with
 * checkIndexFiles and verifyOnFirstOpen (the sparse index loader does, for every data file the
 * manifest lists); those checks are then not repeated here. Without it, both run.
 */
export async function openDocStore(dir: string, checked?: Manifest): Promise<OpenedDocStore> {
  const manifest = checked ?? (await readManifest(dir));
  const n = manifest.corpus.passages;
  const store = manifest.docstore;
  if (store && (store.version > 2 || (store.text !== 'plain' && (store.text !== BLOCK_CODEC || store.blockPassages !== BLOCK_PASSAGES))))
    throw errors.indexIncompatible(dir, `doc store version ${store.version} with text "${store.text}" (block ${store.blockPassages}) is not supported by this lexcase`);
  if (!checked) {
    checkIndexFiles(dir, manifest);
    await verifyOnFirstOpen(dir, manifest);
  }
  const idOffsets = await readOffsets(dir, DOCSTORE_FILES.ids, n, `${DOCSTORE_FILES.ids}.bin`);
  const idBlob = await readFile(join(dir, `${DOCSTORE_FILES.ids}.bin`));
  const idList: string[] = new Array(n);
  const whole = idBlob.toString('utf8');
  if (whole.length === idBlob.length) for (let i = 0; i < n; i++) idList[i] = whole.slice(idOffsets[i], idOffsets[i + 1]);
  else for (let i = 0; i < n; i++) idList[i] = idBlob.toString('utf8', idOffsets[i], idOffsets[i + 1]);
  const text = store?.text === BLOCK_CODEC ? await BlockColumn.open(dir, DOCSTORE_FILES.text, await readOffsets(dir, DOCSTORE_FILES.text, n)) : await openColumn(dir, DOCSTORE_FILES.text, n);
  const title = await openColumn(dir, DOCSTORE_FILES.title, n);
  const docId = await openColumn(dir, DOCSTORE_FILES.docId, n);
  const meta = store?.meta ? await openColumn(dir, DOCSTORE_FILES.meta, n) : undefined;
  const metaAt = async (i: number): Promise<Record<string, unknown> | undefined> => {
    const j = meta ? await meta.get(i) : '';
    if (!j) return undefined;
    try {
      return JSON.parse(j) as Record<string, unknown>;
    } catch (e) {
      throw errors.indexCorrupt(join(dir, `${DOCSTORE_FILES.meta}.bin`), `entry ${i}: ${(e as Error).message}`);
    }
  };
  const srcFile = join(dir, DOCSTORE_FILES.source);
  const srcBuf = await readFile(srcFile);
  if (srcBuf.byteLength !== n * 4) throw errors.indexCorrupt(srcFile, `expected ${n} entries`);
  const sourceIdx = new Uint32Array(n);
  new Uint8Array(sourceIdx.buffer).set(srcBuf);
  const sourcesFile = join(dir, DOCSTORE_FILES.sources);
  let sources: string[];
  try {
    sources = JSON.parse(await readFile(sourcesFile, 'utf8')) as string[];
    if (!Array.isArray(sources) || sources.some((x) => typeof x !== 'string')) throw new Error('not a list of names');
  } catch (e) {
    throw errors.indexCorrupt(sourcesFile, (e as Error).message);
  }
  for (let i = 0; i < n; i++) if (sourceIdx[i] >= sources.length) throw errors.indexCorrupt(srcFile, `entry ${i} names source ${sourceIdx[i]} of ${sources.length}`);
  let byId: Map<string, number> | undefined;
  let docIdList: Promise<string[]> | undefined;

  const indexOf = (id: string): number => {
    if (!byId) {
      byId = new Map();
      for (let i = 0; i < n; i++) byId.set(idList[i], i);
    }
    return byId.get(id) ?? -1;
  };
  const at = async (i: number, opts: { maxTextBytes?: number } = {}): Promise<Passage> => {
    const t0 = opts.maxTextBytes !== undefined ? text.prefix(i, opts.maxTextBytes) : text.get(i);
    const [t, ti, d, m] = await Promise.all([t0, title.get(i), docId.get(i), metaAt(i)]);
    const p: Passage = { id: idList[i], text: t, source: sources[sourceIdx[i]] };
    if (ti) p.title = ti;
    if (d) p.docId = d;
    if (m) p.meta = m;
    return p;
  };
  const fieldsAt = async (i: number): Promise<Omit<Passage, 'text'>> => {
    if (!(i >= 0 && i < n)) throw errors.notFound('passage', `#${i}`);
    const [ti, d, m] = await Promise.all([title.get(i), docId.get(i), metaAt(i)]);
    const p: Omit<Passage, 'text'> = { id: idList[i], source: sources[sourceIdx[i]] };
    if (ti) p.title = ti;
    if (d) p.docId = d;
    if (m) p.meta = m;
    return p;
  };

  return {
    size: n,
    ids: () => idList,
    docIds: () => (docIdList ??= docId.range(0, n)),
    fieldsAt,
    indexOf,
    at,
    async get(id: string, opts?: { maxTextBytes?: number }) {
      const i = indexOf(id);
      return i < 0 ? undefined : at(i, opts);
    },
    async *entries() {
      for (let i = 0; i < n; i += ENTRY_BLOCK) {
        const j = Math.min(n, i + ENTRY_BLOCK);
        const [ts, tis, ds, ms] = await Promise.all([text.range(i, j), title.range(i, j), docId.range(i, j), meta?.range(i, j)]);
        for (let x = i; x < j; x++) {
          const p: Passage = { id: idList[x], text: ts[x - i], source: sources[sourceIdx[x]] };
          if (tis[x - i]) p.title = tis[x - i];
          if (ds[x - i]) p.docId = ds[x - i];
          if (ms?.[x - i]) p.meta = JSON.parse(ms[x - i]) as Record<string, unknown>;
          yield p;
        }
      }
    },
    async close() {
      await Promise.all([text.close(), title.close(), docId.close(), meta?.close()]);
    },
  };
}
