/**
 * How the explorer's compare views mark an item ✓: as the comparison judges the runs. A retrieval
 * run's item is a hit when its gold is within the first Recall@k the records hold (the comparison's
 * first measure), not when it is at rank 1 (`correct`) — the matrix said "✗ ✗, 0 / 2 runs right" for
 * an item with gold at ranks 3 and 2 that the agreement table counted as "both hit".
 */
import { describe, expect, it } from 'vitest';
import { itemMatrix } from '../../web/server/compare-runs-api.js';
import type { ResultRecord } from '../types.js';
import { compareRunData, itemJudge } from './compare.js';
import type { RunData } from './types.js';

const rec = (id: string, firstRank: number | null): ResultRecord => ({
  id,
  prediction: `p-${id}`,
  gold: `g-${id}`,
  correct: firstRank === 1,
  metrics: { firstRank, 'recall@10': firstRank !== null && firstRank <= 10 ? 1 : 0, 'recall@100': firstRank !== null && firstRank <= 100 ? 1 : 0 },
  ms: 1,
});
const run = (dir: string, system: string, results: ResultRecord[]): RunData =>
  ({ dir, config: { seed: 1, config: { system }, provenance: {} }, results, traces: new Map(), droppedTail: false }) as unknown as RunData;

describe('itemJudge', () => {
  const a = run('bm25', 'retrieval', [rec('q1', 3), rec('q2', 1), rec('q3', 40), rec('q4', null)]);
  const b = run('qld', 'retrieval', [rec('q1', 2), rec('q2', 15), rec('q3', 1), rec('q4', 5)]);

  it("a retrieval run's item is right when it is a hit at the comparison's first measure (Recall@10), as the agreement counts it", () => {
    const ja = itemJudge(a);
    expect(ja.label).toBe('hit (Recall@10 > 0)');
    expect(a.results.map(ja.right)).toEqual([true, true, false, false]);
    const c = compareRunData(a, b);
    expect(c.primary.id).toBe('recall@10');
    const m = itemMatrix([a.results, b.results], ['bm25', 'qld'], [itemJudge(a), itemJudge(b)]);
    const both = m.rows.filter((r) => r.cells.every((x) => x?.correct)).length;
    const onlyA = m.rows.filter((r) => r.cells[0]?.correct && !r.cells[1]?.correct).length;
    const onlyB = m.rows.filter((r) => !r.cells[0]?.correct && r.cells[1]?.correct).length;
    expect({ both, onlyA, onlyB, neither: m.rows.length - both - onlyA - onlyB }).toEqual(c.agreement);
    expect(m.rightMeans).toBe('hit (Recall@10 > 0)');
  });

  it('an accuracy run keeps "right": its correct flag, a failed item wrong', () => {
    const acc = run('case', 'case', [
      { id: 'q1', prediction: 'A', gold: 'A', correct: true, ms: 1 },
      { id: 'q2', prediction: null, gold: 'B', correct: false, error: 'x', ms: 1 },
    ]);
    const j = itemJudge(acc);
    expect(j.label).toBe('right');
    expect(acc.results.map(j.right)).toEqual([true, false]);
  });
});
