/**
 * Paired comparison of two runs evaluated on the same qrels: for every measure, the mean difference
 * A − B over the topics both evaluations scored, its 95% paired-bootstrap CI and two-sided p-value
 * (eval/bootstrap.ts pairedBootstrap; topics resampled jointly).
 */
import { pairedBootstrap, type BootstrapOptions, type DiffCi } from '../bootstrap.js';
import { errors } from '../../core/errors.js';
import type { TrecEvalResult } from './evaluate.js';

export interface TrecComparison {
  /** Topics scored in both evaluations (the paired items). */
  shared: number;
  onlyA: number;
  onlyB: number;
  metrics: Record<string, DiffCi & { a: number; b: number }>;
}

export function compareTrecEvals(A: TrecEvalResult, B: TrecEvalResult, opts: BootstrapOptions = {}): TrecComparison {
  const bByQid = new Map(B.perTopic.map((t) => [t.qid, t]));
  const pairs = A.perTopic.filter((t) => bByQid.has(t.qid)).map((t) => [t, bByQid.get(t.qid)!] as const);
  if (pairs.length === 0) throw errors.usage('the two runs share no evaluated topic; nothing to compare');
  const bo = { iterations: opts.iterations ?? A.bootstrap.iterations, seed: opts.seed ?? A.bootstrap.seed, level: opts.level ?? A.bootstrap.level };
  const metrics: TrecComparison['metrics'] = {};
  const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
  for (const name of A.metrics.filter((m) => B.metrics.includes(m))) {
    const a = pairs.map(([x]) => x.values[name]);
    const b = pairs.map(([, y]) => y.values[name]);
    metrics[name] = { ...pairedBootstrap(a, b, bo), a: mean(a), b: mean(b) };
  }
  return { shared: pairs.length, onlyA: A.perTopic.length - pairs.length, onlyB: B.perTopic.length - pairs.length, metrics };
}
