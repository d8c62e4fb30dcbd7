/**
 * One naming scheme for the systems' variants (issue 39): a new run records `<id>/<variant>`
 * (`acal/cot`, `baseline/llm-only`), and a run dir an older version wrote (`acal`, `acal-cot`,
 * `baseline` + `mode`) still opens everywhere a run is read — its report and its system's section,
 * the explorer's runs list (the CASE views for a baseline) and headline figures, compare — and is
 * resumed or replayed by the command that runs that variant today.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import '../agents/systems.js';
import { canonicalSystem, recordedTraceKind, systemSpec } from '../eval/systems.js';
import { writeReport } from '../eval/report/write-report.js';
import { compareRuns } from '../eval/report/compare.js';
import { runExperiment } from '../eval/runner.js';
import type { AgentSystem } from '../eval/types.js';
import { listRuns } from '../web/server/runs.js';
import { runSummary } from '../web/server/run-summary-api.js';

let root: string;

/** A run dir as lexcase writes it: config.json, results.jsonl and a trace per item (ten Yes/No items, 7 right). */
function writeRun(name: string, config: Record<string, unknown>): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'traces'), { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ seed: 13, config, provenance: {} }));
  const lines: string[] = [];
  for (let i = 0; i < 10; i++) {
    const gold = i % 2 ? 'Yes' : 'No';
    const prediction = i < 7 ? gold : gold === 'Yes' ? 'No' : 'Yes';
    const rec = { id: `hearsay-test-${i}`, prediction, gold, correct: prediction === gold, ms: 1, metrics: { converged: true } };
    lines.push(JSON.stringify(rec));
    const runner = {
      prediction,
      gold,
      correct: prediction === gold,
      seed: 13,
      ms: 1,
      tokens: { input: 0, output: 0, total: 0, calls: 0, cached: 0 },
      toolCalls: [],
    };
    writeFileSync(join(dir, 'traces', `${rec.id}.json`), JSON.stringify({ id: rec.id, system: 'cot', raw: prediction, runner }));
  }
  writeFileSync(join(dir, 'results.jsonl'), lines.join('\n') + '\n');
  return dir;
}

const acalConfig = (system: string) => ({ system, task: 'hearsay', split: 'test', limit: 10, k: 5, index: null, tools: [] });
const baselineConfig = (system: string) => ({ system, mode: 'llm-only', k: 0, dataset: 'barexam', split: 'val', limit: 10 });

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'system-names-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('one naming scheme: <id>/<variant>', () => {
  it('gives an older run name as the variant it meant, and leaves a new name or a system without variants as it is', () => {
    expect(canonicalSystem({ system: 'acal' })).toBe('acal/acal');
    expect(canonicalSystem({ system: 'acal-cot' })).toBe('acal/cot');
    expect(canonicalSystem({ system: 'acal/rag' })).toBe('acal/rag');
    expect(canonicalSystem({ system: 'baseline', mode: 'bm25-rag' })).toBe('baseline/bm25-rag');
    expect(canonicalSystem({ system: 'baseline/llm-only', mode: 'llm-only' })).toBe('baseline/llm-only');
    expect(canonicalSystem({ system: 'mad/self-consistency' })).toBe('mad/self-consistency');
    expect(canonicalSystem({ system: 'case', mode: 'llm' })).toBe('case');
    expect(canonicalSystem({ system: 'emar' })).toBe('emar');
    expect(canonicalSystem({ system: 'my-own' })).toBe('my-own');
    expect(canonicalSystem({})).toBeNull();
    // old and new names are one system, with one trace view (as a run of that system records it)
    const kindOf = (system: string) => recordedTraceKind({ config: { system }, provenance: { lexcaseSystem: systemSpec(system).id } });
    for (const s of ['baseline', 'baseline/llm-only']) expect([systemSpec(s).id, kindOf(s)]).toEqual(['baseline', 'baseline']);
    for (const s of ['acal-cot', 'acal/cot', 'acal', 'acal/acal']) expect([systemSpec(s).id, kindOf(s)]).toEqual(['acal', 'acal']);
  });
});

describe('an old run dir (acal, acal-cot, baseline + mode) still opens', () => {
  it("gets its system's report section: ACAL's decisions for an old `acal` run as for a new `acal/acal` one", async () => {
    for (const [name, system] of [
      ['old-acal', 'acal'],
      ['new-acal', 'acal/acal'],
    ]) {
      const dir = writeRun(name, { ...acalConfig(system), semantics: 'quadratic' });
      await writeReport(dir, { iterations: 50 });
      const md = readFileSync(join(dir, 'report.md'), 'utf8');
      expect(md).toContain('ACAL metrics (LegalBench, labels Yes/No; semantics quadratic)');
      expect(md).toMatch(/Decisions over the 10 answered items: \d+ of 10 claim strengths/);
    }
    for (const [name, system] of [
      ['old-cot', 'acal-cot'],
      ['new-cot', 'acal/cot'],
    ]) {
      const dir = writeRun(name, acalConfig(system));
      await writeReport(dir, { iterations: 50 });
      const md = readFileSync(join(dir, 'report.md'), 'utf8');
      expect(md).toContain('ACAL metrics (LegalBench, labels Yes/No)\n');
      expect(md).not.toMatch(/Decisions (over|:)/); // a baseline has no argument graph
    }
    const old = writeRun('old-baseline', baselineConfig('baseline'));
    await writeReport(old, { iterations: 50 });
    expect(readFileSync(join(old, 'report.md'), 'utf8')).toMatch(/CASE metrics/);
  });

  it('is listed for the CASE views (a baseline, old or new name) with its headline figures, and compares with a new run', async () => {
    writeRun('new-baseline', baselineConfig('baseline/llm-only'));
    const runs = await listRuns(root);
    const byId = new Map(runs.map((r) => [r.id, r]));
    expect(byId.get('old-baseline')?.kind).toBe('case');
    expect(byId.get('new-baseline')?.kind).toBe('case');
    for (const id of ['old-cot', 'new-cot']) {
      const s = await runSummary(byId.get(id)!);
      expect(s.systemName).toBe('ACAL');
      // ACAL's headline: macro-F1, accuracy (7 of 10), convergence
      expect(s.figures.map((f) => [f.id, f.estimate])).toEqual([
        ['macro-f1', expect.any(Number)],
        ['accuracy', 0.7],
        ['convergence', 1],
      ]);
    }
    const c = await compareRuns(join(root, 'old-cot'), join(root, 'new-cot'), { iterations: 50 });
    expect(c.measures.find((m) => m.id === 'accuracy')).toMatchObject({ n: 10 });
  });

  it('is resumed by the run that names its variant today (acal-cot → acal/cot); another variant is refused', async () => {
    const dir = writeRun('resume-cot', acalConfig('acal-cot'));
    const items = Array.from({ length: 10 }, (_, i) => ({ id: `hearsay-test-${i}`, label: i % 2 ? 'Yes' : 'No' }));
    const system: AgentSystem<{ id: string; label: string }> = async (x) => ({ prediction: x.label, trace: {} });
    const makeContext = () => ({ seed: 13, tools: [], retrievers: {}, getPassage: async () => undefined, options: {} });
    const base = { runDir: dir, system, items, gold: (x: { label: string }) => x.label, makeContext, seed: 13 };
    const r = await runExperiment({ ...base, config: acalConfig('acal/cot') });
    expect([r.skipped, r.ran]).toEqual([10, 0]);
    await expect(runExperiment({ ...base, config: acalConfig('acal/sp') })).rejects.toThrow(/field "system" differs/);
  });
});
