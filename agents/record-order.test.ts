/**
 * A statistic of the whole sample (3-ply's pooled ratios, macro-F1/precision/recall) is bootstrapped
 * over item positions; its interval must not depend on the order of results.jsonl, which a retry
 * rewrites (the retried items go to the end). Before, the audit's 3-ply run of 12 arguable triples,
 * retried (tp12) and fresh (tp12fresh), identical records apart from ms, printed hallucination
 * accuracy [63.5, 85.7] and [63.4, 85.8]. Every surface now resamples the records sorted by id.
 */
import { describe, expect, it } from 'vitest';
import './systems.js'; // the agent systems' list, handed to eval
import { cellValue } from '../eval/reproduce/stats.js';
import { headlineFigures } from '../eval/systems.js';
import type { ResultRecord } from '../eval/types.js';
import { acalMetrics } from './acal/metrics.js';
import { summarizeRun } from './threeply/summary.js';

const triple = (n: number, nH: number, nGt: number, nUtil: number, abstained: boolean): ResultRecord => ({
  id: `arguable-${String(n).padStart(3, '0')}`,
  prediction: abstained ? 'abstain' : 'argue',
  gold: 'argue',
  correct: !abstained,
  metrics: { nH, nGt, nUtil, abstained },
  ms: 10,
});

// the audit's run tp12fresh (ids in order) …
const fresh = [
  triple(1, 0, 14, 0, true),
  triple(2, 5, 16, 0, true),
  triple(3, 4, 16, 1, true),
  triple(4, 6, 15, 1, true),
  triple(5, 5, 16, 0, true),
  triple(6, 0, 14, 0, true),
  triple(7, 4, 16, 1, true),
  triple(8, 0, 14, 0, true),
  triple(9, 7, 16, 1, true),
  triple(10, 6, 16, 0, true),
  triple(11, 9, 13, 0, false),
  triple(12, 0, 15, 0, true),
];
// … and tp12, the same records after a retry of 003, 005, 009, 010, 011 (moved to the end)
const retried = [1, 2, 4, 6, 7, 8, 12, 3, 5, 9, 10, 11].map((n) => fresh[n - 1]);

const interval = (x: { lo: number | null; hi: number | null }) => [x.lo, x.hi];

describe('bootstrap intervals do not depend on the order of results.jsonl', () => {
  it('3-ply: pooled hallucination accuracy and utilization recall — headline, run table and reproduction cell', () => {
    const ctx = { config: { system: 'threeply' } };
    const a = headlineFigures('threeply', fresh, ctx);
    const b = headlineFigures('threeply', retried, ctx);
    const acc = (fs: typeof a) => fs.find((f) => f.id === 'hallucination-accuracy')!;
    expect(acc(a).lo).not.toBeNull();
    expect(interval(acc(b))).toEqual(interval(acc(a))); // before: [63.4, 85.8] vs [63.5, 85.7]
    expect(b.map((f) => f.text)).toEqual(a.map((f) => f.text));
    const [sa] = summarizeRun(fresh);
    const [sb] = summarizeRun(retried);
    expect(sb.ci).toEqual(sa.ci);
    const ratio = { stat: 'one-minus-ratio', num: 'nH', den: 'nGt' } as const;
    expect(cellValue(retried, ratio)).toEqual(cellValue(fresh, ratio));
  });

  it('macro-F1, precision and recall — headline, ACAL run table and reproduction cell', () => {
    const golds = ['Yes', 'No', 'No', 'Yes', 'No', 'Yes', 'Yes', 'No', 'No', 'No', 'Yes', 'No'];
    const preds = ['Yes', 'No', 'Yes', 'Yes', 'No', 'No', 'Yes', 'No', 'Yes', 'No', 'Yes', 'No'];
    const rs = golds.map((g, i): ResultRecord => ({ id: `hearsay-test-${i}`, prediction: preds[i], gold: g, correct: preds[i] === g, ms: 1 }));
    const moved = [...rs.slice(5), ...rs.slice(0, 5)];
    const config = { system: 'acal/acal', task: 'hearsay' };
    const f1 = (xs: ResultRecord[]) => headlineFigures('acal/acal', xs, { config }).find((f) => f.id === 'macro-f1')!;
    expect(f1(rs).lo).not.toBeNull();
    expect(interval(f1(moved))).toEqual(interval(f1(rs)));
    expect(acalMetrics(moved)).toEqual(acalMetrics(rs));
    for (const stat of ['macro-f1', 'macro-precision', 'macro-recall'] as const)
      expect(cellValue(moved, { stat }, { labels: ['Yes', 'No'] })).toEqual(cellValue(rs, { stat }, { labels: ['Yes', 'No'] }));
  });
});
