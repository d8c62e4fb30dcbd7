/** The CASE report section is registered and built from a real (offline) run dir. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRun } from '../../eval/report/read-run.js';
import { buildReport } from '../../eval/report/write-report.js';
import { runExperiment } from '../../eval/runner.js';
import { createCase } from './index.js';
import { getPassageFrom, keywordRetriever, PASSAGES, QUESTION } from './test-support/fixtures.js';
import '../systems.js'; // the system list hands itself to eval: the report finds each system's section

const dir = mkdtempSync(join(tmpdir(), 'lexcase-case-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('CASE report section', () => {
  it('adds labelled evidence recall and advocate stop reasons to `lexcase report`', async () => {
    const runDir = join(dir, 'run');
    const retrievers = { bm25: keywordRetriever('bm25'), qld: keywordRetriever('qld') };
    const items = [QUESTION, { ...QUESTION, id: 'mbe_0b', goldPassageIds: ['fre402'] }];
    await runExperiment({
      lexcaseSystem: 'case',
      runDir,
      system: createCase({ offline: true, k: 2 }),
      items,
      gold: (q) => q.answer,
      makeContext: (_q, { seed }) => ({ seed, tools: [], retrievers, getPassage: getPassageFrom(PASSAGES), options: {} }),
      config: { system: 'case', mode: 'offline' },
      seed: 13,
    });
    const report = await buildReport(await readRun(runDir), { iterations: 200 });
    const s = report.sections.find((x) => x.id === 'case')!;
    expect(s.title).toBe('CASE metrics (offline heuristic, no LLM)');
    expect(s.markdown).toMatch(/gold ever returned by a tool call +\| 100\.0%/);
    expect(s.markdown).toContain('Advocate stop reasons: offline 8.');
    expect((s.json as any).evidenceRecall.goldInAnyEvidence.n).toBe(2);
  });
});
