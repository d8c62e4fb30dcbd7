/** The CASE report section is registered and built from a real (offline) run dir. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRun } from '../../eval/report/read-run.js';
import { buildReport } from '../../eval/report/write-report.js';
import { runExperiment } from '../../eval/runner.js';
import { FakeChatModel, type FakeCall, type FakeReply } from '../../tests/support/fake-chat-model.js';
import { createCase } from './index.js';
import { getPassageFrom, keywordRetriever, PASSAGES, QUESTION, searchTool } from './test-support/fixtures.js';
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

  it('a run the library started with a config of its own (no prompt limits in config.json) counts the cut notes its traces record, as the explorer shows them', async () => {
    const runDir = join(dir, 'llm-library');
    const note = `${'the witness may be impeached by the party that called the witness; '.repeat(7).slice(0, 449)}.`; // 450 characters
    // each advocate searches, then picks the top two hits, the first with a 450-character note; the jurors vote B
    const script = (call: FakeCall): FakeReply => {
      if (/juror on a panel/.test(call.text)) return '{"reasoning":"r","vote":"B"}';
      if (call.tools.length === 0) return '{"evidence":[]}';
      const last = call.messages[call.messages.length - 1];
      if (last.getType() === 'human') return { toolCalls: [{ name: 'bm25_search', args: { query: 'witness impeach' } }] };
      const ids: string[] = JSON.parse(String(last.content)).results.map((r: { id: string }) => r.id);
      return JSON.stringify({ evidence: ids.slice(0, 2).map((id, i) => ({ id, justification: i === 0 ? note : 'short' })) });
    };
    const bm25 = keywordRetriever('bm25');
    await runExperiment({
      lexcaseSystem: 'case',
      runDir,
      system: createCase({ k: 2 }),
      items: [QUESTION],
      gold: (q) => q.answer,
      makeContext: (_q, { seed }) => ({
        seed,
        tools: [searchTool('bm25_search', bm25)],
        retrievers: { bm25 },
        llm: new FakeChatModel(script),
        getPassage: getPassageFrom(PASSAGES),
        options: {},
      }),
      config: { system: 'case', mode: 'llm' },
      seed: 13,
    });
    const run = await readRun(runDir);
    const advocates = (run.traces.get(QUESTION.id) as { advocates: { evidence: { noteCutFrom?: number }[] }[] }).advocates;
    const cut = advocates.flatMap((a) => a.evidence).filter((e) => e.noteCutFrom === 450).length;
    const notes = advocates.flatMap((a) => a.evidence).length;
    expect(cut).toBe(4); // one per advocate: what the explorer's trace view marks "note cut"
    const s = (await buildReport(run, { iterations: 50 })).sections.find((x) => x.id === 'case')!;
    expect(s.markdown).toContain(`**${cut} of ${notes} advocates' notes** (in 1 of 1 items) **were cut to their first 300 characters**`);
  });
});
