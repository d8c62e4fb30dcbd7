/**
 * `run case`, `run baseline` and `run mad` over an index that holds none (or only some) of the gold
 * passages: the run goes on (its accuracy is valid), but its gold-evidence figures are never a silent
 * 0%. Over an index without any gold passage each gold row reads "— (no gold passage in this index)"
 * — in the command's output, report.md (the system's section, Figures, Per-item metrics) and the
 * figures the explorer shows — and a warning says why; over an index with some, the rows are figures
 * and a warning says how many items count as misses. Each item records `goldInIndex`, report.json
 * the count.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readResults } from '../../eval/run-dir.js';
import { headlineFigures } from '../../eval/systems.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { buildSmallBarexamIndex } from '../../tests/support/small-barexam-index.js';
import { FakeChatModel } from '../../tests/support/fake-chat-model.js';
import { runCaseExperiment } from '../case/experiment.js';
import { runMadExperiment } from '../mad/experiment.js';
// the system list: each system's report section and headline figures, as the CLI and the explorer load it
import '../systems.js';

const NO_GOLD = '— (no gold passage in this index)';
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A markdown table row: the cells, any padding. */
const row = (...cells: (string | number)[]) => new RegExp(`\\| ${cells.map((c) => esc(String(c))).join(' +\\| +')} +\\|`);

let dir: string;
/** 150 legal-corpus passages: none of the Bar Exam QA gold passages. */
let noGold: string;
/** The same plus the gold passages of the first 2 val questions. */
let someGold: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-gold-in-index-'));
  noGold = join(dir, 'idx-no-gold');
  someGold = join(dir, 'idx-some-gold');
  await buildSmallBarexamIndex(noGold, { items: 0 });
  await buildSmallBarexamIndex(someGold, { items: 2 });
}, 120_000);
afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

const report = (runDir: string) => readFileSync(join(runDir, 'report.md'), 'utf8');
const reportJson = (runDir: string) => JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8'));
const section = (md: string, title: string) => md.split(/\n(?=## )/).find((s) => s.startsWith(`## ${title}`)) ?? '';
const goldFlags = async (runDir: string) => (await readResults(runDir)).records.map((r) => r.metrics?.goldInIndex);

describe('gold-evidence figures over an index without the gold passages', () => {
  it('run case: no gold passage in the index — the gold rows are "—" with a warning on every surface, never 0%', async () => {
    const runDir = join(dir, 'case-no-gold');
    const r = await runCaseExperiment({ system: 'case', offline: true, evidence: 'plan', dataset: 'barexam', split: 'val', index: noGold, limit: 3, runDir });
    expect(r.ran).toBe(3);
    for (const label of ["gold in correct hypothesis's evidence", "gold in any advocate's evidence", 'gold ever returned by a tool call'])
      expect(r.markdown).toMatch(row(label, NO_GOLD));
    expect(r.markdown).not.toMatch(/gold[^|]*\| 0\.0%/);
    expect(r.markdown).toContain('**Warning:** none of the 3 items has its gold passage in this index');
    expect(r.metrics.evidenceRecall.goldInAnyEvidence).toMatchObject({ n: 3, rate: null, text: NO_GOLD });
    expect(await goldFlags(runDir)).toEqual([false, false, false]);

    const md = report(runDir);
    expect(section(md, 'CASE metrics')).toMatch(row("gold in any advocate's evidence", NO_GOLD));
    // one wording: report.md's Figures row reads as the CASE metrics row and the CLI's table (before: "gold passage in evidence")
    expect(section(md, 'Figures')).toMatch(row("gold in any advocate's evidence", 3, NO_GOLD));
    expect(md).not.toContain('gold passage in evidence');
    // the per-item table names each row's figure between the metric and its n
    expect(section(md, 'Per-item metrics')).toMatch(new RegExp(`\\| goldInAnyEvidence +\\| [^|]+\\| +3 +\\| +${esc(NO_GOLD)} +\\|`));
    // goldInIndex 0.0% is the share of items whose gold passage is in the index: the record, not a gold figure
    expect(md).not.toMatch(/gold(?!InIndex)[^|\n]*\|[^|\n]*\| +0\.0%/i);
    expect(reportJson(runDir).sections.case.goldInIndex).toEqual({
      items: 3,
      missing: 3,
      examples: expect.any(Array),
    });

    // the explorer's run summary figures (headlineFigures, as web/server/run-summary-api.ts computes them)
    const gold = headlineFigures('case', (await readResults(runDir)).records, { config: {} }).find((f) => f.id === 'gold-in-evidence');
    expect(gold).toMatchObject({ estimate: null, text: NO_GOLD, n: 3 });
  }, 120_000);

  it('run case: some gold passages missing — the gold rows are figures, and a warning says how many items count as misses', async () => {
    const runDir = join(dir, 'case-some-gold');
    const r = await runCaseExperiment({ system: 'case', offline: true, evidence: 'plan', dataset: 'barexam', split: 'val', index: someGold, limit: 4, runDir });
    expect(await goldFlags(runDir)).toEqual([true, true, false, false]);
    expect(r.metrics.goldInIndex).toMatchObject({ items: 4, missing: 2 });
    expect(r.metrics.evidenceRecall.goldEverReturned.rate).not.toBeNull();
    expect(r.markdown).toMatch(/\*\*Warning:\*\* 2 of 4 items have no gold passage in this index \(e\.g\. [^)]+\): the gold figures count them as misses\./);
    const md = report(runDir);
    expect(section(md, 'CASE metrics')).toContain('2 of 4 items have no gold passage in this index');
    expect(section(md, 'Figures')).toContain("gold in any advocate's evidence: 2 of 4 items have no gold passage in this index");
  }, 120_000);

  it('run baseline bm25-rag: "gold in the prompt context" is "—" over an index without gold passages', async () => {
    const runDir = join(dir, 'baseline-no-gold');
    const llm = new FakeChatModel(() => '{"reasoning":"r","answer":"B"}');
    const r = await runCaseExperiment({ system: 'baseline', mode: 'bm25-rag', llm, dataset: 'barexam', split: 'val', index: noGold, limit: 3, runDir });
    expect(r.markdown).toMatch(row('gold in the prompt context (RAG)', NO_GOLD));
    expect(r.markdown).toContain('**Warning:** none of the 3 items has its gold passage in this index');
    expect(section(report(runDir), 'CASE metrics')).toContain(NO_GOLD);
  }, 120_000);

  it('run mad: "gold passage cited" and "in the evidence" are "—" over an index without gold passages', async () => {
    const runDir = join(dir, 'mad-no-gold');
    const llm = new FakeChatModel(() => JSON.stringify({ reasoning: 'r', answer: 'B', claims: [{ text: 'A rule applies', cites: ['P1'] }] }));
    const r = await runMadExperiment({ system: 'single-rag', llm, dataset: 'barexam', split: 'val', index: noGold, limit: 3, runDir });
    expect(r.ran).toBe(3);
    expect(r.markdown).toMatch(row('gold passage cited', NO_GOLD, 3));
    expect(r.markdown).toMatch(row('gold passage in the evidence', NO_GOLD, 3));
    expect(r.markdown).toContain('**Warning:** none of the 3 items has its gold passage in this index');
    expect(r.metrics.citations.goldCited).toMatchObject({ mean: null, n: 3 });
    expect(await goldFlags(runDir)).toEqual([false, false, false]);
  }, 120_000);
});
