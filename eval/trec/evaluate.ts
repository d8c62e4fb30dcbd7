/**
 * Evaluate a TREC run against qrels the way trec_eval (v9.0.8, trec_eval.c and meas_avg.c) does:
 *
 * - Topics in the run but not in the qrels are skipped ("Queries for which there is no relevance
 *   information are ignored").
 * - Topics in the qrels but not in the run are skipped too, unless `complete` (trec_eval -c): then
 *   each counts with 0 on every measure and the mean is over all topics of the qrels.
 * - Topics in both whose judgements hold no relevant document (no grade ≥ 1) ARE evaluated and score
 *   0 on every measure — trec_eval has relevance information for them, so they enter the mean.
 *   `skipNoRelevant` leaves them out instead (what many papers do; say so when you report it).
 * - At a relevance level L > 1 (trec_eval -l L), a topic with relevant documents but none of grade
 *   ≥ L scores 0 on the level-based measures (recall, P, MRR, MAP) but not on nDCG, which takes
 *   every grade as its gain: it is in the mean (as in trec_eval) and counted apart (`belowLevel`);
 *   `skipNoRelevant` keeps it.
 * - Each topic's documents are re-ranked by score, ties by docid descending (order.ts).
 *
 * Means come with their 95% intervals over topics from eval/stats: a measure that is 0/1 on every
 * topic is a proportion (Wilson), any other a graded mean (seeded percentile bootstrap, none below
 * n = 10).
 */
import type { BootstrapOptions } from '../bootstrap.js';
import { LEVEL, perItemInterval, RESAMPLES, SEED, type Interval } from '../stats/index.js';
import { errors } from '../../core/errors.js';
import type { Qrels } from '../../corpora/qrels.js';
import { measureValue, type Measure } from './measures.js';
import { trecOrder } from './order.js';
import type { RunDoc, TrecRun } from './run.js';

export interface TrecEvalOptions extends Omit<BootstrapOptions, 'level'> {
  measures: readonly Measure[];
  /** Grade at or above which a document is relevant (trec_eval -l; default 1). */
  relevanceLevel?: number;
  /** trec_eval -c: qrels topics missing from the run count as 0 and stay in the mean. */
  complete?: boolean;
  /** Leave out topics whose judgements have no relevant document (trec_eval keeps them, at 0). */
  skipNoRelevant?: boolean;
}

export interface TopicScores {
  qid: string;
  /** Relevant documents in the qrels (grade ≥ level). */
  numRel: number;
  /** Documents the run retrieved for the topic. */
  numRet: number;
  /** Relevant documents retrieved (anywhere in the ranking). */
  relRet: number;
  /** True for a qrels topic absent from the run, scored 0 under `complete`. */
  missingFromRun?: boolean;
  /** `eval retrieval --topics` (eval-index.ts): the topic was searched and got no hit; it scores 0 and is in the mean. */
  noHits?: boolean;
  values: Record<string, number>;
}

export interface TopicSet {
  count: number;
  /** Up to 10 qids. */
  examples: string[];
}

export interface TrecEvalResult {
  metrics: string[];
  /** Topics in the mean. */
  n: number;
  /** Mean of each measure over the n topics, with its 95% interval (eval/stats). */
  means: Record<string, Interval>;
  perTopic: TopicScores[];
  topics: {
    inRun: number;
    inQrels: number;
    /** In the run, not in the qrels: skipped. */
    notInQrels: TopicSet;
    /** In the qrels, not in the run: skipped, or 0 with `complete`. */
    missingFromRun: TopicSet & { countedAsZero: boolean };
    /** Judged, but with no relevant document (no grade ≥ 1): scored 0 (trec_eval), or left out with skipNoRelevant. */
    noRelevant: TopicSet & { skipped: boolean };
    /** Relevance level > 1: topics with relevant documents, none at grade ≥ the level (0 on recall, P, MRR, MAP; not on nDCG); in the mean. */
    belowLevel: TopicSet;
  };
  relevanceLevel: number;
  complete: boolean;
  bootstrap: { iterations: number; seed: number; level: number };
}

const set = (ids: string[]): TopicSet => ({ count: ids.length, examples: ids.slice(0, 10) });
const byQid = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** What scoring one topic needs: the measures and the relevance level. */
export interface TopicScoring {
  measures: readonly Measure[];
  level: number;
}

/** The relevance level of `opts` (trec_eval -l; default 1), checked. */
export function scoringOf(opts: TrecEvalOptions): TopicScoring {
  const level = opts.relevanceLevel ?? 1;
  if (!Number.isInteger(level) || level < 1) throw errors.invalidInput('--relevance-level', `expected an integer ≥ 1, got ${level}`);
  return { measures: opts.measures, level };
}

/** One topic's scores from the grades of its documents in trec_eval's order (`ranked`) and the number it retrieved. */
export function scoreRanked(qid: string, ranked: readonly number[], numRet: number, judged: ReadonlyMap<string, number>, o: TopicScoring): TopicScores {
  const grades = [...judged.values()];
  const values: Record<string, number> = {};
  for (const m of o.measures) values[m.name] = measureValue(m, { ranked, judged: grades, level: o.level });
  return { qid, numRel: grades.filter((r) => r >= o.level).length, numRet, relRet: ranked.filter((r) => r >= o.level).length, values };
}

/** The grades of a topic's documents in trec_eval's order (order.ts). */
export const rankedGrades = (docs: readonly RunDoc[], judged: ReadonlyMap<string, number>): number[] => trecOrder(docs).map((d) => judged.get(d.docid) ?? 0);

function scoreTopic(qid: string, docs: readonly RunDoc[], judged: ReadonlyMap<string, number>, o: TopicScoring): TopicScores {
  return scoreRanked(qid, rankedGrades(docs, judged), docs.length, judged, o);
}

export function evaluateRun(run: TrecRun, qrels: Qrels, opts: TrecEvalOptions): TrecEvalResult {
  const o = scoringOf(opts);
  const scored = new Map<string, TopicScores>();
  for (const [qid, docs] of run) {
    const judged = qrels.get(qid);
    if (judged) scored.set(qid, scoreTopic(qid, docs, judged, o));
  }
  return evaluateScored(scored, [...run.keys()], qrels, opts);
}

/**
 * trec_eval's topic accounting and means over topics already scored one at a time: `scored` holds
 * the topics of the run that the qrels judge (scoreRanked), `runQids` every topic of the run, in the
 * run's order. What `evaluateRun` computes from a whole run, without holding the run
 * (eval-index.ts scores each topic of a batch search as it comes: topic-scorer.ts).
 */
export function evaluateScored(scored: ReadonlyMap<string, TopicScores>, runQids: readonly string[], qrels: Qrels, opts: TrecEvalOptions): TrecEvalResult {
  const o = scoringOf(opts);
  const inRun = new Set(runQids);
  const notInQrels = [...inRun].filter((q) => !qrels.has(q)).sort(byQid);
  const missing = [...qrels.keys()].filter((q) => !inRun.has(q)).sort(byQid);
  const noRelevant: string[] = [];
  const belowLevel: string[] = [];
  const perTopic: TopicScores[] = [];
  for (const qid of [...qrels.keys()].sort(byQid)) {
    const judged = qrels.get(qid)!;
    let t = inRun.has(qid) ? scored.get(qid) : undefined;
    if (!t) {
      if (!opts.complete) continue;
      t = scoreTopic(qid, [], judged, o);
      t.missingFromRun = true;
    }
    if (t.numRel === 0) {
      let anyRelevant = false;
      for (const g of judged.values()) if (g >= 1) anyRelevant = true;
      if (anyRelevant) belowLevel.push(qid);
      else {
        noRelevant.push(qid);
        if (opts.skipNoRelevant) continue;
      }
    }
    perTopic.push(t);
  }
  if (perTopic.length === 0)
    throw errors.usage(
      'no topic has both results in the run and judgements in the qrels (trec_eval: "No queries with both results and relevance info")',
      `run topics e.g. ${[...inRun].slice(0, 3).join(', ')}; qrels topics e.g. ${[...qrels.keys()].slice(0, 3).join(', ')} — do the qids match?`,
    );
  const b = { iterations: opts.iterations ?? RESAMPLES, seed: opts.seed ?? SEED, level: LEVEL };
  const means: Record<string, Interval> = {};
  for (const m of opts.measures)
    means[m.name] = perItemInterval(
      perTopic.map((t) => t.values[m.name]),
      b,
    );
  return {
    metrics: opts.measures.map((m) => m.name),
    n: perTopic.length,
    means,
    perTopic,
    topics: {
      inRun: inRun.size,
      inQrels: qrels.size,
      notInQrels: set(notInQrels),
      missingFromRun: { ...set(missing), countedAsZero: !!opts.complete },
      noRelevant: { ...set(noRelevant), skipped: !!opts.skipNoRelevant },
      belowLevel: set(belowLevel),
    },
    relevanceLevel: o.level,
    complete: !!opts.complete,
    bootstrap: b,
  };
}
