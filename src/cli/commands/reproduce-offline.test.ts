/**
 * `lexcase reproduce case-table3` offline (retrieval grid on a small real index: gold passages of
 * the first val questions + legal_corpus), resume, and `--shard` + `lexcase merge` equal to the
 * unsharded run item for item; merge refuses missing shards, duplicates and damaged copies.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadPassages, loadQuestions } from '../../../corpora/registry.js';
import type { Passage } from '../../../corpora/types.js';
import { buildIndex } from '../../../indexer/build.js';
import { closeSparseIndexes } from '../../../retrieval/open.js';
import { runCli } from '../../../tests/support/run-cli.js';

let dir: string;
let index: string;
const cli = (...args: string[]) => runCli(args);
const LIMIT = 7;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-reproduce-'));
  index = join(dir, 'idx');
  const val = (await loadQuestions('barexam', 'val')).slice(0, LIMIT);
  // gold passages of only some questions, so recall differs across items
  const gold = new Set(val.slice(0, 4).flatMap((q) => q.goldPassageIds));
  const passages: Passage[] = [];
  for await (const p of loadPassages('barexam')) if (gold.has(p.id)) passages.push(p);
  let n = 0;
  for await (const p of loadPassages('legal_corpus')) if (n++ < 400) passages.push(p);
  await buildIndex((async function* () { yield* passages; })(), { out: index, corpusName: 'test', workers: 0 });
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
    expect(r.stdout).toMatch(/\| BM25-RAG † \| paper 0\.0000 · lexcase \d\.\d{4} \[\d\.\d{4}, \d\.\d{4}\] n=7 \|/);
    expect(r.stdout).toContain('856,835');
    const t = table(out);
    expect(t).toMatchObject({ recipe: 'case-table3', columns: ['Recall@10', 'Recall@100', 'Recall@1000'], limit: LIMIT });
    const bm25 = t.rows[0].cells;
    expect(bm25.map((c: { paper: number }) => c.paper)).toEqual([0, 0.0323, 0.1048]);
    for (const c of bm25) {
      expect(c.n).toBe(LIMIT);
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
  }, 60_000);
});
