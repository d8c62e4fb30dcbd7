/**
 * What `hybrid` means when the caller names no methods / fusion / weights / rrfK / depth: one
 * constant, read by openRetriever (hybrid-open.ts), the reports and the CLI help (so the help says
 * what the code does). A small module of its own: the CLI's help text loads nothing else with it.
 */
import type { FusionMethod } from './fusion.js';

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
 * bm25 alone (all 1,195 questions: Recall@10 0.049 vs 0.068). Since issue 36 dense embeds the whole
 * query (dense-query.ts): this setting then gives 0.080 / 0.288 on train (+0.013 over qld) and
 * 0.056 / 0.250 on val; the sweep's best on train became RRF k = 60 with the same weights
 * (0.082 / 0.284, +0.014), a difference of about one question, so the default was left as it is.
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

/** The questions HYBRID_DEFAULTS were tuned on: figures of a default hybrid on any of them are measured on its tuning data. */
export const HYBRID_TUNED_ON = { dataset: 'barexam', split: 'train', splitSeed: 13 } as const;

/** Whether a hybrid retriever's recorded config (retrieval/hybrid.ts `config`) is HYBRID_DEFAULTS' setting: methods (any order), fusion, rrfK, depth and weights. */
export function isDefaultHybrid(config: Record<string, unknown> | undefined): boolean {
  const d = HYBRID_DEFAULTS;
  if (!config || !Array.isArray(config.methods)) return false;
  const methods = config.methods as string[];
  const weights = (config.weights ?? {}) as Record<string, number>;
  const sameWeights = methods.every((m) => (weights[m] ?? 1) === (d.weights?.[m] ?? 1));
  return defaultHybridWeights(methods, config.fusion as FusionMethod) !== undefined && config.rrfK === d.rrfK && config.depth === d.depth && sameWeights;
}

/**
 * The weights a hybrid gets when the caller gives none: HYBRID_DEFAULTS' whenever its methods (in any
 * order) and fusion are the defaults' — given or not: naming the default values changes nothing —
 * else undefined (equal weights: the defaults' were tuned for that setting only).
 */
export function defaultHybridWeights(methods: readonly string[], fusion: FusionMethod): Record<string, number> | undefined {
  const d = HYBRID_DEFAULTS;
  const same = methods.length === d.methods.length && d.methods.every((m) => methods.includes(m));
  return same && fusion === d.fusion ? d.weights : undefined;
}

/** One line saying what `hybrid` means by default (for reports). */
export function hybridDefaultsNote(): string {
  const d = HYBRID_DEFAULTS;
  const w = d.weights ? `, weights ${d.methods.map((m) => `${m} ${d.weights![m] ?? (d.fusion === 'rrf' ? 1 : 1 / d.methods.length)}`).join(', ')}` : '';
  return `${d.fusion === 'rrf' ? `rrf k = ${d.rrfK}` : 'weighted min-max'} of ${d.methods.join(' + ')}${w}, ${d.depth} hits each (tuned on train)`;
}
