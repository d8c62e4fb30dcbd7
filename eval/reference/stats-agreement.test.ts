import { describe, expect, it } from 'vitest';
import { pythonReference, renderAgreement, statsAgreement } from './stats-agreement.js';

// scipy and numpy are the reference: CI machines have them, a user's may not. Without them the
// suite says so in the skipped block's title (as bench/bm25s-peer.test.ts does for its peer).
const have = pythonReference();
const why = have.ok ? 'python3 with numpy and scipy' : `skipped: ${have.reason}`;

describe.skipIf(!have.ok)(`lexcase's statistics agree with scipy/numpy on seeded Bar Exam-sized inputs (${why})`, () => {
  it('Wilson, McNemar, sign-flip, macro/micro-F1 to 1e-12; bootstrap intervals exactly on the same resamples and within Monte-Carlo error of scipy.stats.bootstrap', async () => {
    const rows = await statsAgreement();
    const table = renderAgreement(rows);
    for (const r of rows) expect(r.agree, `${r.statistic}: max abs diff ${r.maxAbsDiff} > ${r.tolerance}\n${table}`).toBe(true);
    // every statistic is checked, each on more than a handful of cases
    expect(rows.map((r) => r.statistic)).toEqual(
      expect.arrayContaining(['Wilson interval, lower bound', 'exact McNemar p (two-sided)', 'macro-F1', 'mean bootstrap interval, same resamples']),
    );
    for (const r of rows) expect(r.cases, r.statistic).toBeGreaterThanOrEqual(3);
    // on identical resamples the percentile step is the same number, not merely close
    for (const r of rows.filter((x) => x.tolerance === 0)) expect(r.maxAbsDiff, r.statistic).toBe(0);
  }, 600_000);
});
