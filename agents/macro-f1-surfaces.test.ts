/**
 * One macro-F1 per run, on every surface: the headline figure (report.md "Figures", the explorer,
 * the /v1 API all print `headlineFigures`), the system's own run table and report section (EMAR,
 * ACAL) and the reproduction table (`reproduce … table.md`), all over the task's label set fixed
 * before resampling (eval/metrics/macro.ts). Before, three rules gave one run two values: EMAR's
 * headline took the labels seen in each resample (hearsay, 1 item: 100.0%) while its run table and
 * report section took Yes/No (50.00); the reproduction tables took the labels of the sample (ACAL,
 * 1 item: 100.00 beside 50.0% in report.md); at n = 12 the intervals differed (21.97 [5.56, 35.90]
 * vs 22.0% [5.6, 37.0]).
 *
 * Expected values recomputed with scikit-learn 1.2.1 (python3):
 *   f1_score(['Yes'], ['Yes'], average='macro', labels=['Yes', 'No'], zero_division=0)   → 0.5
 *   g = 'C B C C C C C D C B C B'.split(); p = 'D B D C C A A B B A C A'.split()
 *   f1_score(g, p, average='macro', labels=list('ABCD'), zero_division=0)                 → 0.21969696969696967
 *   the 9 of them with no D in gold or prediction (mbe_137, mbe_222, mbe_855 left out):
 *   f1_score(g9, p9, average='macro', labels=list('ABCD'), zero_division=0)               → 0.26666666666666666
 *   f1_score(g9, p9, average='macro', zero_division=0)  (labels seen: A, B, C)             → 0.35555555555555557
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import './systems.js'; // the agent systems' list, handed to eval
import { buildReport } from '../eval/report/write-report.js';
import { readRun } from '../eval/report/read-run.js';
import { loadRecipe } from '../eval/reproduce/recipe.js';
import { runDirOf } from '../eval/reproduce/reproduction-dir.js';
import { buildTable } from '../eval/reproduce/table.js';
import { headlineFigures } from '../eval/systems.js';
import type { ResultRecord } from '../eval/types.js';
import { acalMetrics } from './acal/metrics.js';
import { emarLabels } from './emar/cases.js';
import { emarSummaryMarkdown, summarizeEmarRun } from './emar/metrics.js';
import { loadLegalBenchTask } from '../corpora/legalbench.js';
import { macroF1Paired } from '../eval/metrics/macro-paired.js';
import { metricsTable } from './acal/metrics.js';
import { compareRuns, formatComparison } from '../eval/report/compare.js';
import { compareManyRuns } from '../web/server/compare-runs-api.js';
import { findRun } from '../web/server/runs.js';

const dir = mkdtempSync(join(tmpdir(), 'macro-f1-surfaces-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const rec = (id: string, prediction: string | null, gold: string): ResultRecord => ({ id, prediction, gold, correct: prediction === gold, ms: 5 });

/** A run dir as `lexcase run` leaves it: config.json and results.jsonl. */
function writeRun(d: string, config: Record<string, unknown>, records: ResultRecord[]) {
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, 'config.json'), JSON.stringify({ seed: 13, config, provenance: { createdAt: '2026-01-01T00:00:00.000Z' } }));
  writeFileSync(join(d, 'results.jsonl'), records.map((r) => JSON.stringify(r)).join('\n') + '\n');
}

/** Every surface's macro-F1 of one run (the reproduction table's cell in the paper's scale /100). */
async function surfaces(recipeId: string, runId: string, system: string, config: Record<string, unknown>, records: ResultRecord[]) {
  const reproDir = join(dir, `${recipeId}-${runId}`);
  const runDir = runDirOf(reproDir, runId);
  writeRun(runDir, config, records);
  const { recipe } = loadRecipe(recipeId);
  const table = await buildTable(reproDir, recipe, { limit: records.length, shard: null, runs: [{ id: runId, system, status: 'done' }] });
  const cell = table.rows.flatMap((r) => r.cells).find((c) => c.run === runId && /F1/.test(c.column))!;
  const report = await buildReport(await readRun(runDir));
  const figures = (report.json.sections.figures as { figures: { id: string; estimate: number; lo: number | null; hi: number | null; text: string }[] }).figures;
  const headline = figures.find((f) => f.id === 'macro-f1')!;
  return { cell, headline, sections: report.json.sections, markdown: report.markdown };
}

describe('macro-F1: one rule on every surface', () => {
  it('EMAR hearsay, 1 item answered Yes correctly: 50% (F1 of Yes 1, of No 0) in the headline, run table, EMAR section and reproduction table', async () => {
    const records = [rec('hearsay_test_0', 'Yes', 'Yes')];
    const config = { system: 'emar', dataset: 'hearsay', split: 'test' };
    const s = await surfaces('emar-table4', 'emar-hearsay', 'emar', config, records);
    expect(s.headline.estimate).toBeCloseTo(0.5, 12); // before: 1 (report.md Figures, explorer, /v1: 100.0%)
    expect(s.headline.text).toBe('50.0% (n < 10)');
    expect((s.sections.emar as { macroF1: number }).macroF1).toBeCloseTo(0.5, 12);
    expect(summarizeEmarRun(records, { labels: emarLabels('hearsay') }).macroF1).toBeCloseTo(0.5, 12); // the run table
    expect(s.cell.value).toBe(50); // before: 100.00
    expect(headlineFigures('emar', records, { config }).find((f) => f.id === 'macro-f1')!.note).toBe(
      "mean F1 over the labels Yes, No; no gold item has the label No among the 1 item scored: its F1 is 0 whatever the predictions (scikit-learn's zero_division=0), so macro-F1 is at most 50.0% here, which a model right on every item reads",
    );
  });

  it('ACAL, 1 item answered correctly: 50% in the headline, acal section (acal-report.md) and reproduction table', async () => {
    const records = [rec('hearsay_test_0', 'Yes', 'Yes')];
    const s = await surfaces('acal-table4', 'acal-cr1-uae1', 'acal', { system: 'acal/acal', task: 'hearsay', semantics: 'quadratic' }, records);
    expect(s.headline.estimate).toBeCloseTo(0.5, 12);
    expect((s.sections.acal as { macroF1: { estimate: number } }).macroF1.estimate).toBeCloseTo(0.5, 12);
    expect(acalMetrics(records).macroF1.estimate).toBeCloseTo(0.5, 12);
    expect(s.cell.value).toBe(50); // before: 100.00 (and Prec/Rec 100.00)
    const prec = (
      await buildTable(join(dir, 'acal-table4-acal-cr1-uae1'), loadRecipe('acal-table4').recipe, {
        limit: 1,
        shard: null,
        runs: [{ id: 'acal-cr1-uae1', system: 'acal', status: 'done' }],
      })
    ).rows
      .flatMap((r) => r.cells)
      .find((c) => c.run === 'acal-cr1-uae1' && c.column === 'Prec')!;
    expect(prec.value).toBe(50); // Yes: P 1; No: 0/0 → 0
  });

  // the audit's 12 Bar Exam val items (reproduce emar-table4 --limit 12 --only emar-barexam)
  const golds = 'C B C C C C C D C B C B'.split(' ');
  const preds = 'D B D C C A A B B A C A'.split(' ');
  const ids = ['mbe_137', 'mbe_581', 'mbe_222', 'mbe_682', 'mbe_847', 'mbe_1030', 'mbe_866', 'mbe_855', 'mbe_1177', 'mbe_973', 'mbe_157', 'mbe_224'];
  const barexam = ids.map((id, i) => rec(id, preds[i], golds[i]));
  const config = { system: 'emar', dataset: 'barexam', split: 'val' };

  it('EMAR Bar Exam, 12 items: the headline and the reproduction table give the same estimate and the same interval', async () => {
    const s = await surfaces('emar-table4', 'emar-barexam', 'emar', config, barexam);
    expect(s.headline.estimate).toBeCloseTo(0.21969696969696967, 12);
    expect(s.cell.value).toBe(21.97);
    // one interval: the table's (2 decimals) is the headline's (before: [5.56, 35.90] vs [5.6, 37.0])
    expect(s.cell.ci).toEqual([Number((s.headline.lo! * 100).toFixed(2)), Number((s.headline.hi! * 100).toFixed(2))]);
    expect((s.sections.emar as { macroF1: number }).macroF1).toBeCloseTo(0.21969696969696967, 12);
    expect(s.markdown).toContain('macro-F1: mean F1 over the labels A, B, C, D');
  });

  it("EMAR Bar Exam, 12 items: the run table and report.md's EMAR section print macro-F1 as the headline does (22.0% [5.6, 35.9]; before 21.97 beside 22.0%, then 22.0% with no interval)", async () => {
    const s = await surfaces('emar-table4', 'emar-barexam-text', 'emar', config, barexam);
    const value = s.headline.text.split(' ')[0];
    expect(value).toBe('22.0%');
    // with the headline's bootstrap interval (seed 13, 2,000 resamples), as it prints it
    const withCi = `${value} [${(100 * s.headline.lo!).toFixed(1)}, ${(100 * s.headline.hi!).toFixed(1)}]`;
    expect(withCi).toBe('22.0% [5.6, 35.9]');
    const runTable = emarSummaryMarkdown('barexam/val', summarizeEmarRun(barexam, { labels: emarLabels('barexam') }));
    // the row: dataset, n, accuracy [Wilson], macro-F1, micro-F1 (= accuracy: no item failed), mean depth, converged, parties agree, failed
    const row = (md: string) => md.split('\n').find((l) => l.startsWith('| barexam/val'))!;
    for (const md of [runTable, s.markdown])
      expect(
        row(md)
          .split('|')
          .map((c) => c.trim())[4],
      ).toBe(withCi);
    expect(row(runTable)).toMatch(/^\| barexam\/val +\| +12 \| +33\.3% \[13\.8, 60\.9\] \| +22\.0% \[5\.6, 35\.9\] +\| +33\.3% +\|/);
  });

  it('EMAR Bar Exam with no D in the sample: every surface averages over A–D (sklearn labels=ABCD), not the 3 letters seen', async () => {
    const nine = barexam.filter((r) => !['mbe_137', 'mbe_222', 'mbe_855'].includes(r.id));
    const s = await surfaces('emar-table4', 'emar-barexam', 'emar', config, nine);
    expect(s.headline.estimate).toBeCloseTo(0.26666666666666666, 12); // over A, B, C only: 0.356
    expect((s.sections.emar as { macroF1: number }).macroF1).toBeCloseTo(0.26666666666666666, 12);
    expect(s.cell.value).toBe(26.67);
  });

  // the bundled hearsay test split lists its "No" items first: `--limit 20` scores 20 "No" items, and a model
  // right on each reads macro-F1 50% (Yes: no gold item, F1 0) beside accuracy 100%. Before, no surface said why.
  it('hearsay --limit 20 (every gold "No"), answered right: each macro-F1 surface says the label Yes has no gold item and caps it at 50.0%', async () => {
    const first20 = (await loadLegalBenchTask('hearsay', { split: 'test' })).slice(0, 20);
    expect(new Set(first20.map((x) => x.label))).toEqual(new Set(['No']));
    const records = first20.map((x) => rec(x.id, x.label, x.label));
    const ceiling = /no gold item has the label Yes among the 20 items scored: its F1 is 0 whatever the predictions .*at most 50\.0% here/;
    const s = await surfaces('acal-table4', 'acal-cr1-uae1', 'acal', { system: 'acal/acal', task: 'hearsay', semantics: 'quadratic', limit: 20 }, records);
    expect(s.headline.estimate).toBeCloseTo(0.5, 12); // the number stays the rule's (scikit-learn's)
    expect((s.headline as unknown as { note: string }).note).toMatch(ceiling); // report.md Figures, the explorer, /v1
    // which 20: the split's first in file order (before, the Figures note, the explorer and /v1 did not say)
    const prefix = /at most 50\.0% here, which a model right on every item reads; `--limit 20` takes the first 20 items of the split in its file order$/;
    expect((s.headline as unknown as { note: string }).note).toMatch(prefix);
    expect(s.markdown).toMatch(
      /^macro-F1: mean F1 over the labels Yes, No; no gold item has the label Yes .*`--limit 20` takes the first 20 items of the split in its file order\.$/m,
    );
    expect(s.markdown).toMatch(
      /\*\*Macro figures of acal\/acal:\*\* no gold item has the label Yes .*; `--limit 20` takes the first 20 items of the split in its file order\./,
    );
    expect(metricsTable([{ name: 'sp', m: acalMetrics(records) }], { limit: 20 })).toMatch(ceiling); // the CLI's table, acal-report.md
    const table = await buildTable(join(dir, 'acal-table4-acal-cr1-uae1'), loadRecipe('acal-table4').recipe, {
      limit: 20,
      shard: null,
      runs: [{ id: 'acal-cr1-uae1', system: 'acal', status: 'done' }],
    });
    expect(table.notes.some((n) => /^Run acal-cr1-uae1's macro figures: no gold item has the label Yes/.test(n))).toBe(true);
    const emar = emarSummaryMarkdown('hearsay/test', summarizeEmarRun(records, { labels: emarLabels('hearsay') }), { limit: 20 });
    expect(emar).toMatch(ceiling);
    expect(emar).toMatch(/\*\*macro-F1:\*\* no gold item has the label Yes .*; `--limit 20` takes the first 20 items of the split in its file order\./); // EMAR's run table and section
    const emarRun = await surfaces('emar-table4', 'emar-hearsay', 'emar', { system: 'emar', dataset: 'hearsay', split: 'test', limit: 20 }, records);
    expect(emarRun.markdown).toMatch(
      /\*\*macro-F1:\*\* no gold item has the label Yes .*; `--limit 20` takes the first 20 items of the split in its file order\./,
    ); // report.md's EMAR section
    expect((emarRun.headline as unknown as { note: string }).note).toMatch(prefix);
    const paired = macroF1Paired(
      records.map((r) => [r, r] as const),
      { labels: ['Yes', 'No'] },
    );
    expect(paired.over).toMatch(ceiling); // compare's line under its table, and its --json
    // both labels among the first 60: no note anywhere
    const sixty = (await loadLegalBenchTask('hearsay', { split: 'test' })).slice(0, 60).map((x) => rec(x.id, x.label, x.label));
    expect(metricsTable([{ name: 'sp', m: acalMetrics(sixty) }], { limit: 60 })).not.toMatch(/no gold item/);
    expect(
      macroF1Paired(
        sixty.map((r) => [r, r] as const),
        { labels: ['Yes', 'No'] },
      ).over,
    ).toBeUndefined();
  });
  // `lexcase compare` of two `run acal --task hearsay --system sp --limit 20` runs and `lexcase reproduce … --limit 20`:
  // report.md said which 20 items; compare's ceiling line (and --json `over`) and the reproduction's note did not
  it("hearsay --limit 20: compare (text and --json `over`) and the reproduction table name the --limit prefix in report.md's words", async () => {
    const first20 = (await loadLegalBenchTask('hearsay', { split: 'test' })).slice(0, 20);
    const records = first20.map((x) => rec(x.id, x.label, x.label));
    const clause = '; `--limit 20` takes the first 20 items of the split in its file order';
    const config = { system: 'acal/sp', task: 'hearsay', split: 'test', limit: 20 };
    const [a, b] = [join(dir, 'cmp-a'), join(dir, 'cmp-b')];
    writeRun(a, config, records);
    writeRun(b, config, records);
    const c = await compareRuns(a, b);
    const macro = c.measures.find((m) => m.id === 'macro-f1')!;
    expect(macro.over).toMatch(/^no gold item has the label Yes among the 20 items scored: .*at most 50\.0% here, which a model right on every item reads/);
    expect(macro.over!.endsWith(clause)).toBe(true); // --json `over`; before: no clause
    expect(formatComparison(c)).toContain(`macro-F1: ${macro.over}.`); // the line under compare's table
    // the explorer's compare page for 2 to 8 runs (/api/compare/runs): the pair's macro-F1 says it too (before: no line)
    const many = await compareManyRuns([await findRun(dir, 'cmp-a'), await findRun(dir, 'cmp-b')]);
    expect(many.pairs[0]).toMatchObject({ measure: 'macro-F1', over: macro.over });
    // a run without --limit beside one with: the shared items lie in the shorter prefix, which is named
    writeRun(join(dir, 'cmp-c'), { ...config, limit: undefined }, records);
    const c2 = await compareRuns(a, join(dir, 'cmp-c'));
    expect(c2.measures.find((m) => m.id === 'macro-f1')!.over!.endsWith(clause)).toBe(true);
    // neither took --limit: no clause
    writeRun(join(dir, 'cmp-d'), { ...config, limit: undefined }, records);
    expect((await compareRuns(join(dir, 'cmp-c'), join(dir, 'cmp-d'))).measures.find((m) => m.id === 'macro-f1')!.over!).toMatch(
      /which a model right on every item reads$/,
    );
    const reproDir = join(dir, 'acal-table3-limit');
    writeRun(runDirOf(reproDir, 'sp-hearsay'), config, records);
    const table = await buildTable(reproDir, loadRecipe('acal-table3').recipe, {
      limit: 20,
      shard: null,
      runs: [{ id: 'sp-hearsay', system: 'acal', status: 'done' }],
    });
    const note = table.notes.find((n) => n.startsWith("Run sp-hearsay's macro figures: "))!;
    expect(note.endsWith(`which a model right on every item reads${clause}.`)).toBe(true); // before: "… reads."
  });
});
