/**
 * `eval retrieval --run-file F` writes F whole or not at all: the lines go to a temp file renamed
 * into place once every question is searched. Before, F was opened and written in place, so while
 * the evaluation ran a reader (`eval run F`, trec_eval) saw part of a run, and a command stopped
 * midway (Ctrl-C, an error; kill -9 left 990 of 1,195 topics, ending on a whole line) left F as a
 * run of the topics searched so far — which `eval run F` evaluated as such, exit 0 — with the
 * earlier complete F gone.
 *
 * A temp file a killed writer left is removed by the next writer of that file.
 *
 * Data: the 1,149 Bar Exam passages (bm25) and the 124 val questions; the second evaluation is
 * stopped by its signal after 40 questions.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadPassages } from '../corpora/registry.js';
import { buildIndex } from '../indexer/build.js';
import { closeSparseIndexes } from '../retrieval/open.js';
import { evalRetrievalOnIndex } from './retrieval-eval-index.js';

const dir = mkdtempSync(join(tmpdir(), 'lexcase-run-file-atomic-'));
const index = join(dir, 'idx');
const runFile = join(dir, 'out', 'bm25.run');
beforeAll(async () => {
  await buildIndex(loadPassages('barexam'), { out: index, methods: ['bm25'], workers: 0 });
}, 120_000);
afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

it('a run file is never seen in part: while an evaluation writes it, and after one stopped midway, it is the earlier complete run', async () => {
  // what a writer killed with SIGKILL leaves (pid 4194302: no such process): removed by the next writer
  mkdirSync(join(dir, 'out'));
  writeFileSync(`${runFile}.tmp-4194302`, 'q1 Q0 mbe_1 1 3.000000 lexcase-bm25\n');
  await evalRetrievalOnIndex({ index, methods: ['bm25'], split: 'val', iterations: 10, runFile });
  expect(readdirSync(join(dir, 'out'))).toEqual(['bm25.run']);
  const complete = readFileSync(runFile, 'utf8');
  expect(
    new Set(
      complete
        .trim()
        .split('\n')
        .map((l) => l.split(' ')[0]),
    ).size,
  ).toBe(124);

  const stop = new AbortController();
  let during: string | undefined;
  const stopped = evalRetrievalOnIndex({
    index,
    methods: ['bm25'],
    split: 'val',
    iterations: 10,
    runFile,
    signal: stop.signal,
    onProgress: (_m, done) => {
      if (done !== 40) return;
      during = readFileSync(runFile, 'utf8');
      stop.abort();
    },
  });
  await expect(stopped).rejects.toThrow();
  expect(during === complete).toBe(true);
  expect(readFileSync(runFile, 'utf8') === complete).toBe(true);
  expect(readdirSync(join(dir, 'out'))).toEqual(['bm25.run']);
}, 120_000);
