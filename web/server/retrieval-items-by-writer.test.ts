/**
 * The explorer's items view shows the retrieval table (query, top passage, gold passage, first gold
 * rank) for a run lexcase's retrieval evaluation wrote, as config.json records its writer
 * (`provenance.lexcaseSystem`), not for any run whose `system` is named "retrieval": before, the app
 * chose the table by `summary.system === 'retrieval'`, so a system of the user's own so named — judged
 * by accuracy in its header, report.md and compare — had its answers shown as retrieval queries with
 * "gold at rank 1" filters. The summary now carries `retrievalItems`, decided by the recorded writer.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import '../../agents/systems.js';
import { contextFrom, runExperiment } from '../../eval/runner.js';
import type { SystemOutcome } from '../../eval/types.js';
import { runSummary } from './run-summary-api.js';
import { findRun } from './runs.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'lexcase-retrieval-items-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const items = ['mbe_1', 'mbe_2', 'mbe_3', 'mbe_4'].map((id, i) => ({ id, answer: 'ABCA'[i] }));

async function summaryOf(name: string, lexcaseSystem?: string) {
  await runExperiment({
    runDir: join(root, name),
    // lexcase's retrieval evaluation records its ranking measures; a system of the user's own answers letters
    system: async (q): Promise<SystemOutcome> =>
      lexcaseSystem ? { prediction: q.answer, metrics: { 'recall@5': 1, mrr: 1 }, trace: {} } : { prediction: 'A', confidence: 'high', trace: {} },
    items,
    gold: (q) => q.answer,
    makeContext: contextFrom(),
    config: { system: 'retrieval', dataset: 'mine', ...(lexcaseSystem ? { method: 'bm25', ks: [5] } : {}) },
    seed: 13,
    ...(lexcaseSystem ? { lexcaseSystem } : {}),
  });
  return runSummary(await findRun(root, name));
}

describe('the items view of a run named "retrieval"', () => {
  it('a system of the user\'s own named "retrieval": its answers, not the retrieval table (before: chosen by the name)', async () => {
    const s = await summaryOf('mine');
    expect(s.system).toBe('retrieval');
    expect(s.figures.map((f) => f.id)).toEqual(['accuracy']);
    expect(s.retrievalItems).toBe(false);
  });

  it("a run lexcase's retrieval evaluation wrote: the retrieval table", async () => {
    const s = await summaryOf('lexcase', 'retrieval');
    expect(s.figures.map((f) => f.id)).toEqual(['recall@5']);
    expect(s.retrievalItems).toBe(true);
  });
});
