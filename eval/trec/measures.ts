/**
 * Per-topic measures with trec_eval's definitions (usnistgov/trec_eval v9.0.8, m_*.c). Input: the
 * relevance grades of the topic's ranked documents in trec_eval order (order.ts; an unjudged
 * document is 0) and the grades of all the topic's judged documents.
 *
 * - recall@k  (trec_eval recall_k, m_recall.c): relevant in the top k / all relevant of the topic.
 * - p@k       (P_k, m_P.c): relevant in the top k / k (missing ranks count as non-relevant).
 * - ndcg@k    (ndcg_cut_k, m_ndcg_cut.c): DCG = Σ_{rank i ≤ k} rel_i / log2(i + 1) over documents
 *             with rel > 0, the gain being the qrels grade itself; ideal DCG from all the topic's
 *             judged documents with rel > 0, sorted by grade, cut at k.
 * - mrr@k     (recip_rank on the ranking cut at k, i.e. `trec_eval -M k -m recip_rank`): 1 / rank of
 *             the first relevant document within the top k, else 0. `mrr` is recip_rank uncut.
 * - map       (map, m_map.c): Σ over relevant retrieved of precision at its rank / all relevant.
 * - map@k     (map_cut_k, m_map_cut.c): the same sum over the top k only / all relevant.
 * "Relevant" is grade ≥ the relevance level (trec_eval -l, default 1); nDCG uses grades directly,
 * ignoring the level, as trec_eval does. A topic with no relevant document scores 0 on all of them.
 */
import { errors } from '../../core/errors.js';

export type MeasureKind = 'recall' | 'p' | 'ndcg' | 'mrr' | 'map';

export interface Measure {
  /** Canonical name: recall@10, p@5, ndcg@10, mrr@10, mrr, map, map@100. */
  name: string;
  kind: MeasureKind;
  /** Cutoff; undefined = the whole ranking (mrr, map). */
  k?: number;
}

export const DEFAULT_METRICS = ['recall@10', 'recall@100', 'ndcg@10', 'mrr@10', 'map'];
export const METRIC_HELP =
  'recall@k, p@k, ndcg@k, mrr@k, mrr, map, map@k (trec_eval names such as recall_100, P_10, ndcg_cut_10, recip_rank, map_cut_100 also work)';

const ALIASES: Record<string, MeasureKind> = {
  recall: 'recall',
  p: 'p',
  precision: 'p',
  ndcg: 'ndcg',
  ndcg_cut: 'ndcg',
  mrr: 'mrr',
  recip_rank: 'mrr',
  rr: 'mrr',
  map: 'map',
  map_cut: 'map',
};

/** Parse "ndcg@10", "ndcg_cut_10", "ndcg_cut.10", "recip_rank", "map", …; throws naming the bad name. */
export function parseMeasure(raw: string): Measure {
  const s = raw.trim().toLowerCase();
  const m = /^([a-z_]+?)(?:[@._](\d+))?$/.exec(s);
  const kind = m ? ALIASES[m[1]] : undefined;
  if (!m || !kind) throw errors.invalidInput('--metrics', `unknown metric "${raw}"; known: ${METRIC_HELP}`);
  const k = m[2] === undefined ? undefined : Number(m[2]);
  if (k !== undefined && k < 1) throw errors.invalidInput('--metrics', `cutoff of "${raw}" must be a positive integer`);
  // past 2^53 the digits no longer name one number ("p@99999999999999999999" read as p@1e20)
  if (k !== undefined && !Number.isSafeInteger(k))
    throw errors.invalidInput('--metrics', `cutoff of "${raw}" must be a positive integer up to ${Number.MAX_SAFE_INTEGER}`);
  // trec_eval's map_cut is MAP over each cutoff's top k (map_cut_10 …), never the uncut map it was read as
  if (k === undefined && m[1] === 'map_cut')
    throw errors.invalidInput('--metrics', `"${raw}" needs a cutoff, e.g. map_cut.10 (MAP over the top 10); the uncut MAP is "map"`);
  if (k === undefined && (kind === 'recall' || kind === 'p' || kind === 'ndcg'))
    throw errors.invalidInput('--metrics', `"${raw}" needs a cutoff, e.g. ${kind}@10`);
  return { name: k === undefined ? kind : `${kind}@${k}`, kind, k };
}

export function parseMeasures(list: readonly string[]): Measure[] {
  if (list.length === 0) throw errors.invalidInput('--metrics', 'give at least one metric');
  const out = new Map<string, Measure>();
  for (const raw of list) {
    const m = parseMeasure(raw);
    out.set(m.name, m);
  }
  return [...out.values()];
}

export interface TopicJudgements {
  /** Grades of the ranked documents, trec_eval order (unjudged → 0). */
  ranked: readonly number[];
  /** Grades of every judged document of the topic. */
  judged: readonly number[];
  /** Relevance level (default 1). */
  level: number;
}

export function measureValue(m: Measure, t: TopicJudgements): number {
  const { ranked, judged, level } = t;
  const numRel = judged.filter((r) => r >= level).length;
  const depth = Math.min(m.k ?? Infinity, ranked.length);
  switch (m.kind) {
    case 'recall': {
      if (numRel === 0) return 0;
      let found = 0;
      for (let i = 0; i < depth; i++) if (ranked[i] >= level) found++;
      return found / numRel;
    }
    case 'p': {
      let found = 0;
      for (let i = 0; i < depth; i++) if (ranked[i] >= level) found++;
      return found / m.k!;
    }
    case 'mrr': {
      for (let i = 0; i < depth; i++) if (ranked[i] >= level) return 1 / (i + 1);
      return 0;
    }
    case 'map': {
      if (numRel === 0) return 0;
      let found = 0;
      let sum = 0;
      for (let i = 0; i < depth; i++) if (ranked[i] >= level) sum += ++found / (i + 1);
      return sum / numRel;
    }
    case 'ndcg': {
      let dcg = 0;
      for (let i = 0; i < depth; i++) if (ranked[i] > 0) dcg += ranked[i] / Math.log2(i + 2);
      const ideal = judged.filter((r) => r > 0).sort((a, b) => b - a);
      let idcg = 0;
      for (let i = 0; i < Math.min(m.k!, ideal.length); i++) idcg += ideal[i] / Math.log2(i + 2);
      return idcg > 0 ? dcg / idcg : dcg;
    }
  }
}
