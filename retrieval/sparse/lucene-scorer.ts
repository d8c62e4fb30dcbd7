/**
 * The `lucene` scorer: BM25 and query likelihood computed as Lucene 8 computes them, so that scores
 * — not only rankings — equal Lucene's (and Anserini's `-bm25` / `-qld`):
 *
 * - Document lengths go through Lucene's 1-byte norm (SmallFloat.intToByte4, decoded by
 *   byte4ToInt): exact up to 40 terms, then 4 significant bits.
 * - BM25Similarity (Lucene ≥ 8: no (k1 + 1) factor), all in float32 as Lucene computes it:
 *     idf = (float) ln(1 + (docCount − df + 0.5)/(df + 0.5)),  w = boost · idf,
 *     cache[norm] = 1 / (k1 · ((1 − b) + b · length(norm) / avgdl)),  avgdl = (float) (Σ lengths / docCount),
 *     score(tf, norm) = w − w / (1 + tf · cache[norm])
 *   where docCount counts the documents with at least one term (Lucene's field docCount).
 * - LMDirichletSimilarity (in double, then cast to float), with its floor at 0:
 *     score = (float) max(0, boost · (ln(1 + tf/(μ·P)) + ln(μ/(length(norm) + μ)))),  P = (cf + 1)/(Σ lengths + 1).
 * A query is Anserini's bag of words: each distinct term once with boost = its count c(t, q); a
 * document's score is the float32 of the double sum of its matching terms' float scores (Lucene's
 * disjunction scorers sum in double). Only documents matching a term are ranked; ties by index order.
 *
 * The weights here are the scorer's one definition: the accumulator, MaxScore and blocked TAAT
 * (retrieval/sparse/) call these, so every path adds bit-identical weights.
 */
import type { ScoringView } from '../../indexer/sparse/scoring-view.js';

const f = Math.fround;

/** SmallFloat: values below 24 are stored exactly; above, 3 mantissa bits after the leading one. */
const NUM_FREE_VALUES = 24;

function longToInt4(i: number): number {
  const numBits = 32 - Math.clz32(i);
  if (numBits < 4) return i;
  const shift = numBits - 4;
  return ((i >>> shift) & 0x07) | ((shift + 1) << 3);
}

function int4ToLong(i: number): number {
  const bits = i & 0x07;
  const shift = (i >>> 3) - 1;
  return shift === -1 ? bits : (bits | 0x08) * 2 ** shift;
}

/** Lucene's SmallFloat.intToByte4 (as an unsigned byte): the 1-byte norm of a length. */
export function intToByte4(i: number): number {
  if (i < NUM_FREE_VALUES) return i;
  return NUM_FREE_VALUES + longToInt4(i - NUM_FREE_VALUES);
}

/** Lucene's SmallFloat.byte4ToInt: the length a 1-byte norm stands for. */
export function byte4ToInt(b: number): number {
  return b < NUM_FREE_VALUES ? b : NUM_FREE_VALUES + int4ToLong(b - NUM_FREE_VALUES);
}

/** Decoded length of every norm byte (SimilarityBase / BM25Similarity LENGTH_TABLE), as floats. */
export const LENGTH_TABLE: Float64Array = Float64Array.from({ length: 256 }, (_, i) => f(byte4ToInt(i)));

/** The length Lucene scores a document of `dl` terms with. */
export const luceneLength = (dl: number) => LENGTH_TABLE[intToByte4(dl)];

const docCounts = new WeakMap<Uint32Array, number>();
/** Documents with at least one index term (Lucene's CollectionStatistics.docCount). */
export function docCount(view: ScoringView): number {
  let n = docCounts.get(view.doclen);
  if (n === undefined) {
    n = 0;
    for (let i = 0; i < view.doclen.length; i++) if (view.doclen[i] > 0) n++;
    docCounts.set(view.doclen, n);
  }
  return n;
}

/** Lucene's BM25 idf, a float. */
export const luceneIdf = (docs: number, df: number) => f(Math.log(1 + (docs - df + 0.5) / (df + 0.5)));

/** Lucene's avgdl, a float: Σ lengths / docCount. */
export const luceneAvgdl = (view: ScoringView) => f(view.totalTokens / (docCount(view) || 1));

/** The query-side BM25 weight of a term: boost · idf in float (boost = c(t, q)). */
export const luceneBm25TermWeight = (view: ScoringView, df: number, count: number) => f(f(count) * luceneIdf(docCount(view), df));

/** BM25Similarity's cache: 1 / (k1 · ((1 − b) + b · length / avgdl)) for each norm byte. */
export function luceneBm25Cache(k1: number, b: number, avgdl: number): Float64Array {
  const k = f(k1);
  const bb = f(b);
  const oneMinusB = f(1 - bb);
  return Float64Array.from(LENGTH_TABLE, (len) => f(1 / f(k * f(oneMinusB + f(f(bb * len) / avgdl)))));
}

/** BM25Scorer.score: w − w / (1 + tf · cache[norm]), float32 throughout. */
export const luceneBm25Weight = (w: number, tf: number, normInverse: number) => f(w - f(w / f(1 + f(tf * normInverse))));

/** μ as Lucene holds it (a float). */
export const luceneMu = (mu: number) => f(mu);

/** LMSimilarity.DefaultCollectionModel: (cf + 1) / (Σ lengths + 1). */
export const luceneCollectionProb = (cf: number, total: number) => (cf + 1) / (total + 1);

/** ln(1 + tf/(μP)) exactly as Lucene writes it (not log1p). */
export const luceneLmdTf = (tf: number, muP: number) => Math.log(1 + tf / muP);

/** LMDirichletSimilarity.score, floored at 0, cast to float (ltf = luceneLmdTf, ratio = ln(μ/(length + μ))). */
export const luceneLmdWeight = (count: number, ltf: number, ratio: number) => {
  const s = count * (ltf + ratio);
  return s > 0 ? f(s) : 0;
};

/** A document's score: the float of the double sum of its terms' scores. */
export const luceneDocScore = (sum: number) => f(sum);
