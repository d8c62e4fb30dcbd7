/** Accuracy with a 95% percentile-bootstrap CI (failed items count as wrong; also shown without them). */
import { bootstrapCi } from '../../bootstrap.js';
import { ciText, pct, table } from '../format.js';
import type { SectionBuilder } from '../types.js';

export const accuracySection: SectionBuilder = (run, o) => {
  const n = run.results.length;
  if (n === 0) return { id: 'accuracy', title: 'Accuracy', markdown: 'No results yet.', json: { n: 0 } };
  const values: number[] = run.results.map((r) => (r.correct ? 1 : 0));
  const ci = bootstrapCi(values, { iterations: o.iterations, seed: o.seed });
  const answered = run.results.filter((r) => !r.error && r.prediction !== null);
  const ansCi = answered.length ? bootstrapCi(answered.map((r) => (r.correct ? 1 : 0)), { iterations: o.iterations, seed: o.seed }) : undefined;
  const correct = values.reduce((a, b) => a + b, 0);
  const rows = [
    ['all items', n, correct, pct(ci.estimate), ciText(ci)],
    ...(answered.length !== n && ansCi ? [['answered only', answered.length, answered.filter((r) => r.correct).length, pct(ansCi.estimate), ciText(ansCi)]] : []),
  ];
  return {
    id: 'accuracy',
    title: 'Accuracy',
    markdown: table(['', 'n', 'correct', 'accuracy', `${Math.round(ci.level * 100)}% CI`], rows) + `\n\nBootstrap: ${ci.iterations} resamples, seed ${ci.seed}. Failed items count as wrong.`,
    json: { n, correct, accuracy: ci.estimate, ci: { lo: ci.lo, hi: ci.hi, level: ci.level }, iterations: ci.iterations, seed: ci.seed, answered: ansCi ? { n: answered.length, accuracy: ansCi.estimate, ci: { lo: ansCi.lo, hi: ansCi.hi } } : null },
  };
};
