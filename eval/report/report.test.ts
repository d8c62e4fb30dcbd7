import { linkSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';
import { recordUsage } from '../../core/llm/usage.js';
import { registerSecret } from '../../core/log.js';
import { recordToolCall } from '../../retrieval/tools/tool-recorder.js';
import { pairedBootstrap } from '../bootstrap.js';
import { wilsonCi } from '../wilson.js';
import { runExperiment } from '../runner.js';
import type { AgentSystem, SystemContext } from '../types.js';
import { compareRuns, formatComparison } from './compare.js';
import { readRun } from './read-run.js';
import { registerReportSection } from './registry.js';
import { writeReport } from './write-report.js';

interface Item {
  id: string;
  answer: string;
}
const ITEMS: Item[] = Array.from({ length: 20 }, (_, i) => ({ id: `q${String(i).padStart(2, '0')}`, answer: 'ABCD'[i % 4] }));
const ctx = (): SystemContext => ({ seed: 0, tools: [], retrievers: {}, getPassage: async () => undefined, options: {} });

/** Deterministic system: right on items where `right(i)`; confidence, metrics, tokens and tool calls by index. */
function scripted(right: (i: number) => boolean, opts: { failAt?: number[] } = {}): AgentSystem<Item> {
  return async (item) => {
    const i = Number(item.id.slice(1));
    if (opts.failAt?.includes(i)) throw new Error(`model returned garbage for ${item.id}`);
    recordUsage({ input: 100 + i, output: 10 });
    recordToolCall({ tool: 'bm25_search', input: { query: item.id }, ids: [`p${i}`, `p${i + 1}`], ms: 1 });
    if (i % 2 === 0) recordToolCall({ tool: 'qld_search', input: { query: item.id }, ids: [`p${i}`], ms: 1 });
    return {
      prediction: right(i) ? item.answer : 'A' === item.answer ? 'B' : 'A',
      confidence: i % 3 === 0 ? 'low' : 'high',
      trace: { advocates: [{ letter: 'A', toolCalls: [{ tool: 'dense_search', query: 'x', ids: ['z'] }] }] },
      metrics: { goldEverReturned: i % 4 !== 0, goldInAnyEvidence: i < 5 ? null : i % 2 === 0, evidenceCount: 3 },
    };
  };
}

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lexcase-report-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function makeRun(name: string, system: AgentSystem<Item>, items = ITEMS, config: Record<string, unknown> = { system: name }) {
  const dir = join(root, name);
  await runExperiment({ runDir: dir, system, items, gold: (q) => q.answer, makeContext: ctx, config, seed: 5 });
  return dir;
}

describe('writeReport', () => {
  it('reports accuracy with its Wilson interval, by confidence, per-item metrics, tool usage, tokens and failures', async () => {
    const right = (i: number) => i % 5 !== 0; // 16 of 20 right ... minus failures
    const dir = await makeRun('case', scripted(right, { failAt: [7] }));
    const report = await writeReport(dir, { iterations: 500 });
    const s = report.json.sections as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    // accuracy is a proportion: the Wilson interval of 15/20 (eval/stats), not a bootstrap
    const expected = wilsonCi(15, 20);
    expect(s.accuracy).toMatchObject({ n: 20, correct: 15, accuracy: 0.75, ci: { lo: expected.lo, hi: expected.hi, method: 'wilson' } });
    expect(s.accuracy.ci.lo).toBeLessThan(0.75);
    expect(s.accuracy.ci.hi).toBeGreaterThan(0.75);
    expect(s.accuracy.answered).toMatchObject({ n: 19 });
    // confidence: i%3==0 → low (0,3,6,9,12,15,18); item 7 failed (no confidence)
    expect(s.byConfidence.low.n).toBe(7);
    expect(s.byConfidence.high.n).toBe(12);
    // goldEverReturned: false for i%4==0 among the 19 answered items
    const ever = ITEMS.map((_, i) => i).filter((i) => i !== 7);
    expect(s.itemMetrics.goldEverReturned).toMatchObject({ kind: 'rate', n: 19, value: ever.filter((i) => i % 4 !== 0).length / 19 });
    expect(s.itemMetrics.goldInAnyEvidence.n).toBe(14); // nulls (i < 5) skipped, item 7 failed
    expect(s.itemMetrics.evidenceCount).toMatchObject({ kind: 'mean', value: 3 });
    expect(s.toolUsage.tools.bm25_search).toMatchObject({ calls: 19, items: 19 });
    expect(s.toolUsage.tools.qld_search.calls).toBe(10);
    expect(s.toolUsage.tools.dense_search).toBeUndefined(); // runner's record preferred over the walk
    expect(s.tokens).toMatchObject({ calls: 19, output: 190, input: ever.reduce((a, i) => a + 100 + i, 0) });
    expect(s.failures).toMatchObject({ count: 1, items: [{ id: 'q07', error: 'model returned garbage for q07' }] });
    const md = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(md).toContain('# Run report — case');
    expect(md).toMatch(/\| all items +\| +20 \| +15 \| +75\.0% \|/);
    expect(md).toContain('## Accuracy by confidence');
    expect(md).toContain('goldEverReturned');
    expect(md).toContain('git sha');
    expect(JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')).sections.accuracy.accuracy).toBe(0.75);
  });

  it('rewrites report.md, report.json and its plots by rename, so a reader holding the earlier file keeps it whole', async () => {
    const dir = await makeRun(
      'case',
      scripted((i) => i % 2 === 0),
    );
    const first = await writeReport(dir, { iterations: 50 });
    const files = ['report.md', 'report.json', ...first.sections.flatMap((s) => (s.plots ?? []).map((p) => p.file))];
    expect(files).toContain('reliability.svg');
    // a hard link stands for a reader that opened the earlier file: an in-place rewrite (truncate, write) changes what it holds
    for (const f of files) {
      linkSync(join(dir, f), join(root, `held-${f}`));
      writeFileSync(join(root, `held-${f}`), `earlier ${f}`);
    }
    await writeReport(dir, { iterations: 50 });
    for (const f of files) {
      expect(readFileSync(join(root, `held-${f}`), 'utf8')).toBe(`earlier ${f}`);
      expect(statSync(join(dir, f)).ino).not.toBe(statSync(join(root, `held-${f}`)).ino);
      expect(readFileSync(join(dir, f), 'utf8')).not.toBe(`earlier ${f}`);
    }
    expect(readdirSync(dir).filter((n) => n.includes('.tmp-'))).toEqual([]);
  });

  it('falls back to {tool, ids} objects in the system trace when the runner recorded no tool calls', async () => {
    const sys: AgentSystem<Item> = async (item) => ({
      prediction: item.answer,
      trace: {
        advocates: [
          {
            toolCalls: [
              { tool: 'bm25_search', query: 'a', ids: ['p1'] },
              { tool: 'rewrite_query', query: 'b', ids: [] },
            ],
          },
        ],
      },
    });
    const dir = await makeRun('walk', sys, ITEMS.slice(0, 4));
    const s = (await writeReport(dir, { iterations: 100 })).json.sections as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(s.toolUsage.tools).toMatchObject({ bm25_search: { calls: 4 }, rewrite_query: { calls: 4 } });
    expect(s.toolUsage.distinctPassagesPerItem).toBe(1);
  });

  it('adds sections registered for the run’s system only', async () => {
    registerReportSection(
      'evidenceRecallTest',
      (run) => ({ id: 'evidenceRecallTest', title: 'Evidence recall (test)', markdown: `n=${run.results.length}`, json: { n: run.results.length } }),
      { systems: ['case-test'] },
    );
    const a = await makeRun(
      'case-test',
      scripted(() => true),
      ITEMS.slice(0, 3),
    );
    const b = await makeRun(
      'other',
      scripted(() => true),
      ITEMS.slice(0, 3),
    );
    expect((await writeReport(a, { iterations: 50 })).markdown).toContain('## Evidence recall (test)');
    expect((await writeReport(b, { iterations: 50 })).markdown).not.toContain('Evidence recall (test)');
  });

  it('never writes a registered secret into the report', async () => {
    const key = 'sk-report-SECRET-9876543210';
    registerSecret(key);
    const dir = await makeRun('leaky', async (item) => ({ prediction: null, trace: {}, error: `401: bad key ${key}` }), ITEMS.slice(0, 2), {
      system: 'leaky',
      note: key,
    });
    await writeReport(dir, { iterations: 50 });
    for (const f of ['report.md', 'report.json']) expect(readFileSync(join(dir, f), 'utf8')).not.toContain(key);
  });

  it('rejects a dir that is not a run, and a malformed results line, naming them', async () => {
    await expect(readRun(join(root, 'nope'))).rejects.toMatchObject({ code: 'RUN_INVALID' });
    const dir = await makeRun(
      'bad',
      scripted(() => true),
      ITEMS.slice(0, 3),
    );
    const file = join(dir, 'results.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    lines[1] = '{"id": 3}';
    writeFileSync(file, lines.join('\n'));
    await expect(readRun(dir)).rejects.toMatchObject({ code: 'RUN_INVALID', message: expect.stringMatching(/line 2/) });
  });

  it('skips, with a warning, a trace of another attempt than its result line (a retry killed between writing the trace and the line)', async () => {
    const dir = await makeRun(
      'killed-retry',
      scripted(() => true, { failAt: [1] }),
      ITEMS.slice(0, 3),
    );
    const failedLines = readFileSync(join(dir, 'results.jsonl'), 'utf8');
    // the retry writes q01's new trace and line; putting the old lines back is the kill between the two writes
    await makeRun(
      'killed-retry',
      scripted(() => true),
      ITEMS.slice(0, 3),
    );
    writeFileSync(join(dir, 'results.jsonl'), failedLines);
    const warn = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const run = await readRun(dir);
      expect(run.results.find((r) => r.id === 'q01')).toMatchObject({ correct: false, error: expect.stringMatching(/garbage/) });
      expect([...run.traces.keys()].sort()).toEqual(['q00', 'q02']);
      expect(warn.mock.calls.map((c) => String(c[0])).join('')).toMatch(/trace q01\.json skipped: it is from another attempt/);
    } finally {
      warn.mockRestore();
    }
  });
});

describe('compareRuns', () => {
  it('paired bootstrap on shared ids: difference, CI, p-value and agreement table', async () => {
    const a = await makeRun(
      'strong',
      scripted((i) => i % 10 !== 0),
    );
    const b = await makeRun(
      'weak',
      scripted((i) => i % 2 === 0),
      ITEMS.slice(0, 16),
    );
    const c = await compareRuns(a, b, { iterations: 2000, seed: 1 });
    expect(c.shared).toBe(16);
    expect(c.onlyA).toBe(4);
    const av = ITEMS.slice(0, 16).map((_, i) => (i % 10 !== 0 ? 1 : 0));
    const bv = ITEMS.slice(0, 16).map((_, i) => (i % 2 === 0 ? 1 : 0));
    // B − A: the interval is the paired bootstrap of mean(b) − mean(a); p is the exact McNemar test
    const expected = pairedBootstrap(bv, av, { iterations: 2000, seed: 1 });
    expect(c.sign).toBe('B − A');
    expect(c.primary).toMatchObject({
      id: 'accuracy',
      estimate: expected.estimate,
      lo: expected.lo,
      hi: expected.hi,
      test: 'mcnemar-exact',
      aOnly: 8,
      bOnly: 2,
    });
    expect(c.primary.estimate).toBeCloseTo(8 / 16 - 14 / 16);
    // 8 vs 2 discordant pairs: p = 2 · P(X ≤ 2 | Binomial(10, ½)) = 2 · 56/1024 — suggestive, not conclusive.
    expect(c.primary.p).toBeCloseTo(112 / 1024, 12);
    expect(c.agreement).toEqual({ both: 6, onlyA: 8, onlyB: 2, neither: 0 });
    expect(c.measures.find((m) => m.id === 'goldEverReturned')!.estimate).toBe(0);
    expect(formatComparison(c)).toMatch(/\| accuracy +\| +16 \| +87\.5% \| +50\.0% \| +−37\.5 pp \| +\[−\d+\.\d pp, 0\.0 pp\] \| +0\.109 \| exact McNemar \|/);
    expect(formatComparison(c)).toContain('This comparison: 2,000 resamples, seed 1.');
    expect(c.configDiff).toEqual({ system: ['strong', 'weak'] });
    expect(formatComparison(c)).toContain('config differences: system: strong vs weak');
  });

  it('runs of different lexcase code (the installed package beside a checkout, two commits) say so beside the config differences', async () => {
    const a = await makeRun(
      'code-a',
      scripted((i) => i % 2 === 0),
      ITEMS,
      { system: 'same' },
    );
    const b = await makeRun(
      'code-b',
      scripted((i) => i % 3 === 0),
      ITEMS,
      { system: 'same' },
    );
    expect((await compareRuns(a, b, { iterations: 200, seed: 1 })).configDiff).toEqual({});
    // B ran under the package built at another commit, and was resumed under a third
    const file = join(b, 'config.json');
    const cfg = JSON.parse(readFileSync(file, 'utf8'));
    const own = cfg.provenance.gitSha;
    cfg.provenance.gitSha = 'b'.repeat(40);
    cfg.resumes = [{ at: cfg.provenance.createdAt, gitSha: 'c'.repeat(40), datasetChecksum: cfg.provenance.datasetChecksum, items: 20, skipped: 10 }];
    writeFileSync(file, JSON.stringify(cfg));
    const c = await compareRuns(a, b, { iterations: 200, seed: 1 });
    expect(c.configDiff).toEqual({ 'lexcase commit': [own, `${'b'.repeat(40)}, ${'c'.repeat(40)}`] });
    expect(formatComparison(c)).toContain(`config differences: lexcase commit: ${own} vs ${'b'.repeat(40)}, ${'c'.repeat(40)}`);
  });

  it('an interval that excludes 0 beside a test that does not reject is marked ‡ and explained', async () => {
    const a = await makeRun(
      'ten',
      scripted((i) => i < 10),
    );
    const b = await makeRun(
      'fourteen',
      scripted((i) => i < 14),
    );
    const c = await compareRuns(a, b);
    // 4 discordant pairs, all for B: exact McNemar p = 2 · 0.5⁴ = 0.125, while the bootstrap draws
    // none of the 4 in only (16/20)^20 ≈ 1.2% of resamples, so its 95% interval starts above 0
    expect(c.primary).toMatchObject({ p: 0.125, aOnly: 0, bOnly: 4 });
    expect(c.primary.lo!).toBeGreaterThan(0);
    const text = formatComparison(c);
    expect(text).toMatch(/\| accuracy +\| +20 \| +50\.0% \| +70\.0% \| +\+20\.0 pp \| +\[\+5\.0 pp, \+\d+\.\d pp\] ‡ \| +0\.125 \| exact McNemar \|/);
    expect(text).toContain('‡ accuracy: the 95% interval excludes 0 but the exact test does not reject (p = 0.125 ≥ 0.05; 4 items differ)');
    expect(c.primary.text.pLine).toContain('; ‡ the 95% interval excludes 0');
  });

  it('a run compared with itself: zero difference, p = 1, and no interval ("no item differs"), not a certain-looking [0.0 pp, 0.0 pp]', async () => {
    const a = await makeRun(
      'same',
      scripted((i) => i % 3 !== 0),
    );
    const c = await compareRuns(a, a, { iterations: 500 });
    // before: lo 0, hi 0 — printed "[0.0 pp, 0.0 pp]" as a 95% interval from 0 discordant pairs
    expect(c.primary).toMatchObject({ estimate: 0, lo: null, hi: null, missing: 'no item differs', p: 1, aOnly: 0, bOnly: 0 });
    expect(formatComparison(c)).toMatch(/\| accuracy +\| +20 \| +65\.0% \| +65\.0% \| +0\.0 pp \| +\(no item differs\) \| +1\.000 \| exact McNemar \|/);
  });
});

describe('CLI: lexcase report / compare', () => {
  it('prints the report JSON with --json and writes report.md; compare prints the paired difference', async () => {
    const a = await makeRun(
      'cli-a',
      scripted((i) => i % 4 !== 0),
    );
    const b = await makeRun(
      'cli-b',
      scripted((i) => i % 2 === 0),
    );
    const out: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((c: string | Uint8Array) => (out.push(String(c)), true));
    try {
      await buildProgram().parseAsync(['node', 'lexcase', '--json', 'report', a, '--iterations', '200']);
      const json = JSON.parse(out.join(''));
      expect(json.sections.accuracy).toMatchObject({ n: 20, correct: 15 });
      out.length = 0;
      await buildProgram().parseAsync(['node', 'lexcase', 'compare', a, b, '--iterations', '300']);
      expect(out.join('')).toMatch(/Paired comparison \(B − A\) on 20 shared items/);
      expect(out.join('')).toMatch(/−25\.0 pp/);
    } finally {
      spy.mockRestore();
    }
    expect(readFileSync(join(a, 'report.md'), 'utf8')).toContain('## Accuracy');
  });
});
