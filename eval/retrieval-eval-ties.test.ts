/**
 * `eval retrieval --dataset` ranks tied scores as its run file is evaluated: three passages with the
 * same text score the same for the question, the gold one (dup1) among them. trec_eval (and
 * `lexcase eval run`) rank ties by docid descending — dup3, dup2, dup1 — so the gold is third:
 * Recall@1 0, MRR@10 1/3, nDCG@10 1/log2(4) = 0.5. The dataset form reports the same means as
 * `eval run` of the run file and qrels file it wrote (before the fix it ranked dup1 first: 1, 1, 1),
 * also when it writes them gzipped (named *.gz).
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../tests/support/run-cli.js';

const cli = (...args: string[]) => runCli(args);

const passages = [
  { id: 'dup1', text: 'The zebra crossing gives pedestrians the right of way.' },
  { id: 'dup2', text: 'The zebra crossing gives pedestrians the right of way.' },
  { id: 'dup3', text: 'The zebra crossing gives pedestrians the right of way.' },
  { id: 'other', text: 'A contract needs offer, acceptance and consideration.' },
  { id: 'tax', text: 'Income tax applies to wages and salaries.' },
];
const questions = [
  { id: 'q-tie', prompt: '', question: 'zebra crossing', choices: ['yes', 'no'], answer: 'A', gold_idx: 'dup1' },
  { id: 'q-plain', prompt: '', question: 'offer acceptance consideration', choices: ['yes', 'no'], answer: 'A', gold_idx: 'other' },
];

let dir: string;
let index: string;
let qa: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-ties-'));
  const corpus = join(dir, 'dups.jsonl');
  index = join(dir, 'idx');
  qa = join(dir, 'ds.jsonl');
  await writeFile(corpus, passages.map((p) => JSON.stringify(p)).join('\n') + '\n');
  await writeFile(qa, questions.map((q) => JSON.stringify(q)).join('\n') + '\n');
  const r = await cli('index', 'build', corpus, '--out', index, '--workers', '0', '--json');
  expect(r.code).toBe(0);
});

afterEach(() => {
  process.exitCode = 0;
});

const common = ['--iterations', '100', '--seed', '3'];
/** `eval retrieval --dataset` of the two questions, writing its run and qrels to the files named. */
const evalDataset = (run: string, qrels: string) =>
  cli(
    '--json',
    'eval',
    'retrieval',
    '--index',
    index,
    '--dataset',
    'barexam',
    '--dataset-file',
    qa,
    '--split',
    'all',
    '--method',
    'bm25',
    '--k',
    '1,10',
    '--run-file',
    run,
    '--qrels-file',
    qrels,
    ...common,
  );

describe('eval retrieval --dataset with tied scores at the gold passage', () => {
  it('reports the means that eval run gives on the run file and qrels file it wrote', async () => {
    const run = join(dir, 'out', 'run.txt');
    const qrels = join(dir, 'out', 'qrels.txt');
    const r = await evalDataset(run, qrels);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const ds = JSON.parse(r.stdout).results[0];
    const e = await cli('--json', 'eval', 'run', run, '--qrels', qrels, '--metrics', 'recall@1,recall@10,mrr@10,ndcg@10', ...common);
    expect(e.code).toBe(0);
    const ev = JSON.parse(e.stdout).run;
    expect(ev.n).toBe(ds.n);
    for (const m of ['recall@1', 'recall@10', 'mrr@10', 'ndcg@10']) expect([m, ds.metrics[m].estimate]).toEqual([m, ev.means[m].estimate]);
    // the tied topic: gold third (dup3, dup2, dup1), as trec_eval ranks it
    expect(ds.perQuery.find((q: { id: string }) => q.id === 'q-tie').firstRank).toBe(3);
    expect(ds.metrics['mrr@10'].estimate).toBeCloseTo((1 / 3 + 1) / 2, 12);
    expect(ds.metrics['ndcg@10'].estimate).toBeCloseTo((0.5 + 1) / 2, 12);
    expect(ev.perTopic.find((t: { qid: string }) => t.qid === 'q-tie').values['mrr@10']).toBeCloseTo(1 / 3, 12);
  });

  it('writes a --run-file or --qrels-file named *.gz gzipped (it was plain text, and eval run of it failed "incorrect header check"), and eval run reads it back to the same figures', async () => {
    const run = join(dir, 'gz', 'run.txt.gz');
    const qrels = join(dir, 'gz', 'qrels.txt.gz');
    const r = await evalDataset(run, qrels);
    expect(r.code, r.stderr).toBe(0);
    expect(gunzipSync(await readFile(run)).toString('utf8')).toMatch(/^q-tie Q0 dup3 1 [\d.]+ lexcase-bm25\n/);
    expect(gunzipSync(await readFile(qrels)).toString('utf8')).toBe('q-tie 0 dup1 1\nq-plain 0 other 1\n');
    const e = await cli('--json', 'eval', 'run', run, '--qrels', qrels, '--metrics', 'recall@1,mrr@10', ...common);
    expect(e.stderr).toBe('');
    expect(e.code).toBe(0);
    expect(JSON.parse(e.stdout).run.means['mrr@10'].estimate).toBe(JSON.parse(r.stdout).results[0].metrics['mrr@10'].estimate);
  });
});
