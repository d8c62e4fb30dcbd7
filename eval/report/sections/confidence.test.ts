/**
 * report.md's "Accuracy by confidence" table lists its rows in the reliability plot's order (one constant,
 * CONFIDENCE_LABEL_ORDER in eval/plots/confidence-bins.ts): CASE's jury labels none → tie → low → high, and the
 * offline solvers' none → tie → offline. The table sorted its rows alphabetically (high, low, none, tie), so
 * the table and the plot beside it read in different orders.
 */
import { describe, expect, it } from 'vitest';
import { confidenceBins } from '../../plots/confidence-bins.js';
import type { RunData } from '../types.js';
import { confidenceSection } from './confidence.js';

const opts = { iterations: 10, seed: 1 } as never;

/** A run's records as a CASE run writes them: `[confidence, right?]` per item; `null` confidence = a failed item (error, no prediction). */
const run = (system: string, items: [string | null, boolean][]): RunData =>
  ({
    dir: '/x',
    config: { config: { system }, provenance: { lexcaseSystem: 'case' } },
    results: items.map(([confidence, right], i) =>
      confidence === null
        ? { id: `mbe_${i}`, gold: 'A', prediction: null, error: 'LLM_TIMEOUT: no reply in 30 s' }
        : { id: `mbe_${i}`, gold: 'A', prediction: right ? 'A' : 'B', confidence },
    ),
    traces: new Map(),
    droppedTail: false,
  }) as unknown as RunData;

/** The table's first column, in order. */
const tableRows = (markdown: string): string[] =>
  markdown
    .split('\n')
    .filter((l) => l.startsWith('|') && !/^\|\s*(confidence|:?-)/.test(l))
    .map((l) => l.split('|')[1].trim());

describe('report.md’s "Accuracy by confidence" rows', () => {
  it('a CASE jury run: none, tie, low, high, then the failed items — the reliability plot’s order', async () => {
    const r = run('case', [
      ['high', true],
      ['low', false],
      ['tie', true],
      ['high', true],
      ['none', false],
      ['low', true],
      [null, false],
      ['high', false],
      ['tie', false],
      ['high', true],
    ]);
    const s = await confidenceSection(r, opts);
    const rows = tableRows(s!.markdown);
    expect(rows).toEqual(['none', 'tie', 'low', 'high', 'failed (no confidence)']);
    const rel = confidenceBins(r.results);
    expect(rows).toEqual([...rel.bins, ...rel.unlabelled].map((b) => b.bin));
    expect(Object.keys(s!.json as object)).toEqual(rows);
  });

  it('an offline CASE run: none, tie, then offline (a single best-scoring option) — the plot’s order too', async () => {
    const r = run('case', [
      ['offline', true],
      ['tie', false],
      ['none', false],
      ['offline', false],
      ['tie', true],
      ['offline', true],
    ]);
    const rows = tableRows((await confidenceSection(r, opts))!.markdown);
    expect(rows).toEqual(['none', 'tie', 'offline']);
    expect(rows).toEqual(confidenceBins(r.results).bins.map((b) => b.bin));
  });
});
