/**
 * Query likelihood with Dirichlet smoothing (μ = 2000 by default, as in CASE).
 *
 * textbook (default): score(d) = Σ_{t∈q} c(t,q)·ln((tf + μ·P(t|C)) / (dl + μ)), P(t|C) = cf/|C|, over
 * EVERY document (unmatched ones too). Computed exactly via the decomposition
 *   Σ c·ln(μP) − |q|·ln(dl+μ) + Σ_{t matched} c·ln(1 + tf/(μP)),
 * i.e. one sparse postings walk plus, for unmatched documents, the (length, index) order stored at
 * build time (shorter unmatched documents score higher).
 *
 * lucene: Lucene's LMDirichletSimilarity: per matched term max(0, ln(1 + tf/(μ·P)) + ln(μ/(dl+μ))) with
 * Lucene's collection model P = (cf+1)/(|C|+1); only matching documents are ranked.
 */
import { errors } from '../src/errors.js';
import type { SparseIndex } from '../indexer/sparse/sparse-index.js';
import type { Explanation, Hit, Retriever, SearchOptions } from './types.js';
import { accumulate, accumulatorFor, Mode, termFrequency } from './sparse/accumulator.js';
import { logLengths, logRatios } from './sparse/doc-arrays.js';
import { docIndexOf, resolveK, toHits, topTouched } from './sparse/hits.js';
import { queryTerms } from './sparse/query-terms.js';
import { TopK } from './sparse/top-k.js';

export type QldVariant = 'textbook' | 'lucene';
export interface QldParams {
  mu: number;
  variant: QldVariant;
}
export const QLD_DEFAULTS: QldParams = { mu: 2000, variant: 'textbook' };

/** P(t|C) used by each variant. */
export const collectionProb = (variant: QldVariant, cf: number, total: number) => (variant === 'lucene' ? (cf + 1) / (total + 1) : cf / total);

export function createQldRetriever(index: SparseIndex, params: Partial<QldParams> = {}): Retriever {
  const { mu, variant } = { ...QLD_DEFAULTS, ...params };
  if (variant !== 'textbook' && variant !== 'lucene') throw errors.invalidInput('variant', `expected "textbook" or "lucene", got "${String(variant)}"`);
  const T = index.totalTokens;

  const search = async (query: string, opts?: SearchOptions): Promise<Hit[]> => {
    const k = resolveK(opts, index.N);
    const q = queryTerms(index, query);
    if (q.ids.length === 0 || k === 0) return [];
    const acc = accumulatorFor(index);
    if (variant === 'lucene') {
      const ratios = logRatios(index, mu);
      for (let i = 0; i < q.ids.length; i++) {
        accumulate(index, acc, q.ids[i], Mode.LuceneQld, q.counts[i], mu * collectionProb('lucene', index.cf[q.ids[i]], T), ratios);
      }
      return toHits(index, topTouched(acc, k).sorted());
    }
    let base = 0;
    let qlen = 0;
    for (let i = 0; i < q.ids.length; i++) {
      const muP = mu * collectionProb('textbook', index.cf[q.ids[i]], T);
      base += q.counts[i] * Math.log(muP);
      qlen += q.counts[i];
      accumulate(index, acc, q.ids[i], Mode.Qld, q.counts[i], muP, undefined);
    }
    const lnl = logLengths(index, mu);
    const top = new TopK(k);
    const { scores, touched, mark } = acc;
    for (let i = 0; i < acc.count; i++) {
      const d = touched[i];
      const s = base - qlen * lnl[d] + scores[d];
      if (s >= top.threshold) top.push(s, d);
    }
    // Unmatched documents: the best are the shortest, in (length, index) order.
    let taken = 0;
    for (let j = 0; j < index.N && taken < k; j++) {
      const d = index.byLen[j];
      if (mark[d]) continue;
      taken++;
      const s = base - qlen * lnl[d];
      if (s < top.threshold) break;
      top.push(s, d);
    }
    return toHits(index, top.sorted());
  };

  return {
    method: 'qld',
    search,
    async explain(query: string, id: string): Promise<Explanation> {
      const doc = docIndexOf(index, id);
      const q = queryTerms(index, query);
      const dl = index.doclen[doc];
      const terms = q.ids.map((t, i) => {
        const tf = termFrequency(index, t, doc);
        const P = collectionProb(variant, index.cf[t], T);
        const c = q.counts[i];
        const score =
          variant === 'lucene'
            ? tf
              ? c * Math.max(0, Math.log1p(tf / (mu * P)) + Math.log(mu / (dl + mu)))
              : 0
            : c * Math.log((tf + mu * P) / (dl + mu));
        return { term: q.terms[i], qtf: c, tf, df: index.df[t], score };
      });
      return { id, method: 'qld', score: terms.reduce((s, t) => s + t.score, 0), terms, detail: { variant, mu, dl, collectionTokens: T } };
    },
  };
}
