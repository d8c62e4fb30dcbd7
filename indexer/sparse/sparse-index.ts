/**
 * The loaded sparse index: a few large reads into typed arrays (no JSON parsing of postings), plus
 * the analyzer rebuilt from the manifest and the doc store (for ids and texts).
 */
import { readFile } from 'node:fs/promises';
import { endianness } from 'node:os';
import { join } from 'node:path';
import { errors } from '../../src/errors.js';
import { createAnalyzer, type Analyzer } from '../analyzer.js';
import { openDocStore, type OpenedDocStore } from '../docstore.js';
import { readManifest, type Manifest } from '../manifest.js';
import { SPARSE_FILES, SPARSE_VERSION, sparseSectionSchema, type SparseSection } from './format.js';

export interface SparseIndex {
  dir: string;
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
}

async function readTyped<T extends Uint32Array | Float64Array>(dir: string, rel: string, make: (n: number) => T, expect: number): Promise<T> {
  const file = join(dir, rel);
  const buf = await readFile(file).catch(() => {
    throw errors.indexCorrupt(file, 'sparse index file is missing');
  });
  const a = make(expect);
  if (buf.byteLength !== a.byteLength) throw errors.indexCorrupt(file, `expected ${a.byteLength} bytes, found ${buf.byteLength}`);
  new Uint8Array(a.buffer).set(buf);
  return a;
}

export async function loadSparseIndex(dir: string): Promise<SparseIndex> {
  const manifest = await readManifest(dir);
  if (!manifest.sparse) throw errors.indexIncompatible(dir, 'the manifest has no "sparse" section (no bm25/qld index was built)');
  const parsed = sparseSectionSchema.safeParse(manifest.sparse);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw errors.indexIncompatible(dir, `manifest field "sparse.${issue.path.join('.')}": ${issue.message}`);
  }
  const section = parsed.data;
  if (section.version > SPARSE_VERSION) throw errors.indexIncompatible(dir, `sparse format version ${section.version} is newer than this lexcase supports (${SPARSE_VERSION})`);
  if (endianness() !== 'LE') throw errors.indexIncompatible(dir, 'index files are little-endian; this machine is big-endian');
  const N = section.documents;
  const V = section.terms;
  const termsFile = join(dir, SPARSE_FILES.terms);
  const termsText = await readFile(termsFile, 'utf8').catch(() => {
    throw errors.indexCorrupt(termsFile, 'sparse index file is missing');
  });
  const terms = V === 0 ? [] : termsText.split('\n');
  if (terms.length !== V) throw errors.indexCorrupt(termsFile, `expected ${V} terms, found ${terms.length}`);
  const [df, cf, offsets, doclen, byLen] = await Promise.all([
    readTyped(dir, SPARSE_FILES.df, (n) => new Uint32Array(n), V),
    readTyped(dir, SPARSE_FILES.cf, (n) => new Float64Array(n), V),
    readTyped(dir, SPARSE_FILES.offsets, (n) => new Float64Array(n), V + 1),
    readTyped(dir, SPARSE_FILES.doclen, (n) => new Uint32Array(n), N),
    readTyped(dir, SPARSE_FILES.bylen, (n) => new Uint32Array(n), N),
  ]);
  const postingsFile = join(dir, SPARSE_FILES.postings);
  const pbuf = await readFile(postingsFile).catch(() => {
    throw errors.indexCorrupt(postingsFile, 'sparse index file is missing');
  });
  if (pbuf.byteLength !== offsets[V]) throw errors.indexCorrupt(postingsFile, `expected ${offsets[V]} bytes, found ${pbuf.byteLength}`);
  const postings = new Uint8Array(pbuf.buffer, pbuf.byteOffset, pbuf.byteLength);
  const docs = await openDocStore(dir);
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

  return {
    dir,
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
    doclen,
    byLen,
    termId,
  };
}
