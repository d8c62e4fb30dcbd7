/**
 * A `reproduce` retrieval run records what its index holds (config.json `indexContent`: corpus
 * checksum, analyzer, dense vector settings), as agent runs do: a resume over the same --index path
 * rebuilt with another analyzer is refused instead of reporting the old index's figures as the new
 * one's, shards over two such indexes do not merge, and a run dir written before the field resumes
 * with a warning. The command table.md prints to rerun a cell, and the whole grid's command
 * (reproduction.json `argv`), keep the --index and the run dir.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPassages, loadQuestions } from '../../corpora/registry.js';
import type { Passage } from '../../corpora/types.js';
import { buildIndex } from '../../indexer/build.js';
import { addDenseIndex } from '../../indexer/dense/add-dense.js';
import { readManifest } from '../../indexer/manifest.js';
import { recordedIndex } from './retrieval-run.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { runCli } from '../../tests/support/run-cli.js';

const LIMIT = 4;
const TINY_BERT = join(import.meta.dirname, '../../tests/fixtures/tiny-embedder/tiny-bert');
let dir: string;
/** The same passages, indexed with the default analyzer (porter) and with stemmer=none. */
let porter: string;
let unstemmed: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-reproduce-index-content-'));
  const gold = new Set((await loadQuestions('barexam', 'val')).slice(0, LIMIT).flatMap((q) => q.goldPassageIds));
  const passages: Passage[] = [];
  for await (const p of loadPassages('barexam')) if (gold.has(p.id)) passages.push(p);
  let n = 0;
  for await (const p of loadPassages('legal_corpus')) if (n++ < 300) passages.push(p);
  const build = (out: string, analyzer: { stemmer?: 'none' }) =>
    buildIndex(
      (async function* () {
        yield* passages;
      })(),
      { out, corpusName: 'test', workers: 0, analyzer },
    );
  porter = join(dir, 'idx');
  unstemmed = join(dir, 'idx-nostem');
  await build(porter, {});
  await build(unstemmed, { stemmer: 'none' });
}, 60_000);

afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

const reproduce = (index: string, runDir: string, ...more: string[]) =>
  runCli(['reproduce', 'case-table3', '--limit', String(LIMIT), '--only', 'bm25', '--index', index, '--run-dir', runDir, ...more]);
const configOf = (runDir: string) => JSON.parse(readFileSync(join(runDir, 'runs', 'bm25', 'config.json'), 'utf8'));

describe('reproduce retrieval runs over an index rebuilt with another analyzer', () => {
  it('the resume is refused (field "indexContent" differs) and the run keeps its results', async () => {
    const rp = join(dir, 'rp1');
    const first = await reproduce(porter, rp);
    expect(first.code, first.stderr).toBe(0);
    expect(configOf(rp).config.indexContent).toMatchObject({ corpus: 'test', analyzer: { stemmer: 'porter' } });

    const results = readFileSync(join(rp, 'runs', 'bm25', 'results.jsonl'), 'utf8');
    const again = await reproduce(unstemmed, rp);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(
      /run bm25 failed: run .*rp1\/runs\/bm25: was started with a different config \(field "indexContent" differs: indexContent\.analyzer\.stemmer "porter" recorded, "none" now\); use a new run dir/,
    );
    expect(again.stderr).not.toMatch(/already done/);
    expect(readFileSync(join(rp, 'runs', 'bm25', 'results.jsonl'), 'utf8')).toBe(results);
  }, 60_000);

  it('a run dir written before indexContent was recorded resumes with a warning, and records it from then on', async () => {
    const rp = join(dir, 'rp-old');
    expect((await reproduce(porter, rp)).code).toBe(0);
    const file = join(rp, 'runs', 'bm25', 'config.json');
    const old = configOf(rp);
    delete old.config.indexContent;
    writeFileSync(file, JSON.stringify(old));
    const r = await reproduce(porter, rp);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/\[warn\] .*config\.json was written by an older lexcase and does not record indexContent/);
    expect(r.stderr).toMatch(/resuming .*rp-old\/runs\/bm25: 4 of 4 items already done/);
    expect(configOf(rp).resumes.at(-1).unchecked).toEqual(['indexContent']);
    expect(configOf(rp).config.indexContent).toMatchObject({ analyzer: { stemmer: 'porter' } });
  }, 60_000);

  it('merge refuses shards that searched the two indexes, naming the field', async () => {
    const [s1, s2, same2] = ['s1', 's2', 's2-same'].map((d) => join(dir, d));
    expect((await reproduce(porter, s1, '--shard', '1/2')).code).toBe(0);
    expect((await reproduce(unstemmed, s2, '--shard', '2/2')).code).toBe(0);
    const m = await runCli(['merge', join(dir, 'merged'), s1, s2]);
    expect(m.code).toBe(1);
    expect(m.stderr).toMatch(
      /s2\/runs\/bm25: has a different config\.json than .*s1\/runs\/bm25 \(field "indexContent" differs: indexContent\.analyzer\.stemmer "porter" there, "none" here\)/,
    );
    // shard 2/2 over the same index as shard 1/2: merged
    expect((await reproduce(porter, same2, '--shard', '2/2')).code).toBe(0);
    expect((await runCli(['merge', join(dir, 'merged-ok'), s1, same2])).code).toBe(0);
  }, 60_000);

  it('merge refuses shards that sent other prompts (config.json `prompts`), naming the part', async () => {
    const [s1, same2] = ['s1', 's2-same'].map((d) => join(dir, d));
    const other = join(dir, 's2-prompts');
    cpSync(same2, other, { recursive: true });
    const set = (shard: string, answer: string) => {
      const file = join(shard, 'runs', 'bm25', 'config.json');
      const cfg = JSON.parse(readFileSync(file, 'utf8'));
      cfg.config.prompts = { sha256: answer.repeat(64), parts: { answer: answer.repeat(16) } };
      writeFileSync(file, JSON.stringify(cfg));
    };
    set(s1, 'a');
    set(other, 'b');
    const m = await runCli(['merge', join(dir, 'merged-prompts'), s1, other]);
    expect(m.code).toBe(1);
    expect(m.stderr).toMatch(
      /s2-prompts\/runs\/bm25: has a different config\.json than .*s1\/runs\/bm25 \(field "prompts" differs: prompts\.sha256; prompts\.parts\.answer "a{16}" there, "b{16}" here\)/,
    );
  }, 60_000);
});

describe('vectors added to the index after a sparse run', () => {
  it("a rerun resumes the bm25 run (it never reads the vectors: the bundled index gains them when a reproduction's dense run loads the prebuilt ones); a dense run records them", async () => {
    const idx = join(dir, 'idx-gains-dense');
    cpSync(porter, idx, { recursive: true });
    const rp = join(dir, 'rp-dense-later');
    const first = await reproduce(idx, rp);
    expect(first.code, first.stderr).toBe(0);
    const before = configOf(rp).config;
    expect(before.index.methods).toEqual(['bm25', 'qld']);
    await addDenseIndex(idx, { embedder: { provider: 'transformers', modelDir: TINY_BERT }, batchSize: 64 });
    const again = await reproduce(idx, rp);
    expect(again.code, again.stderr).toBe(0); // before: "run bm25 failed: … (field "index" differs)", its cells "— (failed)"
    expect(again.stderr).toMatch(/already done/);
    expect(configOf(rp).config.index).toEqual(before.index);
    expect(configOf(rp).config.indexContent.dense).toBeUndefined();
    // a run dir an older lexcase wrote over the index with vectors listed dense among its methods:
    // it resumes (with the warning that says what it cannot check)
    const old = join(dir, 'rp-old-methods');
    cpSync(rp, old, { recursive: true });
    const cfgFile = join(old, 'runs', 'bm25', 'config.json');
    const cfg = JSON.parse(readFileSync(cfgFile, 'utf8'));
    cfg.config.index.methods = ['bm25', 'qld', 'dense'];
    writeFileSync(cfgFile, JSON.stringify(cfg));
    const oldAgain = await reproduce(idx, old);
    expect(oldAgain.code, oldAgain.stderr).toBe(0);
    expect(oldAgain.stderr).toMatch(/does not record index\.methods \(the methods of the index a bm25 or qld run reads/);
    // what a dense run reads is recorded: its record names the vectors
    const { index, indexContent } = recordedIndex(await readManifest(idx), 'dense');
    expect(index.methods).toEqual(['bm25', 'qld', 'dense']);
    expect(indexContent.dense).toMatchObject({ embedder: 'transformers' });
  }, 120_000);
});

describe('the command table.md prints to rerun a retrieval cell', () => {
  it('names the --index it searched, the reproduction dir and the shard, not only the recipe (which would search the bundled index)', async () => {
    const [rp, shard] = ['rp-cmd', 'rp-cmd-s2'].map((d) => join(dir, d));
    expect((await reproduce(unstemmed, rp)).code).toBe(0);
    expect(readFileSync(join(rp, 'table.md'), 'utf8')).toContain(
      `\`lexcase reproduce case-table3 --only bm25 --index ${unstemmed} --run-dir ${rp} --limit ${LIMIT}\``,
    );
    expect((await reproduce(unstemmed, shard, '--shard', '2/2')).code).toBe(0);
    expect(readFileSync(join(shard, 'table.md'), 'utf8')).toContain(
      `\`lexcase reproduce case-table3 --only bm25 --index ${unstemmed} --run-dir ${shard} --shard 2/2 --limit ${LIMIT}\``,
    );
  }, 60_000);

  it("the whole grid's command (reproduction.json argv, the explorer's first command) keeps --index, the run dir, the shard and --limit; a merge's is the unsharded one into the merged dir", async () => {
    const argvOf = (rp: string) => JSON.parse(readFileSync(join(rp, 'reproduction.json'), 'utf8')).argv;
    const [s1, s2, merged] = ['rp-whole-s1', 'rp-whole-s2', 'rp-whole-merged'].map((d) => join(dir, d));
    expect((await reproduce(unstemmed, s1, '--shard', '1/2')).code).toBe(0);
    expect(argvOf(s1)).toEqual(['reproduce', 'case-table3', '--index', unstemmed, '--run-dir', s1, '--shard', '1/2', '--limit', String(LIMIT)]);
    expect((await reproduce(unstemmed, s2, '--shard', '2/2')).code).toBe(0);
    expect((await runCli(['merge', merged, s1, s2])).code).toBe(0);
    expect(argvOf(merged)).toEqual(['reproduce', 'case-table3', '--index', unstemmed, '--run-dir', merged, '--limit', String(LIMIT)]);
  }, 60_000);
});

describe('reproduce retrieval runs record the split seed they drew with', () => {
  it('the default seed is recorded as 13, as `run case` records it (was null); a run dir that recorded null resumes with a warning and records 13 from then on', async () => {
    const rp = join(dir, 'rp-split-seed');
    expect((await reproduce(porter, rp)).code).toBe(0);
    const file = join(rp, 'runs', 'bm25', 'config.json');
    const old = configOf(rp);
    expect(old.config.splitSeed).toBe(13);
    // an older lexcase recorded null for the default seed: its run dir resumes, saying the seed was not recorded
    old.config.splitSeed = null;
    writeFileSync(file, JSON.stringify(old));
    const r = await reproduce(porter, rp);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/\[warn\] .*config\.json was written by an older lexcase and does not record splitSeed/);
    expect(r.stderr).toMatch(/resuming .*rp-split-seed\/runs\/bm25: 4 of 4 items already done/);
    expect(configOf(rp).resumes.at(-1).unchecked).toEqual(['splitSeed']);
    expect(configOf(rp).config.splitSeed).toBe(13);
  }, 60_000);

  it('shards a resume would accept together merge (one recorded null for the default seed, the other 13), either older, with a warning; a shard drawn with another seed is refused naming splitSeed', async () => {
    const [s1, s2] = ['ss-s1', 'ss-s2'].map((d) => join(dir, d));
    expect((await reproduce(porter, s1, '--shard', '1/2')).code).toBe(0);
    expect((await reproduce(porter, s2, '--shard', '2/2')).code).toBe(0);
    const setSeed = (shard: string, seed: number | null) => {
      const file = join(shard, 'runs', 'bm25', 'config.json');
      const cfg = JSON.parse(readFileSync(file, 'utf8'));
      cfg.config.splitSeed = seed;
      writeFileSync(file, JSON.stringify(cfg));
    };
    // shard 1 written by an older lexcase (null), then shard 2 older instead: before, RUN_INVALID … (field "splitSeed" differs: splitSeed null there, 13 here)
    for (const [old, now, out] of [
      [s1, s2, 'ss-merged-1'],
      [s2, s1, 'ss-merged-2'],
    ]) {
      setSeed(old, null);
      setSeed(now, 13);
      const m = await runCli(['merge', join(dir, out), s1, s2]);
      expect(m.code, m.stderr).toBe(0);
      expect(m.stderr).toContain(
        `[warn] merge: run bm25: ${old}/runs/bm25/config.json was written by an older lexcase and does not record splitSeed (the Bar Exam QA split's seed): the merge cannot check that its items were made with the same as ${now}/runs/bm25's`,
      );
      expect(configOf(join(dir, out)).mergeWarnings).toHaveLength(1);
      expect(
        readFileSync(join(dir, out, 'runs', 'bm25', 'results.jsonl'), 'utf8')
          .trim()
          .split('\n'),
      ).toHaveLength(LIMIT);
    }
    // another seed is a difference, whichever shard is older
    setSeed(s1, 13);
    setSeed(s2, 7);
    const m = await runCli(['merge', join(dir, 'ss-merged-7'), s1, s2]);
    expect(m.code).toBe(1);
    expect(m.stderr).toMatch(
      /ss-s2\/runs\/bm25: has a different config\.json than .*ss-s1\/runs\/bm25 \(field "splitSeed" differs: splitSeed 13 there, 7 here\)/,
    );
    setSeed(s1, null);
    expect((await runCli(['merge', join(dir, 'ss-merged-null-7'), s1, s2])).stderr).toMatch(/field "splitSeed" differs: splitSeed null there, 7 here/);
  }, 60_000);
});
