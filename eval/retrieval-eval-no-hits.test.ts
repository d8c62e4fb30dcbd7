/**
 * `eval retrieval --dataset`: a question the search gets no hit for (no query term in the index)
 * scores 0 and is in the mean, while its run file has no line for it. Before, nothing said so, and
 * the docs said the report equals `eval run` on the run and qrels files (which skips the question:
 * 1.0 there, 0.5 here). Now the report names it per method, as `--topics` does, and --json carries
 * `noHits`; `eval run --complete` gives the report's figures.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../indexer/build.js';
import { runCli } from '../tests/support/run-cli.js';

let dir: string;
let index: string;
let qa: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-nohits-'));
  index = join(dir, 'idx');
  const passages = [
    { id: 'hearsay', text: 'Hearsay is an out of court statement offered to prove the truth of the matter asserted.', source: 't' },
    { id: 'contract', text: 'A contract needs offer, acceptance and consideration.', source: 't' },
  ];
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: index, corpusName: 'nohits', workers: 0 },
  );
  qa = join(dir, 'qa.jsonl');
  const questions = [
    { id: 'q1', prompt: '', question: 'out of court statement hearsay', choices: ['a', 'b'], answer: 'A', gold_idx: 'hearsay' },
    { id: 'q2', prompt: '', question: 'zygote xylophone', choices: ['a', 'b'], answer: 'A', gold_idx: 'contract' },
  ];
  await writeFile(qa, questions.map((q) => JSON.stringify(q)).join('\n') + '\n');
}, 60_000);

afterEach(() => {
  process.exitCode = 0;
});

describe('eval retrieval --dataset with a question that gets no hit', () => {
  const args = () => ['eval', 'retrieval', '--index', index, '--dataset', 'barexam', '--dataset-file', qa, '--split', 'all', '--method', 'bm25', '--k', '1'];

  it('names it in the report (it scores 0, in the mean) and in --json noHits; eval run --complete gives the same figure', async () => {
    const run = join(dir, 'out', 'run.txt');
    const qrels = join(dir, 'out', 'qrels.txt');
    const text = await runCli([...args(), '--run-file', run, '--qrels-file', qrels]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(
      `bm25 returned no hits for 1 question (q2): it scores 0 there and is in the mean; its run file ${run} has no line for it (TREC format), so \`eval run\` of that file needs --complete to count it.`,
    );
    const j = await runCli(['--json', ...args()]);
    const res = JSON.parse(j.stdout).results[0];
    expect(res.noHits).toEqual({ count: 1, examples: ['q2'] });
    expect(res.metrics['recall@1'].estimate).toBe(0.5);
    const e = await runCli(['--json', 'eval', 'run', run, '--qrels', qrels, '--metrics', 'recall@1', '--complete']);
    expect(JSON.parse(e.stdout).run.means['recall@1'].estimate).toBe(0.5);
  });
});
