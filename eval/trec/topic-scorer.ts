/**
 * A batch search's topics scored one at a time, as each topic's ranking comes (batch-search.ts
 * `onTopic`), so `eval retrieval --topics` never holds a method's whole run: 4,000 topics × 1,000
 * hits were 4 million run documents in memory per method before the first figure was computed. What
 * it keeps a topic: its scores (evaluate.ts scoreRanked) and the ranks of its relevant documents
 * (for the Recall@k plot and the explorer's first relevant rank). `result()` then gives what
 * `evaluateRun` gives on the whole run: the same topic accounting, means and intervals.
 */
import type { Qrels } from '../../corpora/qrels.js';
import type { RankedQuery } from '../plots/recall-curve.js';
import {
  evaluateScored,
  rankedGrades,
  scoreRanked,
  scoringOf,
  type TopicScores,
  type TopicScoring,
  type TrecEvalOptions,
  type TrecEvalResult,
} from './evaluate.js';
import type { RunDoc } from './run.js';

export class TopicScorer {
  private readonly o: TopicScoring;
  private readonly scored = new Map<string, TopicScores>();
  /** Per judged topic: the 1-based ranks (trec_eval order) of its documents of grade ≥ the level. */
  private readonly relevantRanks = new Map<string, number[]>();
  /** The run's topics as the in-memory run held them: those with hits in topic order, then those without. */
  private readonly withHits = new Set<string>();
  private readonly withoutHits = new Set<string>();

  constructor(
    private readonly qrels: Qrels,
    private readonly opts: TrecEvalOptions,
  ) {
    this.o = scoringOf(opts);
  }

  /** One topic's documents (scores as the run file writes them); a topic with none is in the run with nothing retrieved. */
  add(qid: string, docs: readonly RunDoc[]): void {
    (docs.length ? this.withHits : this.withoutHits).add(qid);
    const judged = this.qrels.get(qid);
    if (!judged) return;
    const ranked = rankedGrades(docs, judged);
    this.scored.set(qid, scoreRanked(qid, ranked, docs.length, judged, this.o));
    const ranks: number[] = [];
    ranked.forEach((g, i) => {
      if (g >= this.o.level) ranks.push(i + 1);
    });
    this.relevantRanks.set(qid, ranks);
  }

  /** trec_eval's evaluation of every topic added (evaluate.ts evaluateScored). */
  result(): TrecEvalResult {
    return evaluateScored(this.scored, [...this.withHits, ...[...this.withoutHits].filter((q) => !this.withHits.has(q))], this.qrels, this.opts);
  }

  /** The ranks of a topic's relevant documents (none for a topic not added). */
  ranksOf(qid: string): readonly number[] {
    return this.relevantRanks.get(qid) ?? [];
  }

  /** Per topic of `perTopic` (a result's): its relevant documents and the ranks they were found at, for the Recall@k curve (eval/plots/recall-curve.ts). */
  ranked(perTopic: readonly TopicScores[]): RankedQuery[] {
    return perTopic.map((t) => ({ gold: t.numRel, ranks: [...this.ranksOf(t.qid)] }));
  }
}
