/**
 * The loaded sparse index: a few large reads into typed arrays (no JSON parsing of postings), plus
 * the analyzer rebuilt from the manifest and the doc store (for ids and texts).
 */
import { warnAnalyzerUnicode } from '../analyzer-unicode.js';
import { closeSync, fstatSync, openSync } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { endianness } from 'node:os';
import { join } from 'node:path';
import { errors } from '../../core/errors.js';
import { createAnalyzer, type Analyzer } from '../analyzer.js';
import { openDocStore, type OpenedDocStore } from '../docstore.js';
import { readManifest, type Manifest } from '../manifest.js';
import { SPARSE_FILES, SPARSE_VERSION, sparseSectionProblem, type SparseSection } from './format.js';
import { checkIndexFiles, verifyOnFirstOpen } from '../integrity.js';
import { checkWholeFile, openIndexBlocks, type IndexBlocks } from '../block-checksums.js';
import { checkOffsets } from '../offsets.js';
import { scoringView, type ScoringData, type ScoringView } from './scoring-view.js';
import { loadBlockBounds } from './block-bounds.js';

export interface SparseIndex extends ScoringData {
  dir: string;
  /** The whole doc range, for in-process scoring. */
  view: ScoringView;
  manifest: Manifest;
  section: SparseSection;
  analyzer: Analyzer;
  docs: OpenedDocStore;
  /** Number of documents N. */
  N: number;
  /** Total index terms in the collection (Σ doc lengths). */
  totalTokens: number;
  avgdl: number;
  terms: string[];
  df: Uint32Array;
  cf: Float64Array;
  offsets: Float64Array;
  postings: Uint8Array;
  doclen: Uint32Array;
  /** Doc indices ordered by (length, index). */
  byLen: Uint32Array;
  /** Term id of an index term (binary search), or -1. */
  termId(term: string): number;
  /** Close the postings file descriptor (when postings are read from disk); after the query workers are gone. */
  closePostings(): void;
}

/** Postings files above this size stay on disk and are read per list (retrieval/sparse/list-bytes.ts). */
export const POSTINGS_IN_MEMORY_MAX = 64 * 2 ** 20;

export interface LoadSparseOptions {
  /** Hold the whole postings file in memory (default: when it is ≤ 64 MiB). */
  postingsInMemory?: boolean;
}

/** Read a whole file straight into shared memory (query workers see it without a copy). */
async function readShared(file: string, expectBytes: number): Promise<SharedArrayBuffer> {
  const fh = await open(file, 'r').catch(() => {
    throw errors.indexCorrupt(file, 'sparse index file is missing');
  });
  try {
    const size = (await fh.stat()).size;
    if (size !== expectBytes) throw errors.indexCorrupt(file, `expected ${expectBytes} bytes, found ${size}`);
    const sab = new SharedArrayBuffer(size);
    const view = new Uint8Array(sab);
    let off = 0;
    while (off < size) {
      const { bytesRead } = await fh.read(view, off, Math.min(size - off, 1 << 26), off);
      if (bytesRead === 0) throw errors.indexCorrupt(file, 'file shrank while reading');
      off += bytesRead;
    }
    return sab;
  } finally {
    await fh.close();
  }
}

async function readTyped<T extends Uint32Array | Float64Array>(
  dir: string,
  rel: string,
  make: (b: SharedArrayBuffer) => T,
  bytesPer: number,
  expect: number,
  blocks: IndexBlocks | undefined,
): Promise<T> {
  const sab = await readShared(join(dir, rel), expect * bytesPer);
  checkWholeFile(blocks?.of(rel), new Uint8Array(sab));
  return make(sab);
}

/** Counts that must add up: Σdf = postings, Σdoclen = totalTokens, bylen a permutation of 0..N-1. */
function checkCounts(dir: string, section: SparseSection, df: Uint32Array, doclen: Uint32Array, byLen: Uint32Array): void {
  let postings = 0;
  for (let i = 0; i < df.length; i++) postings += df[i];
  if (postings !== section.postings)
    throw errors.indexCorrupt(join(dir, SPARSE_FILES.df), `document frequencies add up to ${postings}, the manifest says ${section.postings} postings`);
  let tokens = 0;
  for (let i = 0; i < doclen.length; i++) tokens += doclen[i];
  if (tokens !== section.totalTokens)
    throw errors.indexCorrupt(join(dir, SPARSE_FILES.doclen), `document lengths add up to ${tokens}, the manifest says ${section.totalTokens} tokens`);
  const seen = new Uint8Array(byLen.length);
  for (let i = 0; i < byLen.length; i++) {
    const d = byLen[i];
    if (d >= byLen.length || seen[d])
      throw errors.indexCorrupt(join(dir, SPARSE_FILES.bylen), `entry ${i} (${d}) is not a permutation of the ${byLen.length} documents`);
    seen[d] = 1;
  }
}

export async function loadSparseIndex(dir: string, opts: LoadSparseOptions = {}): Promise<SparseIndex> {
  const manifest = await readManifest(dir);
  if (!manifest.sparse) throw errors.indexIncompatible(dir, 'the manifest has no "sparse" section (no bm25/qld index was built)');
  const problem = sparseSectionProblem(manifest.sparse);
  if (problem) throw errors.indexIncompatible(dir, `manifest field "${problem.field}": ${problem.message}`);
  const section = manifest.sparse as SparseSection;
  if (section.version > SPARSE_VERSION)
    throw errors.indexIncompatible(dir, `sparse format version ${section.version} is newer than this lexcase supports (${SPARSE_VERSION})`);
  if (endianness() !== 'LE') throw errors.indexIncompatible(dir, 'index files are little-endian; this machine is big-endian');
  checkIndexFiles(dir, manifest);
  await verifyOnFirstOpen(dir, manifest);
  const blocks = await openIndexBlocks(dir, manifest);
  const N = section.documents;
  const V = section.terms;
  const termsFile = join(dir, SPARSE_FILES.terms);
  const termsBytes = await readFile(termsFile).catch(() => {
    throw errors.indexCorrupt(termsFile, 'sparse index file is missing');
  });
  checkWholeFile(blocks?.of(SPARSE_FILES.terms), termsBytes);
  const termsText = termsBytes.toString('utf8');
  const terms = V === 0 ? [] : termsText.split('\n');
  if (terms.length !== V) throw errors.indexCorrupt(termsFile, `expected ${V} terms, found ${terms.length}`);
  const u32 = (b: SharedArrayBuffer) => new Uint32Array(b);
  const f64 = (b: SharedArrayBuffer) => new Float64Array(b);
  const [df, cf, offsets, doclen, byLen] = await Promise.all([
    readTyped(dir, SPARSE_FILES.df, u32, 4, V, blocks),
    readTyped(dir, SPARSE_FILES.cf, f64, 8, V, blocks),
    readTyped(dir, SPARSE_FILES.offsets, f64, 8, V + 1, blocks),
    readTyped(dir, SPARSE_FILES.doclen, u32, 4, N, blocks),
    readTyped(dir, SPARSE_FILES.bylen, u32, 4, N, blocks),
  ]);
  checkOffsets(join(dir, SPARSE_FILES.offsets), offsets, offsets[V]);
  const postingsFile = join(dir, SPARSE_FILES.postings);
  const inMemory = opts.postingsInMemory ?? offsets[V] <= POSTINGS_IN_MEMORY_MAX;
  let postings: Uint8Array = new Uint8Array(0);
  let postingsFd: number | undefined;
  if (inMemory) postings = new Uint8Array(await readShared(postingsFile, offsets[V]));
  else {
    try {
      postingsFd = openSync(postingsFile, 'r');
    } catch {
      throw errors.indexCorrupt(postingsFile, 'sparse index file is missing');
    }
    const size = fstatSync(postingsFd).size;
    if (size !== offsets[V]) {
      closeSync(postingsFd);
      throw errors.indexCorrupt(postingsFile, `expected ${offsets[V]} bytes, found ${size}`);
    }
  }
  checkCounts(dir, section, df, doclen, byLen);
  const blockBounds = loadBlockBounds(dir, section.blockBounds, V, N, blocks);
  const docs = await openDocStore(dir, manifest); // its files checked and verified above
  if (docs.size !== N) throw errors.indexCorrupt(dir, `doc store holds ${docs.size} passages, sparse index ${N}`);

  const termId = (t: string): number => {
    let lo = 0;
    let hi = V - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const m = terms[mid];
      if (m < t) lo = mid + 1;
      else if (m > t) hi = mid - 1;
      else return mid;
    }
    return -1;
  };

  // postings are checked block by block as lists are first read (retrieval/sparse/list-bytes.ts)
  const postingsBlocks = blocks?.of(SPARSE_FILES.postings);
  const data: ScoringData = {
    N,
    totalTokens: section.totalTokens,
    avgdl: section.avgDocLength,
    df,
    cf,
    offsets,
    postings,
    postingsFd,
    postingsFile: inMemory ? undefined : postingsFile,
    postingsBlocks,
    doclen,
    byLen,
    blockBounds,
  };
  let fdOpen = postingsFd !== undefined;
  warnAnalyzerUnicode(dir, manifest);
  return {
    dir,
    view: scoringView(data),
    manifest,
    section,
    analyzer: createAnalyzer(manifest.analyzer),
    docs,
    N,
    totalTokens: section.totalTokens,
    avgdl: section.avgDocLength,
    terms,
    df,
    cf,
    offsets,
    postings,
    postingsFd,
    postingsFile: data.postingsFile,
    postingsBlocks,
    doclen,
    byLen,
    blockBounds,
    termId,
    closePostings() {
      if (fdOpen) closeSync(postingsFd!);
      fdOpen = false;
    },
  };
}
