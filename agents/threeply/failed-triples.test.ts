/**
 * A failed 3-ply triple (a request refused with HTTP 400, an Analyst reply that cannot be parsed)
 * produced no argument: it is no abstention and adds nothing to N_h, N_util or N_gt. Every surface —
 * the run's own table (`lexcase run threeply --json`), report.md's 3-ply section and Figures,
 * report.json, the explorer's run summary — leaves it out of n and of the figures and counts it
 * beside, so they all give the same abstention and hallucination figures; with every triple failed
 * no figure has a value (none is 100%), each says it is over no items.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { programWith, runCli } from '../../tests/support/run-cli.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer, type ScriptReply } from '../../tests/support/scripted-openai-server.js';
import { register } from '../../src/cli/commands/run-plugins.js';
import { runSummary } from '../../web/server/run-summary-api.js';
import { listRuns } from '../../web/server/runs.js';
import { jsonReply, plyOf, rulesScript, threeplyRole } from './test-support/scripted-threeply.js';

type Fate = 'refused' | 'unparseable' | 'argues' | 'upper-keys';

/**
 * The rule-following team, except that the triple at position i (run order, concurrency 1: the
 * Plaintiff's first draft starts a triple) meets `fates[i]`: every request refused (HTTP 400), an
 * unparseable Factor Analyst, an Analyst that never abstains, or a Distiller that writes its lists
 * under C1/C2/C3. The Distiller always adds one
 * factor the argument invents for c1 ("F99"), so answered arguments carry hallucinations.
 */
function auditScript(fates: Record<number, Fate>, everything?: Fate): (r: RecordedRequest) => ScriptReply {
  const rules = rulesScript();
  let triple = -1;
  return (r) => {
    const role = threeplyRole(r);
    if (role === 'developer' && plyOf(r) === "Plaintiff's Argument") triple++;
    const fate = everything ?? fates[triple];
    if (fate === 'refused') return { status: 400, error: 'audit: bad request' };
    if (role === 'analyst' && fate === 'unparseable') return { content: 'I cannot answer in JSON today.' };
    if (role === 'analyst' && fate === 'argues') return jsonReply({ summary: 'argue anyway', analysis_outcome: 'VALID_ARGUMENT' });
    const reply = rules(r);
    if (role !== 'distiller' || !reply.content) return reply;
    const lists = JSON.parse(reply.content) as { c1: string[]; c2: string[]; c3: string[] };
    // the Distiller's lists under keys the schema does not name (C1, C2, C3)
    if (fate === 'upper-keys') return jsonReply({ C1: [...lists.c1, 'F99'], C2: lists.c2, C3: lists.c3 });
    return jsonReply({ ...lists, c1: [...lists.c1, 'F99'] });
  };
}

interface Rec {
  id: string;
  prediction: string | null;
  gold: string;
  error?: string;
  metrics?: Record<string, number | boolean>;
}

const readResults = (runDir: string): Rec[] =>
  readFileSync(join(runDir, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

const failed = (r: Rec) => r.error !== undefined || r.prediction === null;

/** The paper's measures over the answered triples of `rs`, from the records themselves. */
function expected(rs: Rec[]) {
  const ok = rs.filter((r) => !failed(r));
  const sum = (k: string) => ok.reduce((a, r) => a + Number(r.metrics![k]), 0);
  return {
    n: ok.length,
    failed: rs.length - ok.length,
    hallucinationAccuracy: 1 - sum('nH') / sum('nGt'),
    abstention: ok.filter((r) => r.prediction === 'abstain').length / ok.length,
  };
}

let dir: string;
let srv: ScriptedServer;
const cli = (...args: string[]) => runCli(args, programWith(register));

async function run(name: string, script: (r: RecordedRequest) => ScriptReply) {
  srv = await startScriptedServer(script);
  Object.assign(process.env, { LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'scripted', LEXCASE_LLM_MAX_RETRIES: '0' });
  const runDir = join(dir, name);
  const r = await cli(
    '--json',
    'run',
    'threeply',
    '--scenarios',
    'arguable,mismatched,non-arguable',
    '--n',
    '3',
    '--seed',
    '5',
    '--run-dir',
    runDir,
    '--no-cache',
  );
  await srv.close();
  const summary = await runSummary((await listRuns(dir)).find((x) => x.id === name)!);
  return {
    r,
    runDir,
    records: readResults(runDir),
    md: readFileSync(join(runDir, 'report.md'), 'utf8'),
    report: JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8')),
    explorer: summary,
  };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'threeply-failed-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('failed 3-ply triples are left out of every figure, on every surface', () => {
  it('some triples fail, some abstain: run table, report.md, report.json and the explorer give the answered triples’ figures and the failed counts', async () => {
    // arguable: 001 answers, 002 refused, 003 answers; mismatched: 001 unparseable, 002 abstains,
    // 003 argues; non-arguable: 001, 002 refused, 003 abstains
    const out = await run('mixed', auditScript({ 1: 'refused', 3: 'unparseable', 5: 'argues', 6: 'refused', 7: 'refused' }));
    expect(out.r.code, out.r.err).toBe(0);
    const byMode = (m: string) => out.records.filter((r) => r.id.startsWith(`${m}-`));
    expect(out.records.filter(failed).map((r) => r.id)).toEqual(['arguable-002', 'mismatched-001', 'non-arguable-001', 'non-arguable-002']);
    expect(byMode('mismatched').map((r) => r.prediction)).toEqual([null, 'abstain', 'argue']);
    // every failure keeps its code (before: the message alone, grouped as OTHER)
    expect(out.report.sections.failures.byCode).toEqual({ LLM_REQUEST_FAILED: 3, LLM_OUTPUT_INVALID: 1 });

    // per scenario: the run's own table (--json), report.json's 3-ply section, report.md's rows
    const table = JSON.parse(out.r.out).scenarios;
    expect(out.report.sections.threeply.scenarios).toEqual(table);
    for (const mode of ['arguable', 'mismatched', 'non-arguable']) {
      const e = expected(byMode(mode));
      const row = table.find((s: { mode: string }) => s.mode === mode);
      expect([mode, row.n, row.errors]).toEqual([mode, e.n, e.failed]);
      expect(row.hallucinationAccuracy).toBeCloseTo(e.hallucinationAccuracy, 12);
      expect(row.abstentionRatio).toBeCloseTo(e.abstention, 12);
      const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
      const line = out.md.split('\n').find((l) => new RegExp(`^\\| reflective +\\| ${mode} +\\|`).test(l))!;
      expect(line.split('|').map((c) => c.trim())).toEqual([
        '',
        'reflective',
        mode,
        String(e.n),
        expect.stringMatching(new RegExp(`^${pct(e.hallucinationAccuracy).replace('.', '\\.')} `)),
        expect.any(String),
        expect.stringMatching(new RegExp(`^${pct(e.abstention).replace('.', '\\.')} `)),
        String(e.failed),
        '',
      ]);
    }
    // the answered arguments did hallucinate, so leaving a failed triple's N_gt in would raise the figure
    expect(expected(byMode('arguable')).hallucinationAccuracy).toBeLessThan(1);

    // headline figures (over the whole run): report.json = report.md's Figures = the explorer
    const all = expected(out.records);
    const designed = expected(out.records.filter((r) => r.gold === 'abstain'));
    const figs = Object.fromEntries(out.report.sections.figures.figures.map((f: { id: string }) => [f.id, f]));
    expect(figs['hallucination-accuracy']).toMatchObject({ n: all.n, failed: all.failed });
    expect(figs['hallucination-accuracy'].estimate).toBeCloseTo(all.hallucinationAccuracy, 12);
    expect(figs.abstention).toMatchObject({ n: designed.n, failed: designed.failed });
    expect(figs.abstention.estimate).toBeCloseTo(designed.abstention, 12);
    expect(out.explorer.figures).toEqual(out.report.sections.figures.figures);
    const mdRow = (label: string) =>
      out.md
        .split('\n')
        .find((l) => l.startsWith(`| ${label} `))!
        .split('|')
        .map((c) => c.trim())
        .slice(1, -2);
    expect(mdRow('successful abstention')).toEqual(['successful abstention', String(designed.n), String(designed.failed), figs.abstention.text]);
    expect(mdRow('hallucination accuracy')).toEqual(['hallucination accuracy', String(all.n), String(all.failed), figs['hallucination-accuracy'].text]);
  });

  it('every triple fails: no figure has a value — none is 100% — and each says it is over no items', async () => {
    const out = await run('all-failed', auditScript({}, 'refused'));
    expect(out.records.length).toBe(9);
    expect(out.records.every(failed)).toBe(true);
    const table = out.report.sections.threeply.scenarios;
    expect(table.map((s: Record<string, unknown>) => [s.mode, s.n, s.errors, s.hallucinationAccuracy, s.factorUtilizationRecall, s.abstentionRatio])).toEqual([
      ['arguable', 0, 3, null, null, null],
      ['mismatched', 0, 3, null, null, null],
      ['non-arguable', 0, 3, null, null, null],
    ]);
    const figures = out.report.sections.figures.figures;
    expect(figures.map((f: { id: string }) => f.id)).toEqual(['hallucination-accuracy', 'factor-utilization-recall', 'abstention']);
    for (const f of figures) expect(f).toMatchObject({ n: 0, estimate: null, text: '– (no items)' });
    expect(figures.map((f: { failed: number }) => f.failed)).toEqual([9, 9, 6]);
    expect(out.explorer.figures).toEqual(figures);
    expect(out.md).not.toMatch(/100\.0%/);
    expect(out.md).toMatch(/\| reflective +\| non-arguable +\| +0 \| +– \(no items\) \|/);
  });

  it('a Distiller reply without c1/c2/c3 (its lists under C1/C2/C3) fails the triple — it was read as "no factors": 100% hallucination accuracy, 0% recall', async () => {
    const out = await run('upper-keys', auditScript({}, 'upper-keys'));
    expect(out.r.code, out.r.err).toBe(0);
    expect(out.records.length).toBe(9);
    // every triple the Distiller was asked of fails; the Analyst's abstentions before it are answered
    const distilled = out.records.filter((r) => r.prediction !== 'abstain');
    expect(distilled.length).toBeGreaterThan(0);
    expect(distilled.every(failed)).toBe(true);
    expect(out.report.sections.failures.byCode).toEqual({ LLM_OUTPUT_INVALID: distilled.length });
    const figs = Object.fromEntries(out.report.sections.figures.figures.map((f: { id: string }) => [f.id, f]));
    // left out of n and counted as failed (before: in n with N_h = N_util = 0, "no hallucination")
    expect(figs['hallucination-accuracy']).toMatchObject({ n: out.records.length - distilled.length, failed: distilled.length });
    expect(figs['factor-utilization-recall']).toMatchObject({ n: out.records.length - distilled.length, failed: distilled.length });
  });
});
