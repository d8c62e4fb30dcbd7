/**
 * The explorer over an index rebuilt in place while it runs refuses to answer from the index it
 * opened at start. Before, after `lexcase index build … --out DIR` replaced DIR, /api/search kept
 * the old analyzer's terms and scores and /api/eval/retrieval the old index's figures (bundled
 * default corpus, Bar Exam QA val, bm25 Recall@10 0.073 where the rebuilt index gives 0.048),
 * with no word. Now both answer an error naming the change (restart the server).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../../tests/support/run-cli.js';
import { startExplorer } from './server.js';

let dir: string;
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

it('search and retrieval eval after the index was rebuilt in place: an error naming the change, not the old index answers', async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-explorer-rebuilt-'));
  const index = join(dir, 'idx');
  expect((await runCli(['index', 'build', 'default', '--out', index, '--workers', '0', '--json'])).code).toBe(0);
  const s = await startExplorer({ index, port: 0 });
  try {
    const search = () => fetch(`${s.url}/api/search?q=${encodeURIComponent('the running of dogs')}&method=bm25&k=3`);
    const first = (await (await search()).json()) as { queryTerms: string[] };
    expect(first.queryTerms).toEqual(['run', 'dog']);
    expect((await fetch(`${s.url}/api/eval/retrieval?set=barexam:val&methods=bm25`)).status).toBe(200);
    expect((await runCli(['index', 'build', 'default', '--out', index, '--workers', '0', '--analyzer', 'stemmer=none,stopwords=none', '--json'])).code).toBe(0);
    for (const res of [await search(), await fetch(`${s.url}/api/eval/retrieval?set=barexam:val&methods=bm25`)]) {
      expect(res.status).not.toBe(200);
      const body = (await res.json()) as { error: string };
      expect(body.error).toMatch(/the index at idx changed on disk after this process opened it/);
      expect(body.error).not.toContain(dir); // no server path leaves the process
    }
  } finally {
    await s.close();
  }
}, 180_000);
