/**
 * `lexcase reproduce case-table3` offline (retrieval grid on a small real index: gold passages of
 * the first val questions + legal_corpus), resume, and `--shard` + `lexcase merge` equal to the
 * unsharded run item for item; merge refuses missing shards, duplicates, damaged copies and a shard
 * whose seeds were derived otherwise (an older lexcase's).
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadQuestions } from '../../../corpora/registry.js';
import { readManifest } from '../../../indexer/manifest.js';
import { closeSparseIndexes } from '../../../retrieval/open.js';
import { runCli } from '../../../tests/support/run-cli.js';
import { cliChild } from '../../../tests/support/cli-child.js';
import { treeOf } from '../../../tests/support/tree-snapshot.js';
import { buildSmallBarexamIndex } from '../../../tests/support/small-barexam-index.js';
import { lockReproductionDir } from '../../../eval/reproduce/run-grid.js';

let dir: string;
let index: string;
const cli = (...args: string[]) => runCli(args);
const LIMIT = 7;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-reproduce-'));
  index = join(dir, 'idx');
  // gold passages of only the first 4 of the LIMIT val questions, so recall differs across items
  await buildSmallBarexamIndex(index, { items: 4, corpus: 400 });
}, 60_000);

afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

const records = (runDir: string, run: string) =>
  readFileSync(join(runDir, 'runs', run, 'results.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const { ms: _ms, tokens: _t, ...rest } = JSON.parse(l);
      return rest;
    });
const table = (d: string) => JSON.parse(readFileSync(join(d, 'table.json'), 'utf8'));

/** case-table3 cut to its bm25 run and row, with `edit` applied, written to a file of the test dir. */
function recipeVariant(name: string, edit: (r: any) => void): string {
  const r = JSON.parse(readFileSync(join(import.meta.dirname, '../../../recipes/case-table3.json'), 'utf8'));
  r.runs = r.runs.filter((x: { id: string }) => x.id === 'bm25');
  r.rows = r.rows.slice(0, 1);
  edit(r);
  const f = join(dir, `${name}.json`);
  writeFileSync(f, JSON.stringify(r));
  return f;
}

describe('recipe mistakes are errors, not numbers (issue 26, item 11)', () => {
  it('a misspelled metric key (stat mean or ratio) stops with the field, the run and the keys it has', async () => {
    const mean = recipeVariant('typo-mean', (r) => (r.rows[0].cells[0].metric = { stat: 'mean', key: 'recal@10' }));
    const a = await cli('reproduce', mean, '--limit', String(LIMIT), '--index', index, '--run-dir', join(dir, 'typo-mean'));
    expect(a.code).toBe(1);
    expect(a.stderr).toMatch(
      /recipe case-table3: rows\[0\]\.cells\[0\]\.metric\.key: no result of run "bm25" has a metric "recal@10"; did you mean "recall@10"\? its results have: firstRank, goldInIndex, recall@10, recall@100, recall@1000/,
    );
    // The runs are kept: with the key fixed, the table is written without running anything again.
    const ratio = recipeVariant('typo-ratio', (r) => (r.rows[0].cells[0].metric = { stat: 'ratio', num: 'recall@10', den: 'fristRank' }));
    const b = await cli('reproduce', ratio, '--limit', String(LIMIT), '--index', index, '--run-dir', join(dir, 'typo-mean'));
    expect(b.code).toBe(1);
    expect(b.stderr).toMatch(/metric\.den: no result of run "bm25" has a metric "fristRank"; did you mean "firstRank"\?/);
    expect(b.stdout).not.toMatch(/0\.0000 \[0\.0000, 0\.0000\]/);
  }, 60_000);

  it('a retrieval run whose method is "__proto__" (or any non-method) is refused when the recipe is read', async () => {
    const f = recipeVariant('proto', (r) => (r.runs[0].args.method = '__proto__'));
    const r = await cli('reproduce', f, '--limit', String(LIMIT), '--index', index, '--run-dir', join(dir, 'proto'));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /proto\.json: recipe field runs\[0\]\.args\.method: "__proto__" is not a retrieval method; known: bm25, qld, wink, dense, hybrid, lancedb-fts/,
    );
    expect(existsSync(join(dir, 'proto'))).toBe(false);
  });
});

describe('a recipe given by path', () => {
  it('the rerun commands (table.md, reproduction.json argv, a merge of its shards) name the file, not the bundled recipe of its id', async () => {
    const f = recipeVariant('own-recipe', (r) => (r.rows[0].cells[0].paper = 0.5));
    const out = join(dir, 'own-recipe-run');
    expect((await cli('reproduce', f, '--limit', String(LIMIT), '--index', index, '--run-dir', out)).code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, 'reproduction.json'), 'utf8')).argv.slice(0, 2)).toEqual(['reproduce', f]);
    const md = readFileSync(join(out, 'table.md'), 'utf8');
    expect(md).toContain(`lexcase reproduce ${f} --only bm25`);
    expect(md).not.toContain('lexcase reproduce case-table3 --only');
    const [s1, s2] = ['own-s1', 'own-s2'].map((d) => join(dir, d));
    for (const [i, s] of [s1, s2].entries())
      expect((await cli('reproduce', f, '--limit', String(LIMIT), '--index', index, '--shard', `${i + 1}/2`, '--run-dir', s)).code).toBe(0);
    const merged = join(dir, 'own-merged');
    expect((await cli('merge', merged, s1, s2, '--recipe', f)).code).toBe(0);
    expect(JSON.parse(readFileSync(join(merged, 'reproduction.json'), 'utf8')).argv.slice(0, 2)).toEqual(['reproduce', f]);
  }, 60_000);
});

describe('lexcase reproduce (no recipe, no endpoint)', () => {
  it('lists the recipes, marking which need an endpoint', async () => {
    const r = await cli('reproduce');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^case-table3\s+\(offline\)\s+CASE.*Table 3/m);
    expect(r.stdout).toMatch(/^acal-table4\s+\(endpoint\)/m);
    expect(r.stdout.trim().split('\n')).toHaveLength(11);
    expect(r.stdout).toMatch(/^anserini-cacm\s+\(offline\)/m);
  });

  it('stops at once, saying how to configure one, when an LLM recipe has no endpoint', async () => {
    for (const v of ['LEXCASE_LLM_BASE_URL', 'OPENAI_BASE_URL', 'LEXCASE_LLM_MODEL']) vi.stubEnv(v, undefined as unknown as string);
    try {
      const r = await cli('reproduce', 'acal-table4', '--limit', '2', '--run-dir', join(dir, 'no-llm'));
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('this command needs an LLM, and no endpoint is configured');
      expect(existsSync(join(dir, 'no-llm'))).toBe(false);
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('lexcase reproduce case-table3 (offline)', () => {
  it("prints the paper's numbers beside lexcase's, with CI and n, and marks the dense row failed on an index without dense", async () => {
    const out = join(dir, 'full');
    const r = await cli('reproduce', 'case-table3', '--limit', String(LIMIT), '--index', index, '--run-dir', out);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/\| BM25-RAG † \| paper 0\.0000 · lexcase \d\.\d{4} \[\d\.\d{4}, \d\.\d{4}\] 95% Wilson n=7 \|/);
    expect(r.stdout).toContain('856,835');
    const t = table(out);
    expect(t).toMatchObject({ recipe: 'case-table3', columns: ['Recall@10', 'Recall@100', 'Recall@1000'], limit: LIMIT });
    const bm25 = t.rows[0].cells;
    expect(bm25.map((c: { paper: number }) => c.paper)).toEqual([0, 0.0323, 0.1048]);
    for (const c of bm25) {
      expect(c.n).toBe(LIMIT);
      expect(c.method).toBe('95% Wilson'); // a 0/1 hit per question: a proportion
      expect(c.ci[0]).toBeLessThanOrEqual(c.value);
      expect(c.ci[1]).toBeGreaterThanOrEqual(c.value);
      expect(c.outsideCi).toBeNull(); // not comparable: no flag
    }
    // the per-item hits behind the value: 4 of 7 questions have their gold passage in this index
    const hits = records(out, 'bm25').map((x) => x.metrics['recall@1000']);
    expect(bm25[2].value).toBeCloseTo(hits.reduce((a: number, b: number) => a + b, 0) / LIMIT, 4);
    expect(hits.filter((h: number) => h === 1).length).toBeLessThanOrEqual(4);
    expect(t.rows[2].cells[0]).toMatchObject({ value: null, status: 'failed' });
    expect(t.runs.find((s: { id: string }) => s.id === 'dense').error).toMatch(/method "dense" is not available/);
    // resume: a second call redoes nothing and writes the same table
    const again = await cli('--json', 'reproduce', 'case-table3', '--limit', String(LIMIT), '--index', index, '--run-dir', out);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).table.rows).toEqual(t.rows);
    expect(records(out, 'bm25')).toHaveLength(LIMIT);
    expect(again.stderr).not.toContain('does not match checksums.json');
  }, 60_000);

  it('a done run whose results.jsonl was edited after the reproduction finished: the rerun says so before its table counts the edit (it said only "already done")', async () => {
    const out = join(dir, 'edited');
    expect((await cli('reproduce', 'case-table3', '--limit', String(LIMIT), '--index', index, '--run-dir', out, '--only', 'bm25')).code).toBe(0);
    const before = table(out).rows[0].cells[0].value as number;
    const f = join(out, 'runs', 'bm25', 'results.jsonl');
    const lines = readFileSync(f, 'utf8').split('\n').filter(Boolean);
    const i = lines.findIndex((l) => JSON.parse(l).metrics['recall@10'] === 0);
    expect(i).toBeGreaterThanOrEqual(0);
    lines[i] = lines[i].replace('"recall@10":0', '"recall@10":1');
    writeFileSync(f, `${lines.join('\n')}\n`);
    const r = await cli('reproduce', 'case-table3', '--limit', String(LIMIT), '--index', index, '--run-dir', out, '--only', 'bm25');
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(
      /runs\/bm25\/results\.jsonl does not match checksums\.json \(sha256 [0-9a-f]{12}, recorded [0-9a-f]{12}\): it changed after this reproduction last finished/,
    );
    expect(table(out).rows[0].cells[0].value).toBeCloseTo(before + 1 / LIMIT, 4);
  }, 60_000);

  it('shard 1/2 + shard 2/2, merged, equal the unsharded run item for item', async () => {
    const full = join(dir, 'full');
    const s1 = join(dir, 's1');
    const s2 = join(dir, 's2');
    expect((await cli('reproduce', 'case-table3', '--limit', String(LIMIT), '--index', index, '--shard', '1/2', '--run-dir', s1)).code).toBe(0);
    expect((await cli('reproduce', 'case-table3', '--limit', String(LIMIT), '--index', index, '--shard', '2/2', '--run-dir', s2)).code).toBe(0);
    expect(records(s1, 'bm25')).toHaveLength(4);
    expect(records(s2, 'bm25')).toHaveLength(3);
    const merged = join(dir, 'merged');
    const m = await cli('merge', merged, s2, s1);
    expect(m.code).toBe(0);
    for (const run of ['bm25', 'qld']) expect(records(merged, run)).toEqual(records(full, run));
    const tm = table(merged);
    expect(tm.rows).toEqual(table(full).rows);
    expect(tm.shard).toBeNull();
    expect(existsSync(join(merged, 'runs', 'bm25', 'traces'))).toBe(true);
    // the merged config.json: the merged item count, and every shard's results checksum (as its checksums.json recorded it)
    const cfgOf = (d: string) => JSON.parse(readFileSync(join(d, 'runs', 'bm25', 'config.json'), 'utf8'));
    const mc = cfgOf(merged);
    expect(mc.mergedItems).toBe(LIMIT);
    expect(cfgOf(full).provenance.contentChecksum).toMatch(/^sha256:/);
    expect(mc.provenance).toMatchObject({
      items: LIMIT,
      datasetChecksum: cfgOf(full).provenance.datasetChecksum,
      contentChecksum: cfgOf(full).provenance.contentChecksum,
    });
    expect(mc.mergedFrom.map((x: { items: number }) => x.items).sort()).toEqual([3, 4]);
    for (const x of mc.mergedFrom) {
      const shardDir = x.shard.index === 1 ? s1 : s2;
      expect(x.resultsSha256).toBe(JSON.parse(readFileSync(join(shardDir, 'checksums.json'), 'utf8'))['runs/bm25/results.jsonl']);
    }
  }, 60_000);

  it("a retrieval run over an index without some questions' gold passages warns with their count, and the table notes count them and give the passages of the index searched (also merged from shards)", async () => {
    const passages = (await readManifest(index)).corpus.passages;
    const val = (await loadQuestions('barexam', 'val')).slice(0, LIMIT);
    const base = ['reproduce', 'case-table3', '--limit', String(LIMIT), '--index', index, '--only', 'bm25'];
    const [one, s1, s2, merged] = ['gm-full', 'gm-s1', 'gm-s2', 'gm-merged'].map((d) => join(dir, d));
    const r = await cli(...base, '--run-dir', one);
    expect(r.code).toBe(0);
    // the index holds the gold passages of the first 4 of the 7 questions (beforeAll): 3 can only miss
    const missing = val.slice(4).map((q) => q.id);
    expect(r.stderr).toContain(
      `retrieval bm25: 3 of ${LIMIT} questions have no gold passage in index ${index} (test, ${passages.toLocaleString('en-US')} passages; e.g. `,
    );
    expect(
      records(one, 'bm25')
        .filter((x) => x.metrics.goldInIndex === false)
        .map((x) => x.id)
        .sort(),
    ).toEqual([...missing].sort());
    const note = `Run bm25 searched the index of corpus "test" (${passages.toLocaleString('en-US')} passages); 3 of ${LIMIT} questions have no gold passage in it (e.g. `;
    expect(table(one).notes.find((n: string) => n.startsWith('Run bm25'))).toContain(note);
    expect(readFileSync(join(one, 'table.md'), 'utf8')).toContain(note);
    await cli(...base, '--shard', '1/2', '--run-dir', s1);
    await cli(...base, '--shard', '2/2', '--run-dir', s2);
    expect((await cli('merge', merged, s1, s2)).code).toBe(0);
    expect(table(merged).notes).toEqual(table(one).notes);
  }, 60_000);

  it('merge: a run no shard was asked to run (--only) is "not run", as unsharded; one a shard was asked to run and could not stays failed', async () => {
    const base = ['reproduce', 'case-table3', '--limit', String(LIMIT), '--index', index, '--only', 'bm25,dense'];
    const [full, s1, s2, merged] = ['only-full', 'only-s1', 'only-s2', 'only-merged'].map((d) => join(dir, d));
    await cli(...base, '--run-dir', full);
    await cli(...base, '--shard', '1/2', '--run-dir', s1);
    await cli(...base, '--shard', '2/2', '--run-dir', s2);
    const m = await cli('--json', 'merge', merged, s1, s2);
    expect(m.code, m.stderr).toBe(0);
    const status = (t: { rows: { cells: { run: string; status: string }[] }[] }) =>
      Object.fromEntries(t.rows.flatMap((r) => r.cells.map((c) => [c.run, c.status])));
    expect(status(table(full))).toEqual({ bm25: 'done', qld: 'not run', dense: 'failed' });
    expect(status(table(merged))).toEqual(status(table(full)));
    expect(table(merged).rows).toEqual(table(full).rows);
    expect(JSON.parse(m.stdout).runs.map((r: { id: string; status: string }) => [r.id, r.status])).toEqual([
      ['bm25', 'done'],
      ['qld', 'not run'],
      ['dense', 'failed'],
    ]);
  }, 60_000);

  it('merge refuses a missing shard, the same shard twice, and a results file changed after its run', async () => {
    const s1 = join(dir, 's1');
    const s2 = join(dir, 's2');
    expect((await cli('merge', join(dir, 'm1'), s1)).stderr).toMatch(/shard 2\/2 missing/);
    expect((await cli('merge', join(dir, 'm2'), s1, s1)).stderr).toMatch(/is shard 1\/2 again/);
    const bad = join(dir, 's2-bad');
    cpSync(s2, bad, { recursive: true });
    const f = join(bad, 'runs', 'bm25', 'results.jsonl');
    writeFileSync(f, readFileSync(f, 'utf8').split('\n').slice(1).join('\n'));
    const r = await cli('merge', join(dir, 'm3'), s1, bad);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/runs\/bm25\/results\.jsonl does not match its checksum/);
    // the same shorter file with a matching checksum: the item is missing, and merge says which
    const sums = JSON.parse(readFileSync(join(bad, 'checksums.json'), 'utf8'));
    sums['runs/bm25/results.jsonl'] = createHash('sha256').update(readFileSync(f)).digest('hex');
    writeFileSync(join(bad, 'checksums.json'), JSON.stringify(sums));
    const dropped = JSON.parse(readFileSync(join(s2, 'runs', 'bm25', 'results.jsonl'), 'utf8').split('\n')[0]).id;
    const r2 = await cli('merge', join(dir, 'm4'), s1, bad);
    expect(r2.stderr).toContain(`item "${dropped}" has no result (missing item)`);
    expect(r2.stderr).toContain('--shard 2/2');
    // a shard an older lexcase ran (no seedDerivation: its items' seeds were derived otherwise): refused, like any other config difference
    const old = join(dir, 's2-old');
    cpSync(s2, old, { recursive: true });
    const cfgFile = join(old, 'runs', 'bm25', 'config.json');
    const cfg = JSON.parse(readFileSync(cfgFile, 'utf8'));
    expect(cfg.config.seedDerivation).toBe('fnv1a-fmix32');
    delete cfg.config.seedDerivation;
    writeFileSync(cfgFile, JSON.stringify(cfg));
    const r3 = await cli('merge', join(dir, 'm5'), s1, old);
    expect(r3.code).toBe(1);
    expect(r3.stderr).toMatch(
      /has a different config\.json than .* \(field "seedDerivation" differs: seedDerivation "fnv1a-fmix32" there, \(unset\) here\): .*run the shard again into a new --run-dir/,
    );
  }, 60_000);

  it('a reproduction dir is locked while a reproduce writes it: a second reproduce gets LOCKED and writes nothing; two started at once never double-write (child processes)', async () => {
    // Another live process holds the dir (the lock a running `lexcase reproduce` takes).
    const held = join(dir, 'held');
    mkdirSync(held);
    const lock = lockReproductionDir(held, 'reproduce case-table3');
    const args = (out: string) => ['reproduce', 'case-table3', '--limit', String(LIMIT), '--index', index, '--run-dir', out];
    try {
      const r = await cliChild(args(held));
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`held is locked: .*reproduce case-table3.*pid ${process.pid}`));
      expect(readdirSync(held)).toEqual(['reproduce.lock']);
    } finally {
      lock.release();
    }
    expect((await cliChild(args(held))).code).toBe(0);
    // Two at once: whichever comes second either finds the lock (LOCKED) or the finished reproduction
    // (resumes, redoing nothing); either way each run holds one line per item.
    const race = join(dir, 'race');
    const [a, b] = await Promise.all([cliChild(args(race)), cliChild(args(race))]);
    expect([a.code, b.code]).toContain(0);
    for (const x of [a, b]) if (x.code !== 0) expect(x.stderr).toMatch(/is locked: .*reproduce case-table3/);
    expect(records(race, 'bm25')).toHaveLength(LIMIT);
    expect(new Set(records(race, 'bm25').map((x: { id: string }) => x.id)).size).toBe(LIMIT);
    expect(existsSync(join(race, 'reproduce.lock'))).toBe(false);
  }, 180_000);

  // `merge .` runs in a child process (its own working directory); the other merges here (an error
  // or a table, the same in a process) in this one: each child paid ~1.9 s of CPU to load merge
  it('merge writes only into a new or empty dir: OUT holding a run and notes, and `merge .` (child process), are refused and left as they were', async () => {
    const s1 = join(dir, 's1');
    const s2 = join(dir, 's2');
    // OUT holds a user's earlier run of the same id and their notes (issue 26, item 3).
    const busy = join(dir, 'busy');
    cpSync(join(s1, 'runs'), join(busy, 'runs'), { recursive: true });
    writeFileSync(join(busy, 'notes.md'), 'my notes\n');
    const before = treeOf(busy);
    const r = await cli('merge', busy, s1, s2);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/refusing to write the merged reproduction to .*busy: it is a non-empty directory \(it holds notes\.md, runs\)/);
    expect(treeOf(busy)).toEqual(before);
    const work = join(dir, 'work');
    mkdirSync(work);
    writeFileSync(join(work, 'thesis.txt'), 'mine\n');
    const dot = await cliChild(['merge', '.', s1, s2], { cwd: work });
    expect(dot.code).toBe(1);
    expect(dot.stderr).toMatch(/refusing to write the merged reproduction to \.: it is the working directory/);
    expect(readdirSync(work)).toEqual(['thesis.txt']);
    // A shard dir itself is refused too; an empty dir is fine.
    expect((await cli('merge', s1, s1, s2)).stderr).toMatch(/refusing to write the merged reproduction to .*s1/);
    const empty = join(dir, 'empty-out');
    mkdirSync(empty);
    const ok = await cli('merge', empty, s1, s2);
    expect(ok.code).toBe(0);
    expect(records(empty, 'bm25')).toEqual(records(join(dir, 'merged'), 'bm25'));
    expect(existsSync(join(empty, 'reproduce.lock'))).toBe(false);
  }, 180_000);
});
