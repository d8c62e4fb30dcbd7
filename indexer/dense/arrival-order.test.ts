/**
 * An OpenAI-compatible embedding server whose replies carry no `index` field on their vectors: the
 * vectors can only be matched to passages in the order they came, and a server that reorders them
 * gives passages each other's vectors, which nothing can see. Before, a build warned once on stderr
 * and the index recorded nothing, so a later eval's figures over those vectors carried no trace
 * (helper audit). Now the manifest counts them (`dense.vectorsInArrivalOrder`), `index info` says
 * so, and what every run and report records of the index (`indexContent.dense.vectors`) carries it.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '../../core/log.js';
import { runCli } from '../../tests/support/run-cli.js';
import { BAREXAM_PASSAGES, bundledLines } from '../../tests/support/bundled-data.js';
import { startFakeEmbeddingServer, type FakeEmbeddingServer } from '../../tests/support/fake-embedding-server.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { buildIndex } from '../build.js';
import { indexContent } from '../manifest.js';
import { addDenseIndex } from './add-dense.js';

const letters = (t: string) => Array.from({ length: 6 }, (_, j) => [...t].filter((c) => c.charCodeAt(0) % 6 === j).length + 1);
const passages = bundledLines(BAREXAM_PASSAGES)
  .filter(Boolean)
  .slice(0, 20)
  .map((l) => ({ ...(JSON.parse(l) as { id: string; text: string }), source: 'barexam_qa' }));

let server: FakeEmbeddingServer;
let tmp: string;
const envBefore = process.env.LEXCASE_EMBED_BASE_URL;

async function denseIndex(name: string, omitIndex: boolean): Promise<{ dir: string; warned: string }> {
  const dir = join(tmp, name);
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: dir, corpusName: 'barexam-sample', methods: ['bm25'], workers: 0 },
  );
  server.omitIndex = omitIndex;
  const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
  try {
    await addDenseIndex(dir, { embedder: { provider: 'openai', model: 'local-embed' }, batchSize: 8 });
    return { dir, warned: warn.mock.calls.flat().join('\n') };
  } finally {
    warn.mockRestore();
  }
}

beforeAll(async () => {
  server = await startFakeEmbeddingServer(letters, 'local-embed');
  tmp = await mkdtemp(join(tmpdir(), 'lexcase-arrival-order-'));
  process.env.LEXCASE_EMBED_BASE_URL = server.url;
});
afterAll(async () => {
  if (envBefore === undefined) delete process.env.LEXCASE_EMBED_BASE_URL;
  else process.env.LEXCASE_EMBED_BASE_URL = envBefore;
  await closeSparseIndexes();
  await server?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('vectors an embedding server sent without index fields are recorded as matched in arrival order', () => {
  it('the manifest counts them, index info says so, and indexContent (what runs and reports record) carries the count', async () => {
    const { dir, warned } = await denseIndex('unindexed', true);
    expect(warned).toMatch(/its reply has no "index" field on each vector; vectors are taken in the order they came/);
    const m = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
    // 20 passages in batches of 8, 8 and 4 (the one-input dimension probe has no order to keep)
    expect(m.dense.vectorsInArrivalOrder).toBe(20);
    expect((indexContent(m) as { dense: { vectors: Record<string, unknown> } }).dense.vectors.vectorsInArrivalOrder).toBe(20);
    const info = await runCli(['index', 'info', dir]);
    expect(info.code, info.stderr).toBe(0);
    expect(info.stdout).toMatch(/^ {2}order {5}20 of 20 vectors came in replies with no "index" field: matched to passages in the order they came/m);
  });

  it('replies that carry index fields record nothing', async () => {
    const { dir, warned } = await denseIndex('indexed', false);
    expect(warned).not.toMatch(/"index" field/);
    const m = JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8'));
    expect(m.dense.vectorsInArrivalOrder).toBeUndefined();
    expect((indexContent(m) as { dense: { vectors: Record<string, unknown> } }).dense.vectors).not.toHaveProperty('vectorsInArrivalOrder');
    expect((await runCli(['index', 'info', dir])).stdout).not.toMatch(/^ {2}order /m);
  });
});
