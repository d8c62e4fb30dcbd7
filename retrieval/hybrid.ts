/**
 * HybridRetriever: runs component retrievers (any subset of bm25 / qld / dense, or any Retriever)
 * for the same query, each to exactly `depth` hits whatever k is (default 100 here; openRetriever
 * applies HYBRID_DEFAULTS), each list ranked as the component's printed run ranks it (top-k.ts:
 * trec_eval's order), and fuses the lists with reciprocal-rank fusion (k = 60) or weighted min-max
 * fusion (see fusion.ts). The ranking is defined by the depth alone: a search of any k returns the
 * first k of it (the top 10 is the same for k = 10 and k = 5,000), and a search of more hits than
 * the fused lists hold returns fewer (retrieval/ranking-depth.ts says so). `explain` reports, for one
 * passage, each component's rank, raw score, normalised score and contribution.
 */
import { errors } from '../core/errors.js';
import { defaultFusionWeight, fuse, type FusedHit, type FusionMethod, type RankedList } from './fusion.js';
import type { Explanation, Hit, Retriever, SearchOptions } from './types.js';
import { attachTexts, type TextSource } from './hit-text.js';
import { resolveSearch, searchK } from './search-options.js';
import { PRINTED_RUN_RANKING, printedRun, rankedHits } from './top-k.js';

export interface HybridOptions {
  fusion?: FusionMethod;
  /** Per-method weights (RRF default 1 each; weighted default 1/n each). */
  weights?: Record<string, number>;
  /** RRF constant (default 60). */
  rrfK?: number;
  /** Hits fetched from each component, whatever k is (default 100). */
  depth?: number;
  /** Where `withText` reads passage texts; without it the components are asked for their hits' texts. */
  docs?: TextSource;
}

export { DEFAULT_HYBRID_METHODS, defaultHybridWeights, HYBRID_DEFAULTS, hybridDefaultsNote } from './hybrid-defaults.js';

/**
 * How the component lists are ranked before fusion, recorded in the hybrid's config (and so in a run
 * dir's config.json): an older lexcase fused each component's internal tie order, so a resume of a
 * run dir it wrote (no such field) is refused as a config difference instead of mixing the two.
 */
export const HYBRID_COMPONENT_RANKING = PRINTED_RUN_RANKING;

/**
 * Significant digits of a fused score in a run file and in every order read from it (top-k.ts
 * scoreText), recorded in the hybrid's config: an older lexcase wrote 6 decimals, which tie fused
 * scores deeper than a few hundred ranks (then ordered by docid), so a resume of a run dir it wrote
 * (no such field) is refused as a config difference.
 */
export const HYBRID_SCORE_DIGITS = 10;

export function createHybridRetriever(
  components: Retriever[],
  opts: HybridOptions = {},
): Retriever & { fusedSearch(q: string, o?: SearchOptions): Promise<FusedHit[]> } {
  if (components.length === 0) throw errors.usage('hybrid retrieval needs at least one component method');
  const methods = components.map((c) => String(c.method));
  if (new Set(methods).size !== methods.length) throw errors.usage(`hybrid component methods must be distinct, got ${methods.join(',')}`);
  const fusion = opts.fusion ?? 'rrf';
  if (fusion !== 'rrf' && fusion !== 'weighted') throw errors.invalidInput('fusion', `expected rrf or weighted, got ${String(fusion)}`);
  for (const [m, w] of Object.entries(opts.weights ?? {})) {
    if (!methods.includes(m)) throw errors.invalidInput('weights', `"${m}" is not one of the hybrid methods (${methods.join(', ')})`);
    if (!Number.isFinite(w) || w < 0) throw errors.invalidInput('weights', `weight for ${m} must be a non-negative number, got ${w}`);
  }

  // The weight each method is fused with: the given one, else fusion.ts's default (defaultFusionWeight),
  // recorded as such (config, explain) so a report shows the weights used, not only those named.
  const weights: Record<string, number> = Object.fromEntries(methods.map((m) => [m, opts.weights?.[m] ?? defaultFusionWeight(fusion, methods.length)]));
  // every weight 0: every fused score is 0 and the "ranking" is the tie order (passage ids), with every figure 0
  if (methods.every((m) => weights[m] === 0))
    throw errors.invalidInput(
      'weights',
      `every method's weight is 0 (${methods.map((m) => `${m}=0`).join(',')}): the fused scores would all be 0; give at least one a weight above 0`,
    );
  const depth = opts.depth ?? 100;
  if (!Number.isInteger(depth) || depth < 1) throw errors.invalidInput('depth', `expected a positive integer, got ${depth}`);
  /**
   * Each component's top `depth`, for any k: the fused ranking is these lists' and no other. Each is
   * the component's run as printed (top-k.ts: trec_eval's order, ties at the depth cut as everywhere),
   * not its internal tie order, so the ranks fused are the ranks `search --method <component>` shows.
   */
  const lists = async (query: string, withText = false): Promise<RankedList[]> =>
    Promise.all(
      components.map(async (c) => ({
        method: String(c.method),
        hits: await printedRun(c, query, depth, { withText }),
      })),
    );
  const fusedSearch = async (query: string, sopts?: SearchOptions): Promise<FusedHit[]> => {
    const k = searchK(sopts?.k);
    if (k === 0) return [];
    return fuse(fusion, await lists(query), { k, rrfK: opts.rrfK, weights });
  };

  const componentConfigs = Object.fromEntries(components.filter((c) => c.config).map((c) => [String(c.method), c.config!]));
  return {
    method: 'hybrid',
    config: {
      fusion,
      methods,
      depth,
      componentRanking: HYBRID_COMPONENT_RANKING,
      scoreDigits: HYBRID_SCORE_DIGITS,
      ...(fusion === 'rrf' ? { rrfK: opts.rrfK ?? 60 } : {}),
      weights,
      ...(Object.keys(componentConfigs).length ? { components: componentConfigs } : {}),
    },
    fusedSearch,
    rankingDepth: depth,
    scoreDigits: HYBRID_SCORE_DIGITS,
    // of its dense component (dense-query-cut.ts)
    queriesReadInPart: (queries?: readonly string[]) => components.find((c) => c.queriesReadInPart)?.queriesReadInPart?.(queries),
    queryReadInPart: (query: string) => components.find((c) => c.queryReadInPart)?.queryReadInPart?.(query),
    async search(query: string, sopts?: SearchOptions): Promise<Hit[]> {
      const { k, withText } = resolveSearch(sopts, 'hybrid');
      if (!withText) return (await fusedSearch(query, { k })).map(({ id, score, rank }) => ({ id, score, rank }));
      if (opts.docs)
        return attachTexts(
          (await fusedSearch(query, { k })).map(({ id, score, rank }) => ({ id, score, rank })),
          opts.docs,
          'hybrid',
        );
      // No doc store: take each fused hit's text from the component hits it came from.
      if (k === 0) return [];
      const ls = await lists(query, true);
      const byId = new Map(ls.flatMap((l) => l.hits.map((h) => [h.id, h] as const)));
      return fuse(fusion, ls, { k, rrfK: opts.rrfK, weights }).map(({ id, score, rank }) => {
        const h = byId.get(id);
        if (h?.text === undefined)
          throw errors.usage(`hybrid component did not return the text of passage ${id}`, 'pass a doc store as the `docs` option of createHybridRetriever');
        return h.title ? { id, score, rank, text: h.text, title: h.title } : { id, score, rank, text: h.text };
      });
    },
    async explain(query: string, id: string): Promise<Explanation> {
      // ranked as the search prints them (trec_eval's order: scores as written, ties by id, top-k.ts),
      // so `fusedRank` is the rank shown beside the hit, not fuse()'s order of equal scores
      const all = rankedHits(fuse(fusion, await lists(query), { rrfK: opts.rrfK, weights }), undefined, HYBRID_SCORE_DIGITS) as FusedHit[];
      const hit = all.find((h) => h.id === id);
      return {
        id,
        method: 'hybrid',
        score: hit?.score ?? 0,
        terms: [],
        detail: {
          fusion,
          methods,
          depth,
          ...(fusion === 'rrf' ? { rrfK: opts.rrfK ?? 60 } : {}),
          weights,
          fusedRank: hit?.rank ?? null,
          components: hit?.components ?? {},
          note: hit ? undefined : `not in the top ${depth} of any component`,
        },
      };
    },
  };
}
