/**
 * The fusion sweep scores settings from cached component runs; the figure it reports for a setting
 * must equal what the live hybrid retriever with that setting gets (same questions, same cutoffs).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexCorpus } from '../indexer/index-corpus.js';
import { loadPassages, loadQuestions } from '../corpora/registry.js';
import { closeSparseIndexes, openRetriever } from '../retrieval/open.js';
import { evalRetrieval } from './retrieval-eval.js';
import { batchSearch } from './trec/batch-search.js';
import { retrievalQuery } from '../corpora/barexam.js';
import { formatFusionSweep, sweepFusion } from './fusion-sweep.js';
import { runCli } from '../tests/support/run-cli.js';
import { BAREXAM_QA, bundledLines } from '../tests/support/bundled-data.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-fusion-sweep-'));
  await indexCorpus('barexam', { out: join(dir, 'idx'), methods: ['bm25', 'qld'] });
}, 120_000);
afterAll(async () => {
  await closeSparseIndexes();
  await rm(dir, { recursive: true, force: true });
});

describe('sweepFusion', () => {
  it('reports singles and every grid setting, picks the largest margin, and its recall equals the live hybrid retriever', { timeout: 120_000 }, async () => {
    const r = await sweepFusion({ index: join(dir, 'idx'), components: ['bm25', 'qld'], split: 'val', ks: [10, 100] });
    expect(r.n).toBe(124);
    expect(r.singles.map((s) => s.label)).toEqual(['bm25', 'qld']);
    expect(r.settings.length).toBeGreaterThanOrEqual(6);
    for (const s of r.settings) expect(s.margin).toBeLessThanOrEqual(r.best.margin + 1e-12);
    const best = r.best.setting!;
    const hybrid = await openRetriever(join(dir, 'idx'), 'hybrid', {
      methods: best.methods.join(','),
      fusion: best.fusion,
      rrfK: best.rrfK,
      depth: best.depth,
      weights: best.weights,
    });
    const live = await evalRetrieval({ retriever: hybrid, questions: await loadQuestions('barexam', 'val'), ks: [10, 100], iterations: 10 });
    expect(live.metrics['recall@10'].estimate).toBeCloseTo(r.best.recall[10], 10);
    expect(live.metrics['recall@100'].estimate).toBeCloseTo(r.best.recall[100], 10);
    expect(formatFusionSweep(r)).toContain(`| **${r.best.label}** |`);
  });
});

describe("eval retrieval --sweep-fusion --k past a setting's depth", () => {
  it("says the depth=100 settings' Recall@150 counts only what their components rank within 100 (before: printed with no word)", {
    timeout: 120_000,
  }, async () => {
    // twelve Bar Exam QA questions (the bundled file's first), the grid's depths 100 and 1000
    const qa = join(dir, 'qa12.jsonl');
    await writeFile(qa, `${bundledLines(BAREXAM_QA).filter(Boolean).slice(0, 12).join('\n')}\n`);
    const args = [
      'eval',
      'retrieval',
      '--index',
      join(dir, 'idx'),
      '--dataset-file',
      qa,
      '--split',
      'all',
      '--method',
      'bm25,qld',
      '--k',
      '10,150',
      '--sweep-fusion',
    ];
    const said =
      "the depth=100 settings' Recall@150 is beyond the hybrid depth 100: it fuses each component's top 100 hits, so that figure counts only passages a component ranks within its top 100";
    const j = await runCli(['--json', ...args]);
    expect(j.code, j.stderr).toBe(0);
    const out = JSON.parse(j.stdout);
    expect(out.warnings[0]).toBe(said);
    expect(j.stderr).toContain(`eval retrieval --sweep-fusion: ${said}`);
    const human = await runCli(args);
    expect(human.stdout).toContain(`**Warning:** ${said}.`);
    // cutoffs within every depth: nothing said
    const within = await runCli(['--json', ...args.slice(0, -3), '--k', '10,100', '--sweep-fusion']);
    expect(within.code, within.stderr).toBe(0);
    expect(JSON.parse(within.stdout).warnings).not.toContainEqual(expect.stringMatching(/beyond the hybrid depth/));
  });
});

describe('sweepFusion fuses the component runs as printed', () => {
  it("a tie at the depth cut keeps the passage the component's run file ranks first (trec_eval: higher id), as the live hybrid does", {
    timeout: 120_000,
  }, async () => {
    // The bundled passages' duplicated texts (mbe_126 = mbe_2644, …): bm25 and qld score both copies
    // equally. Each question is one such text; its gold passage is the copy trec_eval ranks first. At
    // depth 1 each component list holds one passage: the sweep kept the first in the index (its
    // internal tie order), not the first line of the component's run, and its Recall@1 was 0.1.
    const byText = new Map<string, string[]>();
    for await (const p of loadPassages('barexam')) byText.set(p.text, [...(byText.get(p.text) ?? []), p.id]);
    const dups = [...byText].filter(([, ids]) => ids.length === 2);
    expect(dups.length).toBeGreaterThanOrEqual(10);
    const file = join(dir, 'dups.jsonl');
    const gold = dups.map(([, ids]) => ids.slice().sort((a, b) => Buffer.compare(Buffer.from(b), Buffer.from(a)))[0]);
    const line = ([text]: [string, string[]], i: number) =>
      JSON.stringify({ id: `dup_${i}`, prompt: '', question: text, choices: ['a', 'b', 'c', 'd'], answer: 'A', gold_idx: gold[i] });
    await writeFile(file, dups.map(line).join('\n'));
    const setting = { methods: ['bm25', 'qld'], fusion: 'rrf' as const, rrfK: 60, depth: 1 };
    const r = await sweepFusion({ index: join(dir, 'idx'), components: ['bm25', 'qld'], datasetFile: file, split: 'all', ks: [1], grid: [setting] });
    expect(r.n).toBe(dups.length);
    // RRF of the first line of each component's run file (`search --topics -k 1`), ranked as its run
    // file is (trec_eval): equal fused scores → the higher id
    const questions = await loadQuestions('barexam', 'all', { file });
    const topics = questions.map((q) => ({ id: q.id, text: retrievalQuery(q) }));
    const first = async (m: string) => (await batchSearch(await openRetriever(join(dir, 'idx'), m), topics, { k: 1 })).run;
    const [bm25, qld] = [await first('bm25'), await first('qld')];
    const fusedTop = topics.map((t) => [bm25.get(t.id)![0].docid, qld.get(t.id)![0].docid].sort()[1]);
    const expected = fusedTop.filter((id, i) => id === questions[i].goldPassageIds[0]).length / topics.length;
    expect(expected).toBeGreaterThanOrEqual(0.7);
    expect(r.settings[0].recall[1]).toBeCloseTo(expected, 12);
    const hybrid = await openRetriever(join(dir, 'idx'), 'hybrid', { methods: 'bm25,qld', fusion: 'rrf', rrfK: 60, depth: 1 });
    const live = await evalRetrieval({ retriever: hybrid, questions, ks: [1], iterations: 10 });
    expect(live.metrics['recall@1'].estimate).toBeCloseTo(r.settings[0].recall[1], 12);
  });
});

describe('eval retrieval --sweep-fusion as the CLI runs it (helper audit)', () => {
  it('tunes on train unless --split is given; on another split it warns that the figures are in-sample', { timeout: 120_000 }, async () => {
    // the bundled file's first 40 questions, split by the default seed
    const qa = join(dir, 'qa40.jsonl');
    await writeFile(qa, `${bundledLines(BAREXAM_QA).filter(Boolean).slice(0, 40).join('\n')}\n`);
    const base = ['eval', 'retrieval', '--index', join(dir, 'idx'), '--dataset-file', qa, '--sweep-fusion', '--method', 'bm25,qld'];
    // before: the command's default split (val, the one reports are read on) was the tuning split, with no word
    const d = await runCli(['--json', ...base]);
    expect(d.code, d.stderr).toBe(0);
    const j = JSON.parse(d.stdout);
    expect(j.split).toBe('train');
    expect(j.warnings ?? []).not.toContainEqual(expect.stringMatching(/chosen on the/));
    const v = await runCli([...base, '--split', 'val']);
    expect(v.code, v.stderr).toBe(0);
    expect(v.stdout).toMatch(
      /\*\*Warning:\*\* the setting is chosen on the val split and its figures are of the same \d+ questions: they are the best of \d+ settings there/,
    );
    expect(v.stderr).toMatch(/eval retrieval --sweep-fusion: the setting is chosen on the val split/);
  });

  it("records what reruns it, and each row's flags give the live hybrid's figures (before: equal-weight rows unlabelled, while the hybrid's default weights are not equal)", {
    timeout: 120_000,
  }, async () => {
    const qa = join(dir, 'qa40.jsonl');
    await writeFile(qa, `${bundledLines(BAREXAM_QA).filter(Boolean).slice(0, 40).join('\n')}\n`);
    const idx = join(dir, 'idx');
    const d = await runCli(['--json', 'eval', 'retrieval', '--index', idx, '--dataset-file', qa, '--sweep-fusion', '--method', 'bm25,qld']);
    expect(d.code, d.stderr).toBe(0);
    const j = JSON.parse(d.stdout);
    expect(j).toMatchObject({ kind: 'fusion-sweep', index: idx, dataset: { name: 'barexam', split: 'train', splitSeed: 13, file: qa, n: j.n } });
    expect(j.dataset.checksum).toMatch(/^[0-9a-f]{64}$/);
    expect(j.gitSha).toBeTruthy();
    expect(j.indexContent).toMatchObject({ corpus: 'barexam', passages: 1149, checksum: expect.any(String) });
    expect(j.components.bm25).toMatchObject({ k1: expect.any(Number), b: expect.any(Number) });
    expect(j.components.qld).toMatchObject({ mu: expect.any(Number) });
    // every row names its weights, equal ones too
    for (const row of j.settings) expect(row.label).toMatch(/ w=bm25:[\d.]+,qld:[\d.]+ /);
    const equalRrf = j.settings.find((x: { setting: { fusion: string; weights?: unknown } }) => x.setting.fusion === 'rrf' && !x.setting.weights);
    const equalWeighted = j.settings.find((x: { setting: { fusion: string; weights?: unknown } }) => x.setting.fusion === 'weighted' && !x.setting.weights);
    for (const row of [j.best, equalRrf, equalWeighted]) {
      const live = await runCli([
        '--json',
        'eval',
        'retrieval',
        '--index',
        idx,
        '--dataset-file',
        qa,
        '--split',
        'train',
        '--k',
        '10,100',
        ...row.flags.split(' '),
      ]);
      expect(live.code, live.stderr).toBe(0);
      const m = JSON.parse(live.stdout).results[0].metrics;
      expect(m['recall@10'].estimate, row.label).toBeCloseTo(row.recall[10], 12);
      expect(m['recall@100'].estimate, row.label).toBeCloseTo(row.recall[100], 12);
    }
    const text = await runCli(['eval', 'retrieval', '--index', idx, '--dataset-file', qa, '--sweep-fusion', '--method', 'bm25,qld']);
    expect(text.stdout).toContain(`(split seed 13; n = ${j.n} questions`);
    expect(text.stdout).toContain(`\`lexcase eval retrieval --index ${idx} --dataset-file ${qa} --split val ${j.best.flags}\``);
  });

  it("the held-out command carries every option the sweep ran with (components' k1 and b, split seed): run on the tuning split it gives the chosen row's figures", {
    timeout: 120_000,
  }, async () => {
    const qa = join(dir, 'qa40.jsonl');
    await writeFile(qa, `${bundledLines(BAREXAM_QA).filter(Boolean).slice(0, 40).join('\n')}\n`);
    const idx = join(dir, 'idx');
    const given = ['--index', idx, '--dataset-file', qa, '--split-seed', '7', '--k1', '1.2', '--b', '0.75', '--method', 'bm25,qld'];
    const d = await runCli(['--json', 'eval', 'retrieval', ...given, '--sweep-fusion']);
    expect(d.code, d.stderr).toBe(0);
    const j = JSON.parse(d.stdout);
    expect(j.dataset.splitSeed).toBe(7);
    expect(j.components.bm25).toMatchObject({ k1: 1.2, b: 0.75 });
    // before: the printed command gave only the fusion flags, so it ran bm25 at k1 0.9, b 0.4 on seed 13's val split
    expect(j.heldOut.split).toBe('val');
    expect(j.heldOut.command).toBe(`lexcase eval retrieval --index ${idx} --split-seed 7 --dataset-file ${qa} --k1 1.2 --b 0.75 --split val ${j.best.flags}`);
    const args = j.heldOut.command.split(' ').slice(1);
    args[args.indexOf('--split') + 1] = 'train';
    const live = await runCli(['--json', ...args, '--k', '10,100']);
    expect(live.code, live.stderr).toBe(0);
    const m = JSON.parse(live.stdout).results[0].metrics;
    expect(m['recall@10'].estimate).toBeCloseTo(j.best.recall[10], 12);
    expect(m['recall@100'].estimate).toBeCloseTo(j.best.recall[100], 12);
    // over split all nothing is held out: no command
    const all = await runCli(['--json', 'eval', 'retrieval', ...given, '--split', 'all', '--sweep-fusion']);
    expect(JSON.parse(all.stdout).heldOut).toBeUndefined();
  });

  it('refuses the flags it would drop (--out, --plot, --run-file, --qrels-file, --seed, --iterations) and a single method, writing nothing', async () => {
    const out = join(dir, 'sweep.json');
    const r = await runCli(['eval', 'retrieval', '--index', join(dir, 'idx'), '--sweep-fusion', '--method', 'bm25,qld', '--out', out, '--seed', '3']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--out, --seed with --sweep-fusion: the sweep prints its table of Recall@k .* and writes no report/);
    const { existsSync } = await import('node:fs');
    expect(existsSync(out)).toBe(false);
    const one = await runCli(['eval', 'retrieval', '--index', join(dir, 'idx'), '--sweep-fusion', '--method', 'bm25']);
    expect(one.code).toBe(1);
    // before: "Reduce of empty array with no initial value"
    expect(one.stderr).toMatch(/the fusion sweep fuses two or more methods, got only "bm25"/);
    // the grid sets these (before: a warning that bm25 and qld ignore them)
    const grid = await runCli([
      'eval',
      'retrieval',
      '--index',
      join(dir, 'idx'),
      '--sweep-fusion',
      '--method',
      'bm25,qld',
      '--weights',
      'bm25=2,qld=1',
      '--rrf-k',
      '7',
    ]);
    expect(grid.code).toBe(1);
    expect(grid.stderr).toMatch(/--weights, --rrf-k with --sweep-fusion: the sweep's grid sets every setting's fused methods/);
  });
});
