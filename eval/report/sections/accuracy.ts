/**
 * Accuracy with its 95% Wilson interval (eval/stats: accuracy is a proportion); failed items count
 * as wrong, and the figure is also shown over the answered items only. Not for retrieval runs:
 * they are judged by retrieval measures (the Figures section), never by "gold at rank 1".
 */
import { correctFlags, isFailed } from '../../metrics/failures.js';
import { intervalText, methodLabel, proportionInterval, valueText } from '../../stats/index.js';
import { recordedSystemSpec } from '../../systems.js';
import { table } from '../format.js';
import type { SectionBuilder } from '../types.js';

export const accuracySection: SectionBuilder = (run) => {
  // a retrieval run as its config.json records its writer (recordedSystemSpec): a system of the user's own named "retrieval" is judged by accuracy
  if (recordedSystemSpec(run.config).retrieval) return null;
  const n = run.results.length;
  if (n === 0) return { id: 'accuracy', title: 'Accuracy', markdown: 'No results yet.', json: { n: 0 } };
  const flags = correctFlags(run.results);
  const correct = flags.reduce((a, b) => a + b, 0);
  const ci = proportionInterval(correct, n);
  const answered = run.results.filter((r) => !isFailed(r));
  const answeredRight = correctFlags(answered).reduce((a, b) => a + b, 0);
  const ansCi = answered.length ? proportionInterval(answeredRight, answered.length) : undefined;
  const rows = [
    ['all items', n, correct, valueText(ci.estimate, 'percent'), intervalText(ci, 'percent'), methodLabel(ci)],
    ...(answered.length !== n && ansCi
      ? [['answered only', answered.length, answeredRight, valueText(ansCi.estimate, 'percent'), intervalText(ansCi, 'percent'), methodLabel(ansCi)]]
      : []),
  ];
  return {
    id: 'accuracy',
    title: 'Accuracy',
    markdown: table(['', 'n', 'correct', 'accuracy', '95% interval', 'interval'], rows) + '\n\nFailed items count as wrong.',
    json: {
      n,
      correct,
      accuracy: ci.estimate,
      ci: { lo: ci.lo, hi: ci.hi, level: ci.level, method: ci.method },
      answered: ansCi ? { n: answered.length, accuracy: ansCi.estimate, ci: { lo: ansCi.lo, hi: ansCi.hi, method: ansCi.method } } : null,
    },
  };
};
