/**
 * buildIndex: one streaming pass over the passages → a complete index dir (doc store + sparse
 * inverted index + manifest, then the dense / lancedb-fts parts when asked), written to
 * `<out>.tmp-<pid>` and renamed into place atomically once every requested method is built.
 *
 * The main thread validates passages, writes the doc store and hands batches of texts to build
 * workers (or analyses them itself with workers: 0); each worker keeps an in-memory segment and
 * spills it to disk every `segmentPostings` postings; at the end the segments are merged.
 */
import { RUNTIME_UNICODE } from './analyzer-unicode.js';
import { closeSync, existsSync, mkdirSync, openSync, readSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { errors, isLexcaseError } from '../core/errors.js';
import { spawnWorker } from '../core/worker-url.js';
import { log } from '../core/log.js';
import { VERSION } from '../core/version.js';
import { createAnalyzer } from './analyzer.js';
import { DocStoreWriter } from './docstore-writer.js';
import { BLOCK_CODEC, BLOCK_PASSAGES } from './docstore-blocks.js';
import { recordVerified } from './integrity.js';
import { MANIFEST_FORMAT, MANIFEST_VERSION, readManifest, writeManifest, type AnalyzerConfig, type Manifest } from './manifest.js';
import { SPARSE_FILES, SPARSE_FORMAT, SPARSE_VERSION, POSTINGS_ENCODING, type SparseSection } from './sparse/format.js';
import { mergeSegments, type MergeResult } from './sparse/merge-segments.js';
import { joinRanges, planSplit, type RangeOutput } from './sparse/merge-ranges.js';
import { SegmentSpiller, type SegmentInfo } from './sparse/segment-spiller.js';
import { HashingFile } from './sparse/hashing-file.js';
import { blockBoundsSpec, type BlockBoundsOptions, type BlockBoundsSpec } from './sparse/block-bounds.js';
import { BLOCKS_FILE, writeBlockChecksums } from './block-checksums.js';
import type { AddDenseOptions } from './dense/add-dense.js';
import { isRemoteUri } from './dense/dense-section.js';
import { checkPassagesInput, defaultCorpusName, withSource, type PassageInput, type PassagesInput } from './passage-input.js';
import { checkOutDir } from './out-dir.js';
import { PhaseClock, type BuildPhase } from './build-phases.js';
import { CorpusNotes } from './corpus-notes.js';
import { IdOrdinals } from './id-ordinals.js';
import { acquireLock } from '../core/dir-lock.js';
import { clearOwnTempName, createMarkedDir, removeStaleBuildDirs, removeTempDir, swapIntoPlace } from './build-dirs.js';
import { describeType, idKey, idProblem, quoteId } from '../corpora/passage-rules.js';
import { passageOrigin, type PassageOrigin } from '../corpora/passage-origin.js';

export interface BuildOptions {
  /** Index directory to write (replaced atomically if it exists). */
  out: string;
  /** Corpus name recorded in the manifest; default: the index directory's name. Also the default `source` of passages without one. */
  corpusName?: string;
  /** Default ['bm25', 'qld']; 'dense' (indexer/dense/add-dense.ts) and 'lancedb-fts' (indexer/lancedb-fts-build.ts) are added after the sparse build. */
  methods?: string[];
  analyzer?: Partial<AnalyzerConfig>;
  /** Build worker threads: a number (0 = analyse on the main thread) or 'auto' (default): one per usable core (os.availableParallelism()). */
  workers?: number | 'auto';
  /** Postings a worker holds in memory before spilling a segment to disk (default 12M with up to 2 workers, 24M shared by more, at least 3M each). */
  segmentPostings?: number;
  /** Passages per batch handed to a worker (default 1000). */
  batchPassages?: number;
  onProgress?: (passagesDone: number) => void;
  signal?: AbortSignal;
  /** Options for the dense step (indexer/dense/add-dense.ts). */
  dense?: AddDenseOptions;
  /**
   * Dense step: first try the shipped prebuilt vectors of a bundled corpus (dense/prebuilt-dense.ts:
   * use-lite, first 128 words); used only when they match the built index, else the passages are
   * embedded with `dense`. The caller sets it when no embedder option asks for other vectors.
   */
  densePrebuilt?: boolean;
  /** Called with the prebuilt vectors' name when the dense step loaded them instead of embedding. */
  onDensePrebuilt?: (name: string) => void;
  /** Called when the sparse index is built (in the temp dir), before the dense / lancedb-fts steps (progress ends its count here). */
  onSparseBuilt?: (manifest: Manifest) => void;
  /** Store passage texts in deflated blocks of 64 (default true; false = plain v1 layout). */
  compressDocs?: boolean;
  /** Paths the passages are read from: `out` may be neither one of them nor contain one (see out-dir.ts). */
  inputs?: string[];
  /** Per-term block bounds (sparse/block-bounds.ts): block size and the shortest list that gets them, or false for none (as indexes built before them). */
  blockBounds?: BlockBoundsOptions | false;
  /** Called once the build is done with its phase timeline (build-phases.ts): wall, CPU, main-thread CPU and GC per phase. */
  onPhases?: (phases: BuildPhase[]) => void;
}

const SPARSE_METHODS = new Set(['bm25', 'qld']);

/** Build workers for a `workers` option: 'auto' (or none given) follows the usable cores (os.availableParallelism(), taskset/cgroup aware). */
export function resolveWorkers(workers: number | 'auto' | undefined, cores = availableParallelism()): number {
  if (workers === undefined || workers === 'auto') return Math.max(1, cores);
  if (typeof workers !== 'number' || !Number.isFinite(workers))
    throw errors.invalidInput('workers', `expected a number of build workers ≥ 0 or "auto", got ${JSON.stringify(workers)}`);
  return Math.max(0, Math.floor(workers));
}

/** Postings each worker holds before spilling: 12M with up to 2 workers (as before), else 24M shared (≥ 3M each), so more workers do not hold more in all. */
export const defaultSegmentPostings = (workers: number): number => (workers <= 2 ? 12_000_000 : Math.max(3_000_000, Math.floor(24_000_000 / workers)));

interface Sink {
  add(base: number, texts: string[]): Promise<void>;
  finish(): Promise<SegmentInfo[]>;
  /** Merge the segments into the sparse files of `outDir` (and the block bounds, with `bounds`). */
  merge(segments: SegmentInfo[], outDir: string, segDir: string, bounds: BlockBoundsSpec | undefined, mark?: (phase: string) => void): Promise<MergeResult>;
  close(): Promise<void>;
}

/** Doc lengths, grown as batches come back (possibly out of order). */
class Lengths {
  a = new Uint32Array(1 << 16);
  set(base: number, l: Uint32Array): void {
    if (base + l.length > this.a.length) {
      let n = this.a.length * 2;
      while (n < base + l.length) n *= 2;
      const b = new Uint32Array(n);
      b.set(this.a);
      this.a = b;
    }
    this.a.set(l, base);
  }
}

function inProcessSink(analyzer: Partial<AnalyzerConfig>, segDir: string, threshold: number, lengths: Lengths): Sink {
  const sp = new SegmentSpiller(createAnalyzer(analyzer), { segDir, name: 'w0', threshold });
  return {
    async add(base, texts) {
      lengths.set(base, sp.addBatch(base, texts));
    },
    async finish() {
      return sp.finish();
    },
    async merge(segments, outDir, _segDir, bounds) {
      return mergeSegments(
        segments.map((s) => s.path),
        outDir,
        true,
        bounds,
      );
    },
    async close() {},
  };
}

/**
 * Build workers. Every wait on a worker (a free batch slot, its segment list, its merge range) ends
 * when the worker answers, when any worker fails (an error message, e.g. ENOSPC while spilling, an
 * uncaught error, an exit) or when `signal` aborts: the first failure rejects every pending wait,
 * so a failing disk or a SIGTERM never leaves the build waiting for an answer that cannot come.
 */
function workerSink(count: number, analyzer: Partial<AnalyzerConfig>, segDir: string, threshold: number, lengths: Lengths, signal?: AbortSignal): Sink {
  const MAX_INFLIGHT = 2;
  let failure: Error | undefined;
  let closing = false;
  const waiters = new Set<{ resolve: () => void; reject: (e: Error) => void }>();
  // Take the waiting set before waking it: a waiter that is not ready yet adds itself back.
  const take = () => {
    const ws = [...waiters];
    waiters.clear();
    return ws;
  };
  const fail = (e: Error) => {
    failure ??= e;
    for (const w of take()) w.reject(failure);
  };
  const notify = () => {
    for (const w of take()) w.resolve();
  };
  const onAbort = () => fail((signal?.reason as Error) ?? new Error('build aborted'));
  if (signal?.aborted) failure = (signal.reason as Error) ?? new Error('build aborted');
  else signal?.addEventListener('abort', onAbort, { once: true });
  /** Wait for `ready` (re-checked on every worker message); rejects on the first failure. */
  const until = <T>(ready: () => T | undefined): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const check = () => {
        if (failure) return reject(failure);
        const v = ready();
        if (v !== undefined) return resolve(v);
        waiters.add({ resolve: check, reject });
      };
      check();
    });
  const ws = Array.from({ length: count }, (_, i) => {
    const worker = spawnWorker(import.meta.url, './sparse/build-worker.js');
    const state = { worker, inflight: 0, segments: undefined as SegmentInfo[] | undefined, merged: undefined as RangeOutput | undefined };
    worker.on('message', (m: { type: string; base?: number; lengths?: Uint32Array; segments?: SegmentInfo[]; output?: RangeOutput; message?: string }) => {
      if (m.type === 'batch-done') {
        lengths.set(m.base!, m.lengths!);
        state.inflight--;
      } else if (m.type === 'finished') state.segments = m.segments!;
      else if (m.type === 'merged') state.merged = m.output!;
      else if (m.type === 'error') return fail(workerError(i, m.message ?? 'unknown error'));
      notify();
    });
    worker.on('error', (e) => fail(workerError(i, e.stack ?? e.message, e)));
    worker.on('exit', (code) => {
      if (!closing) fail(new Error(`build worker ${i} exited unexpectedly (code ${code})`));
    });
    worker.postMessage({ type: 'init', analyzer, segDir, name: `w${i}`, threshold });
    return state;
  });
  return {
    async add(base, texts) {
      const free = await until(() => ws.filter((w) => w.inflight < MAX_INFLIGHT).sort((a, b) => a.inflight - b.inflight)[0]);
      free.inflight++;
      free.worker.postMessage({ type: 'batch', base, texts });
    },
    async finish() {
      await until(() => (ws.every((w) => w.inflight === 0) ? true : undefined));
      for (const w of ws) w.worker.postMessage({ type: 'finish' });
      const lists = await until(() => (ws.every((w) => w.segments) ? ws.map((w) => w.segments!) : undefined));
      return lists.flat();
    },
    async merge(segments, outDir, segDir, bounds, mark) {
      // Two workers merge half of the terms each; one segment, or one worker, merges here.
      const plan =
        ws.length >= 2 && segments.length >= 2
          ? planSplit(
              segments,
              segments.map((s) => s.bytes),
            )
          : null;
      if (!plan)
        return mergeSegments(
          segments.map((s) => s.path),
          outDir,
          true,
          bounds,
        );
      const prefixes = plan.map((_, i) => join(segDir, `range-${i}`));
      // Each worker derives its range's block bounds as it merges; the doc lengths are shared, not copied.
      let shared: BlockBoundsSpec | undefined;
      if (bounds) {
        const doclen = new Uint32Array(new SharedArrayBuffer(bounds.doclen.byteLength));
        doclen.set(bounds.doclen);
        shared = { ...bounds, doclen };
      }
      plan.forEach((job, i) => ws[i].worker.postMessage({ type: 'merge', job: shared ? { ...job, bounds: shared } : job, prefix: prefixes[i] }));
      const outputs = await until(() => (plan.every((_, i) => ws[i].merged) ? plan.map((_, i) => ws[i].merged!) : undefined));
      mark?.('merge-ranges');
      return joinRanges(prefixes, outputs, outDir, bounds);
    },
    async close() {
      closing = true;
      signal?.removeEventListener('abort', onAbort);
      await Promise.all(ws.map((w) => w.worker.terminate()));
    },
  };
}

/** A worker's failure as one line (its stack kept for --debug), with the system error code (ENOSPC…) when there is one. */
function workerError(i: number, message: string, cause?: unknown): Error {
  const first = message.split('\n')[0].replace(/^Error: /, '');
  const code = /\b(E[A-Z]{2,})\b/.exec(first)?.[1];
  return Object.assign(new Error(`build worker ${i} failed: ${first}`, cause ? { cause } : undefined), { stack: message, ...(code ? { code } : {}) });
}

/** An id quoted with every non-ASCII character escaped (\u00e9 vs e\u0301: twins that print alike). */
const asciiId = (id: string): string => JSON.stringify(id).replace(/[^\u0020-\u007e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The id of passage `i` (build order) from a doc store's ids column on disk (docs/ids.off: Float64 offsets into docs/ids.bin). */
function readIdAt(dir: string, i: number): string {
  const off = Buffer.alloc(16);
  const fo = openSync(join(dir, 'docs/ids.off'), 'r');
  try {
    readSync(fo, off, 0, 16, i * 8);
  } finally {
    closeSync(fo);
  }
  const start = off.readDoubleLE(0);
  const bytes = Buffer.alloc(off.readDoubleLE(8) - start);
  const fb = openSync(join(dir, 'docs/ids.bin'), 'r');
  try {
    readSync(fb, bytes, 0, bytes.length, start);
  } finally {
    closeSync(fb);
  }
  return bytes.toString('utf8');
}

/** Each passage's line (by ordinal, 4 bytes a passage) and the ordinals where a new file starts: where the first of two duplicate ids was read. */
class PassageOrigins {
  private lines = new Uint32Array(1 << 12);
  private files: { from: number; file: string }[] = [];
  add(ordinal: number, origin: PassageOrigin | undefined): void {
    if (!origin) return;
    if (ordinal >= this.lines.length) {
      const grown = new Uint32Array(Math.max(this.lines.length * 2, ordinal + 1));
      grown.set(this.lines);
      this.lines = grown;
    }
    this.lines[ordinal] = origin.line;
    if (this.files.at(-1)?.file !== origin.file) this.files.push({ from: ordinal, file: origin.file });
  }
  of(ordinal: number): PassageOrigin | undefined {
    const line = ordinal < this.lines.length ? this.lines[ordinal] : 0;
    if (!line) return undefined;
    for (let i = this.files.length - 1; i >= 0; i--) if (this.files[i].from <= ordinal) return { file: this.files[i].file, line };
    return undefined;
  }
  clear(): void {
    this.lines = new Uint32Array(0);
    this.files = [];
  }
}

function checkPassage(p: PassageInput, position: number, corpusName: string): void {
  if (!p || typeof p !== 'object') throw errors.corpusParse(corpusName, position, 'passage is not an object');
  if (typeof p.id !== 'string' || p.id.length === 0) throw errors.corpusParse(corpusName, position, 'passage field "id" must be a non-empty string');
  const bad = idProblem(p.id);
  if (bad) throw errors.corpusParse(corpusName, position, `passage id ${quoteId(p.id)} ${bad}`);
  if (typeof p.text !== 'string')
    throw errors.corpusParse(corpusName, position, `passage "${p.id}": field "text" must be a string, got ${describeType(p.text)}`);
  if (p.meta !== undefined) {
    if (!p.meta || typeof p.meta !== 'object' || Array.isArray(p.meta))
      throw errors.corpusParse(corpusName, position, `passage "${p.id}": field "meta" must be an object of JSON fields, got ${describeType(p.meta)}`);
    try {
      JSON.stringify(p.meta);
    } catch (e) {
      throw errors.corpusParse(corpusName, position, `passage "${p.id}": field "meta" is not JSON: ${(e as Error).message}`);
    }
  }
}

/**
 * Build an index dir from `passages` (an array or any sync/async iterable of `{id, text, title?,
 * docId?, source?}`) into `opts.out`. Returns the manifest written.
 */
export async function buildIndex<T extends PassageInput>(passages: PassagesInput<T>, opts: BuildOptions): Promise<Manifest> {
  if (!opts || typeof opts !== 'object') throw errors.usage('buildIndex: options are required', 'e.g. buildIndex(passages, { out: "my-index" })');
  if (typeof opts.out !== 'string' || !opts.out)
    throw errors.invalidInput('out', `buildIndex needs the index directory to write as option "out", got ${JSON.stringify(opts.out)}`);
  if (opts.corpusName !== undefined && (typeof opts.corpusName !== 'string' || !opts.corpusName))
    throw errors.invalidInput('corpusName', `expected a non-empty string, got ${JSON.stringify(opts.corpusName)}`);
  checkPassagesInput(passages);
  // Refuse before anything is written: only a new/empty dir or a lexcase index may be replaced.
  const out = checkOutDir(opts.out, opts.inputs).target;
  const corpusName = opts.corpusName ?? defaultCorpusName(out);
  const methods = opts.methods ?? ['bm25', 'qld'];
  for (const m of methods)
    if (!SPARSE_METHODS.has(m) && m !== 'dense' && m !== 'lancedb-fts')
      throw errors.usage(`unknown index method "${m}" (known: bm25, qld, dense, lancedb-fts)`);
  const analyzer = createAnalyzer(opts.analyzer).config;
  const workers = resolveWorkers(opts.workers);
  const threshold = Math.max(1, opts.segmentPostings ?? defaultSegmentPostings(workers));
  const batchPassages = Math.max(1, opts.batchPassages ?? 1000);
  // a dense store in object storage that does not answer: said before the sparse build, so nothing is
  // built for nothing (before, it failed after BM25 was built and the embedder loaded; the build was thrown away)
  const denseUri = opts.dense?.uri;
  if (methods.includes('dense') && denseUri && isRemoteUri(denseUri)) await (await import('./dense/dense-store.js')).checkDenseStore(denseUri);

  mkdirSync(dirname(out), { recursive: true });
  // One writer per index dir: a second build (or `index dense`) of the same dir gets LOCKED.
  const lock = acquireLock(`${out}.lock`, opts.out, 'index build');
  try {
    return await buildLocked(passages, opts, { out, corpusName, methods, analyzer, workers, threshold, batchPassages });
  } finally {
    lock.release();
  }
}

interface Resolved {
  out: string;
  corpusName: string;
  methods: string[];
  analyzer: AnalyzerConfig;
  workers: number;
  threshold: number;
  batchPassages: number;
}

/** System errors of a write that the build cannot go on after. */
const WRITE_FAILURES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO', 'EFBIG']);

async function buildLocked<T extends PassageInput>(passages: PassagesInput<T>, opts: BuildOptions, r: Resolved): Promise<Manifest> {
  const { out, corpusName, methods, analyzer, workers, threshold, batchPassages } = r;
  // Temp and old dirs of builds whose process is gone: removed (or put back) only when their marker proves them a build's.
  removeStaleBuildDirs(out);
  const tmp = `${out}.tmp-${process.pid}`;
  clearOwnTempName(tmp);
  let token: string | undefined;
  let sink: Sink | undefined;
  let manifest: Manifest;
  const checksums: Record<string, string> = {};
  const clock = opts.onPhases ? new PhaseClock() : undefined;
  const mark = (name: string) => clock?.mark(name);
  try {
    token = createMarkedDir(tmp, 'index-build').token;
    const segDir = join(tmp, 'segments');
    mkdirSync(join(tmp, 'docs'));
    mkdirSync(join(tmp, 'sparse'));
    mkdirSync(segDir);
    const lengths = new Lengths();
    const sinkNow = workers > 0 ? workerSink(workers, analyzer, segDir, threshold, lengths, opts.signal) : inProcessSink(analyzer, segDir, threshold, lengths);
    sink = sinkNow;
    const compressDocs = opts.compressDocs ?? true;
    const docs = new DocStoreWriter(tmp, compressDocs);
    // Every id's NFC key, off the GC heap (id-ordinals.ts): index i is passage i + 1.
    const seen = new IdOrdinals();
    const origins = new PassageOrigins();
    const notes = new CorpusNotes();
    /** Ids whose NFC form differs from the id as read (keyed by the NFC form), for the message naming both. */
    const twins = new Map<string, string>();
    let batch: string[] = [];
    let batchChars = 0;
    let base = 0;
    let n = 0;
    const flush = async () => {
      if (!batch.length) return;
      const texts = batch;
      batch = [];
      batchChars = 0;
      await sinkNow.add(base, texts);
      // Text blocks are deflated on zlib's thread pool meanwhile; keep at most ~2 batches of them in flight.
      await docs.drain(32);
      base += texts.length;
      opts.onProgress?.(base);
    };
    for await (const p of passages) {
      if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('build aborted');
      checkPassage(p, n + 1, corpusName);
      // Ids are compared in Unicode NFC: "café" written precomposed and decomposed are one id.
      const key = idKey(p.id);
      const found = seen.addOrFind(key);
      const first = found >= 0 ? found + 1 : undefined;
      // A file loader's passage is named by its file and line (a CSV header, blank lines and
      // multi-line records make the line differ from the passage's ordinal); a passage built in code by its ordinal.
      const origin = passageOrigin(p);
      if (first !== undefined) {
        const firstId = twins.get(key) ?? key;
        const file = origin?.file ?? corpusName;
        const line = origin?.line ?? n + 1;
        const firstOrigin = origins.of(first);
        const firstAt = firstOrigin
          ? firstOrigin.file === file
            ? `line ${firstOrigin.line}`
            : `${firstOrigin.file}:${firstOrigin.line}`
          : `passage #${first}`;
        const e = errors.duplicateId(p.id, file, line);
        e.message =
          firstId !== p.id
            ? `${file}:${line}: passage id ${asciiId(p.id)} (field "id") is the id ${asciiId(firstId)} of the passage ${firstOrigin ? `on ${firstAt}` : firstAt} in another Unicode form (the same after NFC normalisation): any tool that normalises text makes them one id; give them distinct ids`
            : `${e.message} (first seen ${firstOrigin ? 'on' : 'as'} ${firstAt})`;
        throw e;
      }
      origins.add(n + 1, origin);
      if (key !== p.id) twins.set(key, p.id);
      docs.add(withSource(p, corpusName));
      notes.add(p);
      batch.push(p.text);
      batchChars += p.text.length;
      n++;
      if (batch.length >= batchPassages || batchChars >= 4_000_000) await flush();
    }
    await flush();
    mark('ingest');
    seen.clear();
    twins.clear();
    origins.clear();
    if (n === 0) throw errors.corpusEmpty(corpusName);
    const segments = await sinkNow.finish();
    mark('last-segments');
    if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('build aborted');
    const sources = await docs.close(checksums);
    mark('docstore-close');

    // Doc lengths, their sum, and doc order by (length, index) via a counting sort.
    const dl = lengths.a.subarray(0, n);
    // Passages with text but no index term (stopwords, punctuation), named by their id in the ids column just written.
    notes.addLengths(dl, (i) => readIdAt(tmp, i));
    for (const w of notes.warnings(corpusName, n)) log.warn(w);
    let total = 0;
    let maxLen = 0;
    for (let i = 0; i < n; i++) {
      total += dl[i];
      if (dl[i] > maxLen) maxLen = dl[i];
    }
    const counts = new Uint32Array(maxLen + 2);
    for (let i = 0; i < n; i++) counts[dl[i] + 1]++;
    for (let l = 1; l < counts.length; l++) counts[l] += counts[l - 1];
    const byLen = new Uint32Array(n);
    for (let i = 0; i < n; i++) byLen[counts[dl[i]]++] = i;
    for (const [name, a] of [
      [SPARSE_FILES.doclen, dl],
      [SPARSE_FILES.bylen, byLen],
    ] as const) {
      const f = new HashingFile(join(tmp, name));
      f.writeTyped(a);
      checksums[name] = f.close();
    }

    mark('doc-lengths');
    // Per term and block the largest tf and smallest doc length (block-bounds.ts), derived in the merge from the postings it writes.
    const bounds = opts.blockBounds !== false ? blockBoundsSpec(dl, opts.blockBounds) : undefined;
    const merged = await sinkNow.merge(segments, tmp, segDir, bounds, mark);
    mark('merge-join');
    Object.assign(checksums, merged.checksums);
    removeTempDir(segDir, tmp, token);
    mark('remove-segments');
    const blockBounds = merged.blockBounds;
    if (blockBounds) checksums[blockBounds.section.file] = blockBounds.sha256;

    const corpusHash = createHash('sha256');
    // Over the uncompressed texts, so the corpus checksum does not depend on the doc store layout.
    for (const h of [checksums['docs/ids.bin'], checksums['docs/ids.off'], docs.textHash, checksums['docs/text.off']]) corpusHash.update(h);
    const sparse: SparseSection = {
      format: SPARSE_FORMAT,
      version: SPARSE_VERSION,
      encoding: POSTINGS_ENCODING,
      documents: n,
      terms: merged.terms,
      postings: merged.postings,
      totalTokens: total,
      avgDocLength: n ? total / n : 0,
      maxDocLength: maxLen,
      segments: segments.length,
      bytes: 0,
      ...(blockBounds ? { blockBounds: blockBounds.section } : {}),
    };
    for (const f of [...Object.values(SPARSE_FILES), ...(blockBounds ? [blockBounds.section.file] : [])]) sparse.bytes += (await stat(join(tmp, f))).size;
    // Block checksums of every data file, which readers check as queries read them (block-checksums.ts).
    const blocks = writeBlockChecksums(tmp, Object.keys(checksums));
    checksums[BLOCKS_FILE] = blocks.sha256;
    mark('block-checksums');
    const sizes: Record<string, number> = {};
    for (const f of Object.keys(checksums).sort()) sizes[f] = (await stat(join(tmp, f))).size;
    manifest = {
      format: MANIFEST_FORMAT,
      version: MANIFEST_VERSION,
      lexcaseVersion: VERSION,
      createdAt: new Date().toISOString(),
      corpus: { name: corpusName, checksum: corpusHash.digest('hex'), passages: n, sources, ...notes.counts() },
      analyzer,
      analyzerUnicode: RUNTIME_UNICODE,
      methods: methods.filter((m) => SPARSE_METHODS.has(m)),
      checksums: Object.fromEntries(Object.entries(checksums).sort(([a], [b]) => (a < b ? -1 : 1))),
      sizes,
      sparse,
      docstore: {
        ...(compressDocs ? { version: 2, text: BLOCK_CODEC, blockPassages: BLOCK_PASSAGES } : { version: 1, text: 'plain' }),
        ...(docs.hasMeta ? { meta: true } : {}),
      },
      blocks: { ...blocks.section },
    };
    await writeManifest(tmp, manifest);
    await sinkNow.close();
    sink = undefined;
    mark('manifest');
    if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('build aborted');
    opts.onSparseBuilt?.(manifest);
    // Every requested method is built in the temp dir too: the new index is swapped in only when all
    // are done, so a Ctrl-C or a failing embedder during the dense step leaves the old index as it was.
    if (methods.includes('dense')) manifest = await runDenseHook(tmp, opts);
    if (methods.includes('lancedb-fts')) manifest = await runLanceFtsHook(tmp);
    if (opts.signal?.aborted) throw opts.signal.reason ?? new Error('build aborted');
    // Check again: the directory may have changed during the build.
    checkOutDir(opts.out, opts.inputs);
    await swapIntoPlace(tmp, out);
  } catch (e) {
    clock?.done();
    await sink?.close().catch(() => undefined);
    if (token) removeTempDir(tmp, tmp, token);
    // a full disk or file-size limit: say which index, and that the one already there was not touched
    // (only swapIntoPlace writes `out`, and it puts the old index back if it fails)
    if (!isLexcaseError(e) && WRITE_FAILURES.has((e as NodeJS.ErrnoException)?.code ?? ''))
      throw errors.indexWriteFailed(opts.out, e, existsSync(join(out, 'manifest.json')));
    throw e;
  }
  // The checksums were just computed from the bytes written: the next opens need not hash them again.
  await recordVerified(out, manifest);
  if (clock) {
    mark('swap-record');
    opts.onPhases?.(clock.done());
  }
  return manifest;
}

/**
 * Dense step: when 'dense' is among the methods, the shipped prebuilt vectors (when asked for and
 * they match) or indexer/dense/add-dense.ts add the dense section to the build's temp dir (before
 * it is swapped into place).
 * Imported lazily so sparse-only builds never load LanceDB.
 */
async function runDenseHook(out: string, opts: BuildOptions): Promise<Manifest> {
  // The table's owner metadata names the index being built, not its temp dir.
  const dense = { ...opts.dense, signal: opts.dense?.signal ?? opts.signal, indexDir: opts.dense?.indexDir ?? resolve(opts.out) };
  if (opts.densePrebuilt) {
    const { loadPrebuiltDense } = await import('./dense/prebuilt-dense.js');
    const name = await loadPrebuiltDense(out, (l) => log.info(l.trim()), dense.signal, {
      uri: dense.uri,
      table: dense.table,
      ann: dense.ann,
      annThreshold: dense.annThreshold,
      indexDir: dense.indexDir,
    });
    if (name) {
      opts.onDensePrebuilt?.(name);
      return readManifest(out);
    }
  }
  const { addDenseIndex } = await import('./dense/add-dense.js');
  return addDenseIndex(out, dense);
}

/** lancedb-fts step: LanceDB's own full-text index over the build's temp dir (imported lazily). */
async function runLanceFtsHook(out: string): Promise<Manifest> {
  const { ensureLanceFts } = await import('./lancedb-fts-build.js');
  await ensureLanceFts(out, { rebuild: true });
  return readManifest(out);
}
