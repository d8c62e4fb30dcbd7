/**
 * A reproduction's retrieval run of a hybrid at a cutoff past its depth (recipe ks "10,2000", the
 * hybrid fusing each component's top 1000): Recall@2000 counts only passages some component ranks
 * within 1000, as `eval retrieval` warns. The run says so on stderr and the table's note says so
 * (from the run's config.json: its ks and the hybrid's depth), so a reader of table.md sees it.
 * Data: the first Bar Exam QA val questions, their gold passages + legal_corpus (bm25, qld, and dense
 * vectors from an OpenAI-compatible embedder on 127.0.0.1).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { runCli } from '../../tests/support/run-cli.js';
import { buildSmallBarexamIndex } from '../../tests/support/small-barexam-index.js';
import { startFakeEmbeddingServer, type FakeEmbeddingServer } from '../../tests/support/fake-embedding-server.js';

let dir: string;
let index: string;
let server: FakeEmbeddingServer;
const saved: Record<string, string | undefined> = {};

/** 8 dimensions: letter counts by char code mod 8, plus a constant (never a zero vector). */
const vectorOf = (text: string) => {
  const v = [1, 0, 0, 0, 0, 0, 0, 0];
  for (const c of text.toLowerCase()) if (c >= 'a' && c <= 'z') v[c.charCodeAt(0) % 8] += 1;
  return v;
};

/** case-table3 with one hybrid run at `ks` and its Recall@10 / Recall@2000 row. */
async function recipe(ks: string): Promise<string> {
  const r = JSON.parse(await readFile(join(import.meta.dirname, '../../recipes/case-table3.json'), 'utf8'));
  r.runs = [{ id: 'hybrid', system: 'retrieval', args: { method: 'hybrid', dataset: 'barexam', split: 'val', ks } }];
  r.columns = ks.split(',').map((k) => `Recall@${k}`);
  r.rows = [
    {
      label: 'Hybrid',
      comparable: false,
      cells: r.columns.map((c: string) => ({ column: c, paper: 0, run: 'hybrid', metric: { stat: 'mean', key: c.toLowerCase() } })),
    },
  ];
  const f = join(dir, `hybrid-${ks.replace(/,/g, '-')}.json`);
  await writeFile(f, JSON.stringify(r));
  return f;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-repro-hybrid-depth-'));
  index = join(dir, 'idx');
  await buildSmallBarexamIndex(index, { items: 5, corpus: 100 });
  server = await startFakeEmbeddingServer(vectorOf, 'letters');
  for (const [k, v] of Object.entries(server.env)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  const d = await runCli(['index', 'dense', index, '--embedder', 'openai', '--json']);
  expect(d.code, d.stderr).toBe(0);
}, 120_000);

afterEach(() => {
  process.exitCode = 0;
});

afterAll(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await server?.close();
  await closeSparseIndexes();
  await rm(dir, { recursive: true, force: true });
});

describe('reproduce: a hybrid retrieval run at a cutoff past its depth', () => {
  it('says Recall@2000 counts only passages a component ranks within its depth 1000 (stderr and table.md; it said nothing)', async () => {
    const runDir = join(dir, 'past');
    const r = await runCli(['reproduce', await recipe('10,2000'), '--limit', '5', '--index', index, '--run-dir', runDir]);
    expect(r.code, r.stderr).toBe(0);
    const what =
      "Recall@2000 is beyond the hybrid depth 1000: it fuses each component's top 1000 hits, so that figure counts only passages a component ranks within its top 1000";
    expect(r.stderr).toContain(`retrieval hybrid: ${what}`);
    const md = await readFile(join(runDir, 'table.md'), 'utf8');
    expect(md).toMatch(
      new RegExp(`- Run hybrid searched the index of corpus "test" \\([\\d,]+ passages\\); [^\\n]*\\. Its ${what.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.`),
    );
  }, 120_000);

  it('within the depth (ks 10,1000): no such note', async () => {
    const runDir = join(dir, 'within');
    const r = await runCli(['reproduce', await recipe('10,1000'), '--limit', '5', '--index', index, '--run-dir', runDir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/beyond the hybrid depth/);
    expect(await readFile(join(runDir, 'table.md'), 'utf8')).not.toMatch(/beyond the hybrid depth/);
  }, 120_000);
});
