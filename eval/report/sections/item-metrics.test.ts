/**
 * report.md's "Per-item metrics" gives a number metric the interval of the values' rule
 * (docs/eval.md), the one a reproduction table gives the same values: MAD's citationsSupportive at 0
 * on all ten answered items is 0 of 10, Wilson [0, 27.8%] — not a degenerate bootstrap [0, 0].
 */
import { describe, expect, it } from 'vitest';
import { perItemInterval } from '../../stats/index.js';
import type { ResultRecord } from '../../types.js';
import type { RunConfigFile } from '../../run-config-file.js';
import { itemMetricsSection } from './item-metrics.js';

const rec = (i: number, metrics: ResultRecord['metrics']): ResultRecord => ({ id: `q${i}`, prediction: 'A', gold: 'A', correct: true, metrics, ms: 1 });
const run = (results: ResultRecord[]) => ({
  dir: '/nowhere',
  config: { seed: 13, config: { system: 'mad/mad' }, provenance: {} } as unknown as RunConfigFile,
  results,
  traces: new Map(),
  droppedTail: false,
});

describe('Per-item metrics: one interval rule with the reproduction tables', () => {
  it('a number metric that is 0 or 1 on every item gets Wilson, as perItemInterval gives the reproduce table; a graded one the bootstrap', async () => {
    const results = Array.from({ length: 10 }, (_, i) => rec(i, { citationsSupportive: 0, citationsExist: 1, citationsSeen: i % 3 }));
    const s = await itemMetricsSection(run(results), { iterations: 2000, seed: 13 });
    const json = s!.json as Record<string, { kind: string; n: number; value: number; ci: { lo: number; hi: number; method: string } }>;
    const table = perItemInterval(Array(10).fill(0));
    expect(json.citationsSupportive).toMatchObject({ kind: 'mean', n: 10, value: 0, ci: { method: 'wilson', lo: table.lo, hi: table.hi } });
    expect(json.citationsSupportive.ci.hi).toBeCloseTo(0.2775, 4);
    expect(json.citationsExist.ci.method).toBe('wilson');
    expect(json.citationsSeen.ci.method).toBe('bootstrap');
    expect(s!.markdown).toMatch(/\| citationsSupportive \| 10 \| +0\.000 \[0\.000, 0\.278\] \| +95% Wilson \|/);
  });
});
