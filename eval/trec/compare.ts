/**
 * Paired comparison of two runs evaluated on the same qrels: for every measure, the mean difference
 * B − A (the second run minus the first, as every lexcase comparison) over the topics both
 * evaluations scored, from the statistics module (eval/stats/paired.ts): its 95% paired-bootstrap
 * interval (topics resampled jointly; none below 10 topics) and the p-value of an exact paired test
 * (McNemar for a measure that is 0/1 on every topic, sign-flip permutation otherwise).
 */
import type { BootstrapOptions } from '../bootstrap.js';
import { errors } from '../../core/errors.js';
import { pairedDifference, type PairedDifference } from '../stats/index.js';
import type { TrecEvalResult } from './evaluate.js';

export interface TrecComparison {
  /** The sign of every difference. */
  sign: 'B − A';
  /** Topics scored in both evaluations (the paired items). */
  shared: number;
  onlyA: number;
  onlyB: number;
  /** Paired topics absent from A's run (or B's), scored 0 by `complete` (trec_eval -c): paired, but not scored by that run. */
  zeroA: number;
  zeroB: number;
  metrics: Record<string, PairedDifference>;
  /** The resamples and seed of the paired intervals (and of a sampled sign-flip test). */
  bootstrap: { iterations: number; seed: number };
}

export function compareTrecEvals(A: TrecEvalResult, B: TrecEvalResult, opts: Omit<BootstrapOptions, 'level'> = {}): TrecComparison {
  const bByQid = new Map(B.perTopic.map((t) => [t.qid, t]));
  const pairs = A.perTopic.filter((t) => bByQid.has(t.qid)).map((t) => [t, bByQid.get(t.qid)!] as const);
  if (pairs.length === 0) throw errors.usage('the two runs share no evaluated topic; nothing to compare');
  const bo = { iterations: opts.iterations ?? A.bootstrap.iterations, seed: opts.seed ?? A.bootstrap.seed };
  const metrics: TrecComparison['metrics'] = {};
  for (const name of A.metrics.filter((m) => B.metrics.includes(m)))
    metrics[name] = pairedDifference(
      pairs.map(([x]) => x.values[name]),
      pairs.map(([, y]) => y.values[name]),
      bo,
    );
  return {
    sign: 'B − A',
    shared: pairs.length,
    onlyA: A.perTopic.length - pairs.length,
    onlyB: B.perTopic.length - pairs.length,
    zeroA: pairs.filter(([x]) => x.missingFromRun).length,
    zeroB: pairs.filter(([, y]) => y.missingFromRun).length,
    metrics,
    bootstrap: bo,
  };
}
