/**
 * RM3 pseudo-relevance feedback over a sparse retriever (bm25 or qld), as Anserini computes it
 * (io.anserini.rerank.lib.Rm3Reranker and io.anserini.util.FeatureVector, the code behind its
 * published `-bm25 -rm3` / `-qld -rm3` figures; read, not copied):
 *
 * 1. First stage: the base retriever's ranking of the query; its top fbDocs hits are the feedback
 *    documents, cut as the run is printed (top-k.ts): of equal scores, those trec_eval ranks first
 *    (the higher docids), or with `ties: 'anserini'` those Anserini's Lucene search keeps (the
 *    lower docids: it sorts by score, then docid).
 * 2. Each feedback document's vector: its analysed terms (the doc store's text through the index's
 *    analyzer — the terms the index holds for it) with their counts, keeping only candidate terms:
 *    2–20 characters, of [a-z0-9]+ (filterTerms), and in at most 10 % of the documents (df / N as
 *    a float, Anserini's stopword rule). Pruned to its fbTerms largest counts.
 * 3. The relevance model: for every term of those vectors, Σ over feedback documents (in rank order)
 *    of count / (L1 norm of the document's pruned vector) × the document's weight; a document's
 *    weight is its first-stage score (BM25, Lucene's LMDirichlet: as Anserini) or, for textbook QLD,
 *    whose scores are log-likelihoods, exp(score − the best score) (the query likelihood, as Indri's
 *    relevance model weights it). Pruned to the fbTerms heaviest terms, scaled to sum 1.
 * 4. The original query's model: each analysed query term's count / the number of query terms.
 * 5. Interpolation: w · P(t|query) + (1 − w) · P(t|RM), w = originalQueryWeight; every term of
 *    either model is a term of the expanded query with that weight, which takes the place of the
 *    term's query count (Lucene's boost) in the base method's formula. The expanded query is then
 *    ranked by the base method over the whole index.
 *
 * Tie rule (named because Anserini's pruning ties decide which terms survive): both prunings keep
 * the largest values, equal values in ascending term order (JavaScript string order: UTF-16 code
 * units, which is Java's String.compareTo). Anserini has used this rule since 2022 (FeatureVector,
 * #1975); before — when its CACM figures were published — it kept equal values in hash-map order.
 * Arithmetic is float32 where Anserini's is (counts, norms, weights, the sums), so with the lucene
 * scorer the expanded query's weights are Anserini's bit for bit.
 */
import type { SparseIndex } from '../indexer/sparse/sparse-index.js';
import type { Explanation, Hit, Retriever, SearchOptions } from './types.js';
import type { SparseRetriever } from './sparse-retriever.js';
import type { QueryTerms } from './sparse/query-terms.js';
import { refuseApprox } from './sparse/approx.js';
import { RM3_MAX_DF_SHARE, type Rm3Params } from './rm3-params.js';
import { searchTopK } from './top-k.js';

const f = Math.fround;
const MAX_DF_SHARE = f(RM3_MAX_DF_SHARE);
const MIN_NORM = f(0.001);
const CANDIDATE = /^[a-z0-9]+$/;
/** Pruned feedback vectors kept per retriever (documents recur across the queries of a batch). */
const DOC_CACHE_MAX = 20_000;
/**
 * Expansions kept per retriever, by query text: a search asks again at a deeper cut when ties
 * straddle k (top-k.ts), and a batch asks for the expansion of the query it just searched (to say
 * which topics gained no feedback term: rm3-no-feedback.ts); each would repeat the first stage.
 */
const EXPANSION_CACHE_MAX = 64;

/** A weighted term of the expanded query. */
export interface Rm3Term {
  term: string;
  weight: number;
}

export interface Rm3Expansion {
  /** The feedback documents, best first, each with the weight it gave its terms. */
  feedback: { id: string; score: number; weight: number }[];
  /** The expanded query, heaviest first (ties by term): the original query's analysed terms and the feedback terms. */
  terms: Rm3Term[];
  /**
   * Terms of the relevance model (at most fbTerms). 0 when no feedback document held a candidate
   * term (each of theirs is in more than 10 % of the documents, or not of [a-z0-9]{2,20} under
   * filterTerms), or there was no feedback document: the expanded query is then the original
   * query alone, its weights scaled by originalQueryWeight, and ranks as the base method does.
   */
  feedbackTerms: number;
}

export interface Rm3Retriever extends Retriever {
  readonly base: SparseRetriever;
  readonly params: Readonly<Rm3Params>;
  /** The expanded query of `query` (and its feedback documents). */
  expand(query: string): Promise<Rm3Expansion>;
}

/** Values best first, ties by term (ascending): the order both prunings keep. */
const byValueThenTerm = (a: [string, number], b: [string, number]) => (a[1] !== b[1] ? b[1] - a[1] : a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

/** A document's candidate feedback terms with their counts, pruned to the fbTerms largest. */
export function feedbackVector(index: SparseIndex, tokens: readonly string[], p: Pick<Rm3Params, 'fbTerms' | 'filterTerms'>): [string, number][] {
  const counts = new Map<string, number>();
  for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  const n = f(index.N);
  const kept: [string, number][] = [];
  for (const [t, c] of counts) {
    if (t.length < 2 || t.length > 20) continue;
    if (p.filterTerms && !CANDIDATE.test(t)) continue;
    const id = index.termId(t);
    if (id < 0) continue;
    if (f(f(index.df[id]) / n) > MAX_DF_SHARE) continue;
    kept.push([t, c]);
  }
  return kept.sort(byValueThenTerm).slice(0, p.fbTerms);
}

/**
 * The relevance model from the feedback documents' pruned vectors and weights (in rank order):
 * pruned to fbTerms terms and scaled to sum 1, heaviest first.
 */
export function relevanceModel(vectors: readonly [string, number][][], weights: readonly number[], fbTerms: number): [string, number][] {
  const norms = vectors.map((v) => f(v.reduce((s, [, c]) => s + c, 0)));
  const maps = vectors.map((v) => new Map(v));
  const vocab = new Set<string>();
  for (const v of vectors) for (const [t] of v) vocab.add(t);
  const rm: [string, number][] = [];
  for (const t of vocab) {
    let w = 0;
    for (let i = 0; i < vectors.length; i++) {
      if (norms[i] > MIN_NORM) w = f(w + f(f(f(maps[i].get(t) ?? 0) / norms[i]) * weights[i]));
    }
    rm.push([t, w]);
  }
  const top = rm.sort(byValueThenTerm).slice(0, fbTerms);
  let norm = 0;
  for (const [, w] of top) norm += Math.abs(w);
  return top.map(([t, w]) => [t, f(w / norm)]);
}

/** The query's own model: each analysed term's count / the number of analysed terms. */
export function queryModel(tokens: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
  const out = new Map<string, number>();
  for (const [t, c] of counts) out.set(t, f(c / tokens.length));
  return out;
}

/** w · query + (1 − w) · rm, per term of either (float32 as Anserini's FeatureVector.interpolate), heaviest first. */
export function interpolate(query: Map<string, number>, rm: readonly [string, number][], originalQueryWeight: number): Rm3Term[] {
  const w = f(originalQueryWeight);
  const rmMap = new Map(rm);
  const terms = new Set([...query.keys(), ...rmMap.keys()]);
  const out: [string, number][] = [];
  for (const t of terms) out.push([t, f(f(w * (query.get(t) ?? 0)) + (1 - w) * (rmMap.get(t) ?? 0))]);
  return out.sort(byValueThenTerm).map(([term, weight]) => ({ term, weight }));
}

/** The document weights of a first-stage ranking: its scores, or exp(score − best) for log-likelihoods. */
export function feedbackWeights(hits: readonly Hit[], kind: SparseRetriever['scoreKind']): number[] {
  if (kind === 'sum') return hits.map((h) => f(h.score));
  const best = hits.length ? hits[0].score : 0;
  return hits.map((h) => f(Math.exp(h.score - best)));
}

export function createRm3Retriever(base: SparseRetriever, params: Rm3Params): Rm3Retriever {
  const index = base.index;
  const method = `${base.method}+rm3`;
  const cache = new Map<number, [string, number][]>();
  const docVector = async (doc: number): Promise<[string, number][]> => {
    let v = cache.get(doc);
    if (!v) {
      v = feedbackVector(index, index.analyzer.tokens((await index.docs.at(doc)).text), params);
      if (cache.size >= DOC_CACHE_MAX) cache.clear();
      cache.set(doc, v);
    }
    return v;
  };

  const expansions = new Map<string, Promise<Rm3Expansion>>();
  const expand = (query: string): Promise<Rm3Expansion> => {
    let e = expansions.get(query);
    if (!e) {
      if (expansions.size >= EXPANSION_CACHE_MAX) expansions.delete(expansions.keys().next().value!);
      e = expandNow(query);
      expansions.set(query, e);
      // a failed expansion (the index closed, a read error) is not kept: the next search tries again
      e.catch(() => expansions.get(query) === e && expansions.delete(query));
    }
    return e;
  };
  const expandNow = async (query: string): Promise<Rm3Expansion> => {
    const first = await searchTopK((d) => base.search(query, { k: d }), params.fbDocs, { ties: params.ties });
    const weights = feedbackWeights(first, base.scoreKind);
    const vectors = await Promise.all(first.map((h) => docVector(index.docs.indexOf(h.id))));
    const rm = relevanceModel(vectors, weights, params.fbTerms);
    return {
      feedback: first.map((h, i) => ({ id: h.id, score: h.score, weight: weights[i] })),
      terms: interpolate(queryModel(index.analyzer.tokens(query)), rm, params.originalQueryWeight),
      feedbackTerms: rm.filter(([, w]) => w > 0).length,
    };
  };

  /** The expanded query as the base method scores it: terms the index has, of weight > 0. */
  const scored = (e: Rm3Expansion): QueryTerms => {
    const q: QueryTerms = { ids: [], terms: [], counts: [] };
    for (const { term, weight } of e.terms) {
      const id = index.termId(term);
      if (id < 0 || !(weight > 0)) continue;
      q.ids.push(id);
      q.terms.push(term);
      q.counts.push(weight);
    }
    return q;
  };

  const explainWith = (e: Rm3Expansion, id: string): Explanation => {
    const x = base.explainTerms(scored(e), id);
    return { ...x, method, detail: { ...x.detail, rm3: { ...params, feedback: e.feedback.map((d) => d.id), terms: e.terms } } };
  };

  return {
    method,
    // The base retriever's parameters and the expansion's, as runs and eval reports record them.
    config: { ...(base.config ?? {}), rm3: { ...params } },
    base,
    params,
    expand,
    async search(query: string, opts?: SearchOptions): Promise<Hit[]> {
      refuseApprox(opts, method);
      const e = await expand(query);
      return base.searchTerms(scored(e), opts);
    },
    async explain(query: string, id: string): Promise<Explanation> {
      return explainWith(await expand(query), id);
    },
    async explainMany(query: string, ids: readonly string[]): Promise<Explanation[]> {
      const e = await expand(query);
      return ids.map((id) => explainWith(e, id));
    },
  };
}
