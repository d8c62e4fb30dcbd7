/**
 * A --run-file or --qrels-file named *.gz is written gzipped: before, both were plain text under a
 * .gz name, and the suggested `lexcase eval run OUT.txt.gz --qrels …` failed with "incorrect header
 * check". Now `eval retrieval --dataset --run-file r.txt.gz --qrels-file q.txt.gz` writes gzip files
 * that `eval run` reads back to the report's figures.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../indexer/build.js';
import { runCli } from '../tests/support/run-cli.js';

let dir: string;
let index: string;
let qa: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-gz-'));
  index = join(dir, 'idx');
  const passages = [
    { id: 'hearsay', text: 'Hearsay is an out of court statement offered to prove the truth of the matter asserted.', source: 't' },
    { id: 'contract', text: 'A contract needs offer, acceptance and consideration.', source: 't' },
    { id: 'tax', text: 'Income tax applies to wages and salaries.', source: 't' },
  ];
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: index, corpusName: 'gz', workers: 0 },
  );
  qa = join(dir, 'qa.jsonl');
  const questions = [
    { id: 'q1', prompt: '', question: 'out of court statement hearsay', choices: ['a', 'b'], answer: 'A', gold_idx: 'hearsay' },
    { id: 'q2', prompt: '', question: 'offer acceptance consideration', choices: ['a', 'b'], answer: 'A', gold_idx: 'contract' },
  ];
  await writeFile(qa, questions.map((q) => JSON.stringify(q)).join('\n') + '\n');
}, 60_000);

afterEach(() => {
  process.exitCode = 0;
});

describe('TREC files named .gz', () => {
  it('eval retrieval --run-file/--qrels-file *.gz write gzip that eval run reads to the same figures', async () => {
    const run = join(dir, 'out', 'run.txt.gz');
    const qrels = join(dir, 'out', 'qrels.txt.gz');
    const common = ['--iterations', '50', '--seed', '3'];
    const r = await runCli(
      [
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
      ].concat(['--run-file', run, '--qrels-file', qrels], common),
    );
    expect(r.code).toBe(0);
    expect(gunzipSync(await readFile(run)).toString('utf8')).toMatch(/^q1 Q0 hearsay 1 [\d.]+ lexcase-bm25\n/);
    expect(gunzipSync(await readFile(qrels)).toString('utf8')).toBe('q1 0 hearsay 1\nq2 0 contract 1\n');
    const e = await runCli(['--json', 'eval', 'run', run, '--qrels', qrels, '--metrics', 'recall@1,mrr@10', ...common]);
    expect(e.stderr).toBe('');
    expect(e.code).toBe(0);
    expect(JSON.parse(e.stdout).run.means['recall@1'].estimate).toBe(JSON.parse(r.stdout).results[0].metrics['recall@1'].estimate);
  });
});
