/**
 * Per-topic ranks of the relevant documents of a TREC run (trec_eval order, order.ts), for the
 * Recall@k curve of `eval retrieval --topics … --plot`: one entry per topic the evaluation counted
 * (`perTopic` of evaluate.ts — the same topic set as the printed means), relevant = grade ≥ level.
 */
import type { Qrels } from '../../corpora/qrels.js';
import type { RankedQuery } from '../plots/recall-curve.js';
import type { TopicScores } from './evaluate.js';
import { trecOrder } from './order.js';
import type { TrecRun } from './run.js';

export function rankedTopics(run: TrecRun, qrels: Qrels, perTopic: readonly TopicScores[], level = 1): RankedQuery[] {
  return perTopic.map((t) => {
    const judged = qrels.get(t.qid);
    const ranks: number[] = [];
    trecOrder(run.get(t.qid) ?? []).forEach((d, i) => {
      if ((judged?.get(d.docid) ?? 0) >= level) ranks.push(i + 1);
    });
    return { gold: t.numRel, ranks };
  });
}
