/**
 * HybridRetriever: runs component retrievers (any subset of bm25 / qld / dense, or any Retriever)
 * for the same query, each to `depth` hits (default max(k, 100) here; openRetriever applies
 * HYBRID_DEFAULTS), and fuses the lists with reciprocal-rank fusion (k = 60) or weighted min-max
 * fusion (see fusion.ts). `explain` reports,
 * for one passage, each component's rank, raw score, normalised score and contribution.
 */
import { errors } from '../core/errors.js';
import { fuse, type FusedHit, type FusionMethod, type RankedList } from './fusion.js';
import type { Explanation, Hit, Retriever, SearchOptions } from './types.js';
import { attachTexts, type TextSource } from './hit-text.js';
import { refuseApprox } from './sparse/approx.js';
import { SEARCH_K } from './default-k.js';

export interface HybridOptions {
  fusion?: FusionMethod;
  /** Per-method weights (RRF default 1 each; weighted default 1/n each). */
  weights?: Record<string, number>;
  /** RRF constant (default 60). */
  rrfK?: number;
  /** Hits fetched from each component (default max(k, 100)). */
  depth?: number;
  /** Where `withText` reads passage texts; without it the components are asked for their hits' texts. */
  docs?: TextSource;
}

/**
 * Hybrid defaults, tuned on the Bar Exam QA train split over the default corpus with
 * `lexcase eval retrieval --sweep-fusion --split train` (eval/fusion-sweep.ts; docs/retrieval.md):
 * the setting whose Recall@10 and Recall@100 rise most above the best single method's (largest
 * min-margin over both cutoffs; 228 settings: RRF k 10/30/60/100, weights bm25 0.5/1, qld 1–3,
 * dense 0.25–1, weighted min-max CombSUM, 100 or 1,000 hits). On train weighted RRF, k = 100, of
 * bm25 0.5, qld 1.5 and dense 1 (use-lite, last 24 query words), 1,000 hits each: 0.094 / 0.295
 * against the best single 0.067 / 0.270 (qld); on val 0.081 / 0.266 against the best single
 * 0.073 (bm25) / 0.266 (qld) — level at @100, above at @10. The equal-weight RRF k = 60 default
 * before it was below qld on val at @100 (0.242); RRF(bm25, dense) of 100 hits, earlier, was below
 * bm25 alone (all 1,195 questions: Recall@10 0.049 vs 0.068).
 * Used when the caller gives no methods / fusion / weights / rrfK / depth.
 */
export const HYBRID_DEFAULTS: { methods: string[]; fusion: FusionMethod; rrfK: number; weights?: Record<string, number>; depth: number } = {
  methods: ['bm25', 'qld', 'dense'],
  fusion: 'rrf',
  rrfK: 100,
  weights: { bm25: 0.5, qld: 1.5, dense: 1 },
  depth: 1000,
};
export const DEFAULT_HYBRID_METHODS = HYBRID_DEFAULTS.methods;

/** One line saying what `hybrid` means by default (for reports). */
export function hybridDefaultsNote(): string {
  const d = HYBRID_DEFAULTS;
  const w = d.weights ? `, weights ${d.methods.map((m) => `${m} ${d.weights![m] ?? (d.fusion === 'rrf' ? 1 : 1 / d.methods.length)}`).join(', ')}` : '';
  return `${d.fusion === 'rrf' ? `rrf k = ${d.rrfK}` : 'weighted min-max'} of ${d.methods.join(' + ')}${w}, ${d.depth} hits each (tuned on train)`;
}

export function createHybridRetriever(components: Retriever[], opts: HybridOptions = {}): Retriever & { fusedSearch(q: string, o?: SearchOptions): Promise<FusedHit[]> } {
  if (components.length === 0) throw errors.usage('hybrid retrieval needs at least one component method');
  const methods = components.map((c) => String(c.method));
  if (new Set(methods).size !== methods.length) throw errors.usage(`hybrid component methods must be distinct, got ${methods.join(',')}`);
  const fusion = opts.fusion ?? 'rrf';
  if (fusion !== 'rrf' && fusion !== 'weighted') throw errors.invalidInput('fusion', `expected rrf or weighted, got ${String(fusion)}`);
  for (const [m, w] of Object.entries(opts.weights ?? {})) {
    if (!methods.includes(m)) throw errors.invalidInput('weights', `"${m}" is not one of the hybrid methods (${methods.join(', ')})`);
    if (!Number.isFinite(w) || w < 0) throw errors.invalidInput('weights', `weight for ${m} must be a non-negative number, got ${w}`);
  }

  const lists = async (query: string, k: number, withText = false): Promise<RankedList[]> => {
    const depth = Math.max(opts.depth ?? 100, k);
    return Promise.all(components.map(async (c) => ({ method: String(c.method), hits: await c.search(query, { k: depth, withText }) })));
  };
  const fusedSearch = async (query: string, sopts?: SearchOptions): Promise<FusedHit[]> => {
    const k = sopts?.k ?? SEARCH_K;
    if (!Number.isInteger(k) || k < 0) throw errors.invalidInput('k', `expected a non-negative integer, got ${k}`);
    if (k === 0) return [];
    return fuse(fusion, await lists(query, k), { k, rrfK: opts.rrfK, weights: opts.weights });
  };

  return {
    method: 'hybrid',
    fusedSearch,
    async search(query: string, sopts?: SearchOptions): Promise<Hit[]> {
      refuseApprox(sopts, 'hybrid');
      if (!sopts?.withText) return (await fusedSearch(query, sopts)).map(({ id, score, rank }) => ({ id, score, rank }));
      if (opts.docs) return attachTexts((await fusedSearch(query, { k: sopts.k })).map(({ id, score, rank }) => ({ id, score, rank })), opts.docs, 'hybrid');
      // No doc store: take each fused hit's text from the component hits it came from.
      const k = sopts.k ?? SEARCH_K;
      if (!Number.isInteger(k) || k < 0) throw errors.invalidInput('k', `expected a non-negative integer, got ${k}`);
      if (k === 0) return [];
      const ls = await lists(query, k, true);
      const byId = new Map(ls.flatMap((l) => l.hits.map((h) => [h.id, h] as const)));
      return fuse(fusion, ls, { k, rrfK: opts.rrfK, weights: opts.weights }).map(({ id, score, rank }) => {
        const h = byId.get(id);
        if (h?.text === undefined) throw errors.usage(`hybrid component did not return the text of passage ${id}`, 'pass a doc store as the `docs` option of createHybridRetriever');
        return h.title ? { id, score, rank, text: h.text, title: h.title } : { id, score, rank, text: h.text };
      });
    },
    async explain(query: string, id: string): Promise<Explanation> {
      const depth = Math.max(opts.depth ?? 100, 10);
      const all = fuse(fusion, await lists(query, depth), { rrfK: opts.rrfK, weights: opts.weights });
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
          weights: opts.weights ?? {},
          fusedRank: hit?.rank ?? null,
          components: hit?.components ?? {},
          note: hit ? undefined : `not in the top ${depth} of any component`,
        },
      };
    },
  };
}
