/**
 * lexcase's lancedb-fts path at a scale beyond the demo corpus: 25,000 synthetic passages, through the
 * built `lexcase` in a child process (`index build … --methods bm25,lancedb-fts`, then `search --method
 * lancedb-fts`), as a user meets it.
 * Context: with LanceDB 0.31.0 on 2 cores the full-text index build deadlocked in the benchmark
 * (100K passages, and 20K in a standalone script) with Lance's default CPU pool (one thread per core);
 * indexer/dense/lance-env.ts sizes the pool to at least 4 threads. Lance's pool lives for the whole
 * process and starts once: run in-process, in the slow tier's shared workers (isolate: false), this
 * build shared a pool an earlier file had started and used, and it hung 120 s twice in CI (stop 47 and
 * 5e5bdc1) while it never hung in a fresh process. A child process gives it the pool a user's `lexcase`
 * gets. The hang was not reproducible at 25K in a fresh process, so this checks the path works at scale;
 * it is not a reproduction.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { syntheticPassagesSync, writeSyntheticJsonl } from '../bench/synthetic.js';
import { runBuiltCli } from '../tests/support/run-built-cli.js';

let dir: string;
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('builds a LanceDB full-text index over 25,000 passages and finds a passage by its own words', async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-fts-large-'));
  const corpus = join(dir, 'passages.jsonl');
  await writeSyntheticJsonl(corpus, { n: 25_000, seed: 7 });
  let i = 0;
  let target: { id: string; text: string } | undefined;
  for (const p of syntheticPassagesSync({ n: 25_000, seed: 7 }))
    if (i++ === 12_345) {
      target = p;
      break;
    }
  const idx = join(dir, 'idx');
  const built = await runBuiltCli(['index', 'build', corpus, '--out', idx, '--methods', 'bm25,lancedb-fts', '--workers', '0'], { cwd: dir });
  expect(built.code, built.stderr).toBe(0);
  const query = target!.text.split(/\s+/).slice(0, 12).join(' ');
  const found = await runBuiltCli(['search', query, '--index', idx, '--method', 'lancedb-fts', '-k', '10', '--json'], { cwd: dir });
  expect(found.code, found.stderr).toBe(0);
  const { hits } = JSON.parse(found.stdout) as { hits: { id: string }[] };
  expect(hits.map((h) => h.id)).toContain(target!.id);
}, 120_000);
