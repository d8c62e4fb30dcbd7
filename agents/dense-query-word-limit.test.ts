/**
 * An agent run that searches a dense index whose word limit sets its query pieces (a use-lite index
 * built with --max-words under 64) records that limit (config.json `denseQueryWordLimit`:
 * { dense: 32 }; retrieval/dense-query.ts): an older lexcase embedded 64-word pieces there, of which
 * the embedder kept only the first 32 words, so a run dir it started may hold items searched with
 * another query vector. Resuming such a dir warns naming the field (eval/resume-unrecorded.ts).
 * `run mad --method dense` through the CLI and the real OpenAI client against a scripted server on
 * 127.0.0.1, on Bar Exam val questions over their gold passages and 150 legal-corpus passages.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { addDenseIndex } from '../indexer/dense/add-dense.js';
import { closeSparseIndexes } from '../retrieval/open.js';
import { runCli } from '../tests/support/run-cli.js';
import { useScriptedLlm } from '../tests/support/scripted-llm-env.js';
import { schemaFollowing, startScriptedServer } from '../tests/support/scripted-openai-server.js';
import { buildSmallBarexamIndex } from '../tests/support/small-barexam-index.js';

let dir = '';
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-dense-query-word-limit-'));
  await buildSmallBarexamIndex(join(dir, 'idx'), { items: 2 });
  await addDenseIndex(join(dir, 'idx'), { embedder: { provider: 'use-lite', maxWords: 32, workers: 0 } });
}, 180_000);
afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => vi.unstubAllEnvs());

const configOf = (runDir: string) => JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8'));

describe('agent runs over a dense index whose word limit sets the query pieces record it', () => {
  it('run mad --method dense over a use-lite --max-words 32 index records denseQueryWordLimit { dense: 32 } (bm25: none); resuming a dir without it warns naming it', async () => {
    const srv = await startScriptedServer(schemaFollowing());
    try {
      useScriptedLlm(srv.url);
      const mad = (method: string, runDir: string, limit: number) =>
        runCli([
          'run',
          'mad',
          '--method',
          method,
          '--split',
          'val',
          '--limit',
          String(limit),
          '--k',
          '2',
          '--index',
          join(dir, 'idx'),
          '--run-dir',
          runDir,
          '--no-cache',
        ]);
      const bm25 = join(dir, 'mad-bm25');
      expect((await mad('bm25', bm25, 1)).code).toBe(0);
      expect(configOf(bm25).config.denseQueryWordLimit).toBeUndefined();

      const dense = join(dir, 'mad-dense');
      const first = await mad('dense', dense, 1);
      expect(first.code, first.stderr).toBe(0);
      const cfg = configOf(dense);
      expect(cfg.config.denseQueryWordLimit).toEqual({ dense: 32 });
      // the dir as an older lexcase left it: 64-word query pieces, cut to 32 words by the embedder, nothing recorded
      delete cfg.config.denseQueryWordLimit;
      writeFileSync(join(dense, 'config.json'), JSON.stringify(cfg));
      const r = await mad('dense', dense, 2);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(
        /does not record denseQueryWordLimit \(the word limit each dense query is embedded in pieces of: an older lexcase embedded 64-word pieces/,
      );
      expect(r.stdout + r.stderr).toMatch(/ran 1, skipped 1/);
      const after = configOf(dense);
      expect(after.config.denseQueryWordLimit).toEqual({ dense: 32 });
      expect(after.resumes.at(-1).unchecked).toEqual(['denseQueryWordLimit']);
    } finally {
      await srv.close();
    }
  }, 180_000);
});
