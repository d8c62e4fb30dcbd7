/**
 * Per-document arrays derived from doc lengths, computed once per (view, parameters) and cached.
 * Indexed by global doc index (length N), but only the view's range [lo, hi) is computed: a query
 * worker or the calling thread reads no other entry, and the pages of the rest are never written,
 * so they take no resident memory (at 10M passages and 2 query threads, a thread's BM25 norms were
 * 80 MB resident where its range needs 40).
 */
import type { ScoringView } from '../../indexer/sparse/scoring-view.js';
import { intToByte4, luceneAvgdl, luceneBm25Cache, luceneLength, luceneMu } from './lucene-scorer.js';

const cache = new WeakMap<ScoringView, Map<string, Float64Array>>();

function cached(index: ScoringView, key: string, f: (dl: number) => number): Float64Array {
  let m = cache.get(index);
  if (!m) cache.set(index, (m = new Map()));
  let a = m.get(key);
  if (!a) {
    a = new Float64Array(index.N);
    const dl = index.doclen;
    for (let i = index.lo; i < index.hi; i++) a[i] = f(dl[i]);
    m.set(key, a);
  }
  return a;
}

/** k1·(1 − b + b·dl/avgdl): BM25's length normalisation of one document. */
export const bm25Norm = (k1: number, b: number, dl: number, avgdl: number) => k1 * (1 - b + (b * dl) / (avgdl || 1));

/** bm25Norm of every document. */
export const bm25Norms = (index: ScoringView, k1: number, b: number) => cached(index, `bm25:${k1}:${b}`, (dl) => bm25Norm(k1, b, dl, index.avgdl));

/** Doc lengths above this are not walked by length (a table of 65,536 norms at most). */
export const LENGTH_TABLE_MAX = 65535;

/** A range whose longest doc is at most this many tokens has its lengths held as u8 (1 byte a doc). */
export const LENGTH_U8_MAX = 255;

interface RangeLengths {
  max: number;
  /** The range's lengths as u8 (max ≤ LENGTH_U8_MAX) and as u16 (max ≤ LENGTH_TABLE_MAX; the u8 range's only when asked: an A/B). */
  u8: Uint8Array | undefined;
  u16: Uint16Array | undefined;
  tables: Map<string, Float64Array>;
}

const lengthTables = new WeakMap<ScoringView, RangeLengths>();

function rangeLengths(index: ScoringView): RangeLengths {
  let e = lengthTables.get(index);
  if (!e) {
    const dl = index.doclen;
    let max = 0;
    for (let i = index.lo; i < index.hi; i++) if (dl[i] > max) max = dl[i];
    lengthTables.set(index, (e = { max, u8: undefined, u16: undefined, tables: new Map() }));
  }
  return e;
}

function lengthsAs<T extends Uint8Array | Uint16Array>(index: ScoringView, a: T): T {
  const dl = index.doclen;
  for (let i = index.lo; i < index.hi; i++) a[i] = dl[i];
  return a;
}

/**
 * BM25's norms by doc length (blocked-taat.ts's walk by length, walk.wat bm25Len / bm25Len8): the
 * range's doc lengths (indexed by global doc index, only the range filled) as u8 when its longest doc
 * is at most LENGTH_U8_MAX tokens (`width` 1; with `narrow` false, u16 all the same: the A/B), else
 * u16 (`width` 2), and a table of bm25Norm for every length 0 … the range's longest — the same calls
 * bm25Norms makes per doc, so the same values. Undefined when a doc of the range is longer than
 * LENGTH_TABLE_MAX.
 */
export function bm25NormsByLength(
  index: ScoringView,
  k1: number,
  b: number,
  narrow = true,
): { lengths: Uint8Array | Uint16Array; width: 1 | 2; table: Float64Array } | undefined {
  const e = rangeLengths(index);
  if (e.max > LENGTH_TABLE_MAX) return undefined;
  const key = `${k1}:${b}`;
  let table = e.tables.get(key);
  if (!table) {
    table = new Float64Array(e.max + 1);
    for (let dl = 0; dl <= e.max; dl++) table[dl] = bm25Norm(k1, b, dl, index.avgdl);
    e.tables.set(key, table);
  }
  if (narrow && e.max <= LENGTH_U8_MAX) {
    e.u8 ??= lengthsAs(index, new Uint8Array(index.N));
    return { lengths: e.u8, width: 1, table };
  }
  e.u16 ??= lengthsAs(index, new Uint16Array(index.N));
  return { lengths: e.u16, width: 2, table };
}

/** ln(dl + μ). */
export const logLengths = (index: ScoringView, mu: number) => cached(index, `lnl:${mu}`, (dl) => Math.log(dl + mu));

/** ln(μ / (dl + μ)). */
export const logRatios = (index: ScoringView, mu: number) => cached(index, `lnr:${mu}`, (dl) => Math.log(mu / (dl + mu)));

/** Lucene BM25: BM25Similarity's cache entry of each document's 1-byte norm (lucene-scorer.ts). */
export const luceneNormInverses = (index: ScoringView, k1: number, b: number) => {
  const table = luceneBm25Cache(k1, b, luceneAvgdl(index));
  return cached(index, `lbm25:${k1}:${b}`, (dl) => table[intToByte4(dl)]);
};

/** Lucene LMDirichlet: ln(μ / (length + μ)) of each document's 1-byte norm length. */
export const luceneLogRatios = (index: ScoringView, mu: number) => {
  const m = luceneMu(mu);
  return cached(index, `llmd:${mu}`, (dl) => Math.log(m / (luceneLength(dl) + m)));
};
