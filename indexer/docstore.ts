/**
 * Reads the doc store written by docstore-writer.ts. Offsets and ids are loaded into memory
 * (a few bytes per passage: the ids as their UTF-8 bytes, offsets as Uint32 where the column is
 * under 4 GiB, the source of each passage in the narrowest integer that holds it; a JS string per
 * id only when ids() is called); texts, titles and doc ids are read from disk by offset on demand.
 */
import { open, readFile, stat, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { errors, isLexcaseError } from '../core/errors.js';
import type { Passage } from '../corpora/types.js';
import { DOCSTORE_FILES } from './docstore-writer.js';
import { readManifest, type Manifest } from './manifest.js';
import { checkIndexFiles, verifyOnFirstOpen } from './integrity.js';
import { checkWholeFile, openIndexBlocks, readChecked, type FileBlocks, type IndexBlocks } from './block-checksums.js';
import { checkOffsets, compactOffsets, type Offsets } from './offsets.js';
import { buildIdLookup, type IdLookup } from './id-lookup.js';
import { BlockColumn, BLOCK_CODEC, BLOCK_PASSAGES, utf8Prefix } from './docstore-blocks.js';
import { closeOwned, releaseOnCollect } from './release-on-collect.js';

/** Fetches passage text by id from an index's doc store. */
export interface DocStore {
  /** `maxTextBytes`: read at most that many bytes of the text (for snippets: a 60 MB passage is not read whole). */
  get(id: string, opts?: { maxTextBytes?: number }): Promise<{ id: string; text: string; title?: string; source?: string } | undefined>;
  size: number;
}

export type OpenedDocStore = DocStore & {
  /** All passages in index order. */
  entries(): AsyncIterable<Passage>;
  /** Passage ids in index order (internal doc index i ↔ ids()[i]): every id as a string, made on the first call (~50 bytes per passage held from then on; idAt does not). */
  ids(): string[];
  /** The passage id of internal doc index i (decoded from the id bytes; nothing held). */
  idAt(i: number): string;
  /** Every passage's document id ('' where none), in index order: the column read once, on first call. */
  docIds(): Promise<string[]>;
  /** A passage's fields without its text (source, title, docId, meta): for filters that must not read texts. */
  fieldsAt(index: number): Promise<Omit<Passage, 'text'>>;
  /** Passage by internal doc index (`maxTextBytes`: at most that much of its text). */
  at(index: number, opts?: { maxTextBytes?: number }): Promise<Passage>;
  /** Internal doc index of a passage id, or -1. */
  indexOf(id: string): number;
  /**
   * The passages whose source is one of `names`, as a mask over internal doc indices (1 = kept) and
   * their number; read from the in-memory source column, no text. Names the index does not hold
   * match nothing (count 0) without a pass over the passages.
   */
  sourceMask(names: readonly string[]): { mask: Uint8Array; count: number };
  /** The source names the index holds (each passage's source is one of them). */
  sources(): string[];
  close(): Promise<void>;
};

/** Offsets of a column, checked to rise and (when `dataFile` is given) to end at that file's size. */
async function readOffsets(dir: string, base: string, n: number, blocks: IndexBlocks | undefined, dataFile?: string): Promise<Offsets> {
  const file = join(dir, `${base}.off`);
  const buf = await readFile(file).catch(() => {
    throw errors.indexCorrupt(file, 'doc store file is missing');
  });
  checkWholeFile(blocks?.of(`${base}.off`), buf);
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
  return compactOffsets(a);
}

/** A string column read by offset; the blocks a read touches are checked against their CRC-32 first (once). */
class Column {
  constructor(
    private fh: FileHandle,
    readonly offsets: Offsets,
    private blocks: FileBlocks | undefined,
    private file: string,
  ) {
    releaseOnCollect(this, fh);
  }
  private read(a: number, len: number): Promise<Buffer> {
    return readChecked(this.blocks, this.fh, this.file, a, a + len);
  }
  async get(i: number): Promise<string> {
    const a = this.offsets[i];
    const len = this.offsets[i + 1] - a;
    if (len === 0) return '';
    return (await this.read(a, len)).toString('utf8');
  }
  /** At most the first `maxBytes` bytes of string i (cut at a character boundary). */
  async prefix(i: number, maxBytes: number): Promise<string> {
    const a = this.offsets[i];
    const len = Math.min(this.offsets[i + 1] - a, maxBytes);
    if (len <= 0) return '';
    return utf8Prefix(await this.read(a, len));
  }
  /** Strings i..j-1 with one read. */
  async range(i: number, j: number): Promise<string[]> {
    const a = this.offsets[i];
    const len = this.offsets[j] - a;
    const buf = await this.read(a, len);
    const out: string[] = new Array(j - i);
    for (let x = i; x < j; x++) out[x - i] = buf.toString('utf8', this.offsets[x] - a, this.offsets[x + 1] - a);
    return out;
  }
  close(): Promise<void> {
    return closeOwned(this, this.fh);
  }
}

const ENTRY_BLOCK = 1024;

async function openColumn(dir: string, base: string, n: number, blocks: IndexBlocks | undefined): Promise<Column> {
  const offsets = await readOffsets(dir, base, n, blocks, `${base}.bin`);
  const file = join(dir, `${base}.bin`);
  const fh = await open(file, 'r').catch(() => {
    throw errors.indexCorrupt(file, 'doc store file is missing');
  });
  return new Column(fh, offsets, blocks?.of(`${base}.bin`), file);
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
    throw errors.indexIncompatible(
      dir,
      `doc store version ${store.version} with text "${store.text}" (block ${store.blockPassages}) is not supported by this lexcase`,
    );
  if (!checked) {
    checkIndexFiles(dir, manifest);
    await verifyOnFirstOpen(dir, manifest);
  }
  // Files read whole are checked block by block as read; texts, titles and doc ids as reads touch them.
  const blocks = await openIndexBlocks(dir, manifest);
  const idOffsets = await readOffsets(dir, DOCSTORE_FILES.ids, n, blocks, `${DOCSTORE_FILES.ids}.bin`);
  const idBlob = await readFile(join(dir, `${DOCSTORE_FILES.ids}.bin`));
  checkWholeFile(blocks?.of(`${DOCSTORE_FILES.ids}.bin`), idBlob);
  // ids stay bytes: a JS string per id costs ~50 bytes of heap per passage (≈ 0.5 GB at 10M)
  const idAt = (i: number): string => idBlob.toString('utf8', idOffsets[i], idOffsets[i + 1]);
  let idList: string[] | undefined;
  const ids = (): string[] => {
    if (!idList) {
      const all: string[] = new Array(n);
      const whole = idBlob.toString('utf8');
      if (whole.length === idBlob.length) for (let i = 0; i < n; i++) all[i] = whole.slice(idOffsets[i], idOffsets[i + 1]);
      else for (let i = 0; i < n; i++) all[i] = idAt(i);
      idList = all;
    }
    return idList;
  };
  const text =
    store?.text === BLOCK_CODEC
      ? await BlockColumn.open(dir, DOCSTORE_FILES.text, await readOffsets(dir, DOCSTORE_FILES.text, n, blocks), blocks)
      : await openColumn(dir, DOCSTORE_FILES.text, n, blocks);
  const title = await openColumn(dir, DOCSTORE_FILES.title, n, blocks);
  const docId = await openColumn(dir, DOCSTORE_FILES.docId, n, blocks);
  const meta = store?.meta ? await openColumn(dir, DOCSTORE_FILES.meta, n, blocks) : undefined;
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
  checkWholeFile(blocks?.of(DOCSTORE_FILES.source), srcBuf);
  const wide = new Uint32Array(n);
  new Uint8Array(wide.buffer).set(srcBuf);
  const sourcesFile = join(dir, DOCSTORE_FILES.sources);
  let sources: string[];
  try {
    const raw = await readFile(sourcesFile);
    checkWholeFile(blocks?.of(DOCSTORE_FILES.sources), raw);
    sources = JSON.parse(raw.toString('utf8')) as string[];
    if (!Array.isArray(sources) || sources.some((x) => typeof x !== 'string')) throw new Error('not a list of names');
  } catch (e) {
    if (isLexcaseError(e)) throw e;
    throw errors.indexCorrupt(sourcesFile, (e as Error).message);
  }
  for (let i = 0; i < n; i++) if (wide[i] >= sources.length) throw errors.indexCorrupt(srcFile, `entry ${i} names source ${wide[i]} of ${sources.length}`);
  // each passage's source in the narrowest array that holds every source's number
  const sourceIdx = sources.length <= 0x100 ? Uint8Array.from(wide) : sources.length <= 0x10000 ? Uint16Array.from(wide) : wide;
  let byId: IdLookup | undefined;
  let docIdList: Promise<string[]> | undefined;

  const indexOf = (id: string): number => (byId ??= buildIdLookup(idBlob, idOffsets, n)).indexOf(id);
  const at = async (i: number, opts: { maxTextBytes?: number } = {}): Promise<Passage> => {
    const t0 = opts.maxTextBytes !== undefined ? text.prefix(i, opts.maxTextBytes) : text.get(i);
    const [t, ti, d, m] = await Promise.all([t0, title.get(i), docId.get(i), metaAt(i)]);
    const p: Passage = { id: idAt(i), text: t, source: sources[sourceIdx[i]] };
    if (ti) p.title = ti;
    if (d) p.docId = d;
    if (m) p.meta = m;
    return p;
  };
  const fieldsAt = async (i: number): Promise<Omit<Passage, 'text'>> => {
    if (!(i >= 0 && i < n)) throw errors.notFound('passage', `#${i}`);
    const [ti, d, m] = await Promise.all([title.get(i), docId.get(i), metaAt(i)]);
    const p: Omit<Passage, 'text'> = { id: idAt(i), source: sources[sourceIdx[i]] };
    if (ti) p.title = ti;
    if (d) p.docId = d;
    if (m) p.meta = m;
    return p;
  };

  const sourceMask = (names: readonly string[]): { mask: Uint8Array; count: number } => {
    const wanted = new Uint8Array(sources.length);
    let any = false;
    for (const name of names) {
      const s = sources.indexOf(name);
      if (s >= 0) {
        wanted[s] = 1;
        any = true;
      }
    }
    const mask = new Uint8Array(any ? n : 0);
    let count = 0;
    if (any)
      for (let i = 0; i < n; i++)
        if (wanted[sourceIdx[i]]) {
          mask[i] = 1;
          count++;
        }
    return { mask, count };
  };

  return {
    size: n,
    ids,
    idAt,
    docIds: () => (docIdList ??= docId.range(0, n)),
    fieldsAt,
    indexOf,
    sourceMask,
    sources: () => [...sources],
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
          const p: Passage = { id: idAt(x), text: ts[x - i], source: sources[sourceIdx[x]] };
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
