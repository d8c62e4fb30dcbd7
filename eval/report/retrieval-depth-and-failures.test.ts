/**
 * Two quiet ways a retrieval figure was tilted with nothing to show it (found 2026-12-04):
 * - `compare` of a run ranked to 1,000 (ks 10,1000) beside one ranked to 10 (ks 10) paired MRR as each
 *   run recorded it: the deep run credits a first gold passage at ranks 11–1,000 that the shallow one
 *   cannot see, so two identical rankings differed "significantly". Now both are cut at the shallower
 *   depth, the row says "MRR (top 10)" and a line says why.
 * - a retrieval run's failed items (the search threw) are left out of every figure's n, but report.md
 *   said "counted as wrong" and no figure showed how many were left out.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadQuestions } from '../../corpora/registry.js';
import { retrievalQuery } from '../../corpora/barexam.js';
import type { Question } from '../../corpora/types.js';
import { closeSparseIndexes, openRetriever } from '../../retrieval/open.js';
import { buildSmallBarexamIndex } from '../../tests/support/small-barexam-index.js';
import { firstRelevantRank, recallAtK } from '../metrics/index.js';
import { runRetrievalGridRun } from '../reproduce/retrieval-run.js';
import { readResults } from '../run-dir.js';
import { contextFrom, runExperiment } from '../runner.js';
import { compareRuns, formatComparison } from './compare.js';
import { readRun } from './read-run.js';
import { buildReport } from './write-report.js';
import { runSummary } from '../../web/server/run-summary-api.js';
import { findRun } from '../../web/server/runs.js';

const ITEMS = 30;
let dir: string;
let index: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-retrieval-depth-'));
  index = join(dir, 'idx');
  await buildSmallBarexamIndex(index, { items: ITEMS, corpus: 300 });
}, 120_000);
afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

describe('retrieval runs: MRR at one depth in compare, failed items shown as left out', () => {
  it('compare cuts both runs at the shallower depth: identical rankings, no difference; the row and a line say the depth', async () => {
    const deep = join(dir, 'deep');
    const shallow = join(dir, 'shallow');
    await runRetrievalGridRun({ runDir: deep, method: 'bm25', index, limit: ITEMS, ks: [10, 1000] });
    await runRetrievalGridRun({ runDir: shallow, method: 'bm25', index, limit: ITEMS, ks: [10] });
    // the case that tilted: a first gold passage past rank 10, which only the deep run records
    const past10 = (await readResults(deep)).records.filter((r) => typeof r.metrics?.firstRank === 'number' && (r.metrics.firstRank as number) > 10);
    expect(past10.length).toBeGreaterThan(0);

    const c = await compareRuns(deep, shallow);
    const mrr = c.measures.find((m) => m.id === 'mrr')!;
    expect(mrr.label).toBe('MRR (top 10)');
    expect(mrr.estimate).toBe(0);
    expect(mrr.a).toBe(mrr.b);
    const line = 'A ranked to 1000, B to 10: MRR is compared within the top 10 for both (a first gold passage below rank 10 counts 0)';
    expect(c.pairingLines).toContain(line);
    expect(formatComparison(c)).toContain(`- ${line}`);

    // one depth: the row stays "MRR", no line
    const same = await compareRuns(shallow, shallow);
    expect(same.measures.find((m) => m.id === 'mrr')!.label).toBe('MRR');
    expect(same.pairingLines.some((l) => l.includes('MRR is compared within'))).toBe(false);
  }, 120_000);

  it("a query that returned no hits is no failure: in n, scored 0, said apart — in report.md, compare and the explorer's summary alike", async () => {
    const tiny = join(dir, 'tiny-idx');
    // the first question's gold passage, and two passages whose words few questions share
    await buildSmallBarexamIndex(tiny, {
      items: 1,
      corpus: 0,
      extra: [
        { id: 'z1', text: 'zymurgy brewing yeast fermentation', source: 'test' },
        { id: 'z2', text: 'quixotic windmill knight errantry', source: 'test' },
      ],
    });
    const runDir = join(dir, 'nohits');
    await runRetrievalGridRun({ runDir, method: 'bm25', index: tiny, limit: 20, ks: [1, 10] });
    const records = (await readResults(runDir)).records;
    const none = records.filter((r) => r.prediction === null && r.error === undefined).length;
    expect(none).toBeGreaterThan(0); // the case: queries none of the 3 passages matches
    const report = await buildReport(await readRun(runDir));
    expect(report.markdown).toContain(`## Failures\n\nNone.\n\n${none} of 20 queries returned no hits: not failures, scored 0 in every figure's n.`);
    const figures = report.json.sections.figures as { figures: { id: string; n: number; failed?: number }[] };
    expect(figures.figures.find((f) => f.id === 'recall@10')).toMatchObject({ n: 20 });
    expect(figures.figures.find((f) => f.id === 'recall@10')?.failed).toBeUndefined();
    expect((await runSummary((await findRun(dir, 'nohits'))!)).failures).toBe(0); // before: every no-hit query
    const c = await compareRuns(runDir, runDir);
    expect([c.a.failed, c.b.failed]).toEqual([0, 0]);
  }, 120_000);

  it("report.md: a failed search is left out of every figure's n, and the Figures table and the Failures section say so", async () => {
    const questions: Question[] = (await loadQuestions('barexam', 'val')).slice(0, ITEMS);
    const retriever = await openRetriever(index, 'bm25');
    const runDir = join(dir, 'failing');
    const failing = new Set(questions.slice(0, 3).map((q) => q.id));
    await runExperiment({
      runDir,
      lexcaseSystem: 'retrieval',
      items: questions,
      gold: (q) => q.goldPassageIds[0] ?? '',
      makeContext: contextFrom(),
      config: { system: 'retrieval', method: 'bm25', ks: [10] },
      seed: 13,
      system: async (q) => {
        if (failing.has(q.id)) throw new Error('embedding endpoint: HTTP 503 Service Unavailable');
        const ranked = (await retriever.search(retrievalQuery(q), { k: 10 })).map((h) => h.id);
        return {
          prediction: ranked[0] ?? null,
          metrics: { firstRank: firstRelevantRank(ranked, q.goldPassageIds), 'recall@10': recallAtK(ranked, q.goldPassageIds, 10) },
          trace: {},
        };
      },
    });
    const report = await buildReport(await readRun(runDir));
    expect(report.markdown).toContain(`3 of ${ITEMS} items failed (left out of every figure's n: no ranking recorded)`);
    const figures = report.json.sections.figures as { figures: { id: string; n: number; failed?: number }[] };
    for (const id of ['recall@10', 'mrr']) expect(figures.figures.find((f) => f.id === id)).toMatchObject({ n: ITEMS - 3, failed: 3 });
    expect(report.markdown).toMatch(/failed \(left out of n\)/);
  }, 120_000);
});
