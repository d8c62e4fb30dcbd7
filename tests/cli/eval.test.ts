/**
 * `lexcase eval retrieval` (bundled Bar Exam QA split, and a user's topics + qrels) and `lexcase eval
 * run` (a TREC run against qrels, --compare) as a user runs them: the built binary in a child
 * process; the tables it prints, the run files, report JSON and plots it writes.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPassages, loadQuestions } from '../../corpora/registry.js';
import { wilsonCi } from '../../eval/wilson.js';
import { ensureBuilt, lexcase, STACK_TRACE } from '../support/spawn-cli.js';
import { sharedUserIndex, type UserFiles } from './cli-fixtures.js';

let dir: string;
let idx: string;
let files: UserFiles;

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-cli-eval-'));
  ({ files, idx } = await sharedUserIndex(dir, { extra: 200 }));
}, 600_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const noTrace = (r: { stdout: string; stderr: string }) => expect(STACK_TRACE.test(r.stdout + r.stderr), r.stderr).toBe(false);

describe('lexcase eval retrieval', () => {
  it('on the Bar Exam QA val split: a Recall@k table with CIs for each method, a TREC run file, a JSON report', async () => {
    const run = join(dir, 'runs/val.txt');
    const out = join(dir, 'val.json');
    const r = await lexcase([
      'eval',
      'retrieval',
      '--index',
      idx,
      '--split',
      'val',
      '--method',
      'bm25,qld',
      '--iterations',
      '200',
      '--run-file',
      run,
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    noTrace(r);
    expect(r.stdout).toMatch(/n = 124/);
    expect(r.stdout).toMatch(/^\| bm25 +\| \d\.\d{3} \[\d\.\d{3}, \d\.\d{3}\]/m);
    expect(r.stdout).toMatch(/^\| qld +\|/m);
    // one run file per method: runs/val.bm25.txt, runs/val.qld.txt
    for (const m of ['bm25', 'qld'])
      expect(readFileSync(join(dir, `runs/val.${m}.txt`), 'utf8').split('\n')[0]).toMatch(new RegExp(`^mbe_\\d+ Q0 \\S+ 1 \\S+ lexcase-${m}$`));
    expect(existsSync(run)).toBe(false);
    expect(JSON.parse(readFileSync(out, 'utf8'))).toBeTypeOf('object');
  });

  it('on a user’s topics + qrels gives the same numbers as eval run on the run file it wrote', async () => {
    const run = join(dir, 'runs/topics-bm25.txt');
    const a = await lexcase([
      '--json',
      'eval',
      'retrieval',
      '--topics',
      files.topics,
      '--qrels',
      files.qrels,
      '--index',
      idx,
      '--method',
      'bm25',
      '--run-file',
      run,
      '--iterations',
      '200',
    ]);
    expect(a.code, a.stderr).toBe(0);
    const b = await lexcase(['--json', 'eval', 'run', run, '--qrels', files.qrels, '--metrics', 'recall@100,ndcg@10', '--iterations', '200']);
    expect(b.code, b.stderr).toBe(0);
    const fromIndex = JSON.parse(a.stdout).results.find((x: { method: string }) => x.method === 'bm25').means;
    const fromRun = JSON.parse(b.stdout).run.means;
    expect(fromRun['recall@100'].estimate).toBeGreaterThan(0);
    expect(fromIndex['recall@100'].estimate).toBe(fromRun['recall@100'].estimate);
    expect(fromIndex['ndcg@10'].estimate).toBe(fromRun['ndcg@10'].estimate);
  });

  it('--plot writes the Recall@k SVG with --topics/--qrels (issue 25: it wrote none)', async () => {
    const svg = join(dir, 'recall.svg');
    const r = await lexcase([
      'eval',
      'retrieval',
      '--topics',
      files.topics,
      '--qrels',
      files.qrels,
      '--index',
      idx,
      '--method',
      'bm25',
      '--iterations',
      '100',
      '--plot',
      svg,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(svg)).toBe(true);
    expect(readFileSync(svg, 'utf8')).toMatch(/^<svg/);
  });

  it('MRR@10 and nDCG@10 get the same interval as eval run gives its run file: Wilson when each query finds its gold first (it printed [1.000, 1.000] beside eval run’s [0.7575, 1])', async () => {
    // questions whose text is their gold passage's: every gold is first, so MRR@10 = nDCG@10 = 1 on every query
    const val = (await loadQuestions('barexam', 'val')).slice(0, 12);
    const text = new Map<string, string>();
    for await (const p of loadPassages('barexam')) text.set(p.id, p.text);
    const qa = join(dir, 'self-qa.jsonl');
    writeFileSync(
      qa,
      val
        .map((q) =>
          JSON.stringify({
            id: q.id,
            prompt: '',
            question: text.get(q.goldPassageIds[0]),
            choices: q.choices,
            answer: q.answer,
            gold_idx: q.goldPassageIds[0],
          }),
        )
        .join('\n') + '\n',
    );
    const run = join(dir, 'runs/self.txt');
    const qrels = join(dir, 'self-qrels.txt');
    const out = join(dir, 'self.json');
    // (paths under the test's temp dir: no spaces)
    const a = await lexcase(
      `eval retrieval --index ${idx} --dataset-file ${qa} --split all --method bm25 --run-file ${run} --qrels-file ${qrels} --out ${out}`.split(' '),
    );
    expect(a.code, a.stderr).toBe(0);
    const res = JSON.parse(readFileSync(out, 'utf8')).results[0];
    expect(res.n).toBe(12);
    expect(res.perQuery.map((q: { rr: number }) => q.rr)).toEqual(Array(12).fill(1));
    const b = await lexcase(['--json', 'eval', 'run', run, '--qrels', qrels, '--metrics', 'mrr@10,ndcg@10']);
    expect(b.code, b.stderr).toBe(0);
    const fromRun = JSON.parse(b.stdout).run.means;
    for (const m of ['mrr@10', 'ndcg@10']) {
      const pick = (x: Record<string, unknown>) => ({ estimate: x.estimate, lo: x.lo, hi: x.hi, method: x.method, n: x.n });
      expect(pick(res.metrics[m]), m).toEqual(pick(fromRun[m]));
      expect(res.metrics[m]).toMatchObject({ method: 'wilson', estimate: 1, hi: 1 });
      expect(res.metrics[m].lo).toBeCloseTo(wilsonCi(12, 12).lo, 12);
      expect(res.metrics[m].lo).toBeLessThan(0.8);
    }

    // the same file under a name a bundled dataset has (`--dataset-file barexam`, from its folder): the
    // checksum recorded is the file's read, not the bundled qa.jsonl.gz's (before 2026-12-04)
    writeFileSync(join(dir, 'barexam'), readFileSync(qa));
    const named = join(dir, 'named.json');
    const c = await lexcase(['eval', 'retrieval', '--index', idx, '--dataset-file', 'barexam', '--split', 'all', '--method', 'bm25', '--out', named], {
      cwd: dir,
    });
    expect(c.code, c.stderr).toBe(0);
    const sha = createHash('sha256').update(readFileSync(qa)).digest('hex');
    expect(JSON.parse(readFileSync(named, 'utf8')).dataset).toMatchObject({ file: 'barexam', checksum: sha, n: 12 });
  });

  it('a dataset without gold passages (mmlu_pro_law) is one error saying so', async () => {
    const r = await lexcase(['eval', 'retrieval', '--index', idx, '--dataset', 'mmlu_pro_law']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/gold passages/);
    noTrace(r);
  });
});

describe('lexcase eval run', () => {
  it('metrics with CIs for a run; --compare gives a paired difference per metric', async () => {
    const bm25 = join(dir, 'runs/bm25.txt');
    const qld = join(dir, 'runs/qld.txt');
    for (const [m, f] of [
      ['bm25', bm25],
      ['qld', qld],
    ] as const) {
      const s = await lexcase(['-q', 'search', '--topics', files.topics, '--index', idx, '--method', m, '--run-file', f]);
      expect(s.code, s.stderr).toBe(0);
    }
    const r = await lexcase([
      'eval',
      'run',
      qld,
      '--qrels',
      files.qrels,
      '--metrics',
      'recall@100,ndcg@10,mrr@10,map',
      '--compare',
      bm25,
      '--iterations',
      '200',
    ]);
    expect(r.code, r.stderr).toBe(0);
    noTrace(r);
    for (const m of ['recall@100', 'ndcg@10', 'mrr@10', 'map']) expect(r.stdout).toContain(m);
    // B − A (the --compare run minus the first), its paired-bootstrap interval (n ≥ 10 topics here) and an exact test
    expect(r.stdout).toMatch(/^Paired comparison B − A on \d+ shared topics/m);
    expect(r.stdout).toMatch(/^\| metric +\| +A \| +B \| +B − A \| +95% interval of B − A \| +p \| +test \|$/m);
    expect(r.stdout).toMatch(
      /^\| map +\| +[\d.]+ \| +[\d.]+ \| +[+−]?[\d.]+ \| +\[[+−]?[\d.]+, [+−]?[\d.]+\] \| +(< )?[\d.]+ \| +(?:exact sign-flip|sign-flip, 10,000 seeded flips) \|$/m,
    );
  });

  it('a qrels line with too few fields is one error naming the file and line', async () => {
    const bad = join(dir, 'bad-qrels.txt');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(bad, 'q1 0 d1 1\nq2 0 d2\n');
    const r = await lexcase(['eval', 'run', join(dir, 'runs/bm25.txt'), '--qrels', bad]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/bad-qrels\.txt:2/);
    noTrace(r);
  });
});
