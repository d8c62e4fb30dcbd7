/**
 * The output-path rule (core/out-dir-rule.ts) for the files `search --topics` and `eval retrieval`
 * write, as a user meets it: the BUILT `lexcase` in a child process. Before the rule (717d8fa),
 * `search --topics t.tsv --index IX --run-file IX/manifest.json` exited 0 with TREC run lines in
 * place of the manifest (the index destroyed), and `eval retrieval` wrote its --out, --plot,
 * --run-file and --qrels-file into any index or run dir, or over the topics file it read. Now each
 * is one OUT_FILE_REFUSED line, exit 1, and the whole working tree is byte-identical afterwards;
 * so is `index dense IX --dense-uri` into another index (it overwrote that index's vectors).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPassages, loadQuestions } from '../../corpora/registry.js';
import { indexCorpus } from '../../indexer/index-corpus.js';
import { runExperiment } from '../../eval/runner.js';
import type { SystemContext } from '../../eval/types.js';
import { runBuiltCli } from '../../tests/support/run-built-cli.js';
import { treeOf } from '../../tests/support/tree-snapshot.js';

let dir: string;
const run = (...args: string[]) => runBuiltCli(args, { cwd: dir, env: { LEXCASE_PROGRESS: 'off' }, timeoutMs: 60_000 });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-out-paths-'));
  const val = (await loadQuestions('barexam', 'val')).slice(0, 6);
  const gold = new Set(val.flatMap((q) => q.goldPassageIds));
  const lines: string[] = [];
  for await (const p of loadPassages('barexam')) if (gold.has(p.id)) lines.push(JSON.stringify(p));
  let n = 0;
  for await (const p of loadPassages('legal_corpus')) if (n++ < 200) lines.push(JSON.stringify(p));
  writeFileSync(join(dir, 'passages.jsonl'), lines.join('\n') + '\n');
  writeFileSync(join(dir, 'topics.tsv'), val.map((q) => `${q.id}\t${q.question.replace(/\s+/g, ' ')}`).join('\n') + '\n');
  writeFileSync(join(dir, 'qrels.txt'), val.flatMap((q) => q.goldPassageIds.map((g) => `${q.id} 0 ${g} 1`)).join('\n') + '\n');
  // the index the commands read, a second index they do not read, and a finished run dir
  await indexCorpus(join(dir, 'passages.jsonl'), { out: join(dir, 'idx'), workers: 0 });
  await indexCorpus(join(dir, 'passages.jsonl'), { out: join(dir, 'other'), workers: 0 });
  const ctx = (): SystemContext => ({ seed: 0, tools: [], retrievers: {}, getPassage: async () => undefined, options: {} });
  await runExperiment({
    runDir: join(dir, 'runs', 'r1'),
    system: async () => ({ prediction: 'A', trace: {} }),
    items: val,
    gold: (q) => q.answer ?? 'A',
    makeContext: ctx,
    config: { system: 'fixed' },
    seed: 13,
  });
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('outputs of search and eval retrieval never land in an index or run dir, nor over what they read', () => {
  it.each([
    // the case: the manifest of the index searched
    [
      ['search', '--topics', 'topics.tsv', '--index', 'idx', '--run-file', 'idx/manifest.json'],
      /--run-file idx\/manifest\.json: it lies inside idx, which this command reads/,
    ],
    // over the topics file it reads
    [['search', '--topics', 'topics.tsv', '--index', 'idx', '--run-file', 'topics.tsv'], /--run-file topics\.tsv: it is topics\.tsv, which this command reads/],
    // one run file per method (run.bm25.txt, run.qld.txt), inside the index read
    [
      ['eval', 'retrieval', '--topics', 'topics.tsv', '--qrels', 'qrels.txt', '--index', 'idx', '--method', 'bm25,qld', '--run-file', 'idx/sparse/run.txt'],
      /--run-file idx\/sparse\/run\.bm25\.txt: it lies inside idx, which this command reads/,
    ],
    [
      ['eval', 'retrieval', '--topics', 'topics.tsv', '--qrels', 'qrels.txt', '--index', 'idx', '--out', 'qrels.txt'],
      /--out qrels\.txt: it is qrels\.txt, which this command reads/,
    ],
    [
      ['eval', 'retrieval', '--index', 'idx', '--split', 'val', '--iterations', '100', '--out', 'idx/manifest.json'],
      /--out idx\/manifest\.json: it lies inside idx, which this command reads/,
    ],
    // an index the command does not read, a run dir
    [
      ['eval', 'retrieval', '--index', 'idx', '--split', 'val', '--iterations', '100', '--plot', 'other/docs/recall.svg'],
      /--plot other\/docs\/recall\.svg: it lies inside a lexcase index \(.*other\); lexcase never writes into one/,
    ],
    [
      ['eval', 'retrieval', '--index', 'idx', '--split', 'val', '--iterations', '100', '--qrels-file', 'runs/r1/results.jsonl'],
      /--qrels-file runs\/r1\/results\.jsonl: it lies inside a lexcase run dir \(.*r1\)/,
    ],
    // dense vectors of one index written into another
    [
      ['index', 'dense', 'idx', '--embedder', 'use-lite', '--dense-uri', 'ABS/other/dense'],
      /refusing to write dense vectors to .*other\/dense: it lies inside a lexcase index \(.*other\)/,
    ],
    // two outputs of one command naming one file
    [
      ['eval', 'retrieval', '--index', 'idx', '--split', 'val', '--iterations', '100', '--out', 'same.out', '--plot', 'same.out'],
      /--plot same\.out: --out same\.out names the same file/,
    ],
  ])('%j', async (args, message) => {
    const before = treeOf(dir);
    const r = await run(...args.map((a) => a.replace(/^ABS\//, `${dir}/`)));
    expect(treeOf(dir)).toEqual(before);
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(/^\s+at .+[:(]/m);
  });

  it('a run file beside the index is written, and the index still searches', async () => {
    const r = await run('search', '--topics', 'topics.tsv', '--index', 'idx', '--run-file', 'out/run.txt', '-k', '5');
    expect(r.code, r.stderr).toBe(0);
    const s = await run('--json', 'search', 'hearsay exception', '--index', 'idx', '-k', '3');
    expect(s.code, s.stderr).toBe(0);
    expect(JSON.parse(s.stdout).hits).toHaveLength(3);
  });
});
