/**
 * A dense index built from one embedding server searched with queries embedded by another under the
 * same model name (LEXCASE_EMBED_BASE_URL pointing elsewhere, or a caller's baseURL): the search
 * warns, naming both sources, and the retriever's config (what eval runs record) carries the query
 * side's source; the same server gives neither.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '../core/log.js';
import type { Passage } from '../corpora/types.js';
import { buildIndex } from '../indexer/build.js';
import { addDenseIndex } from '../indexer/dense/add-dense.js';
import { BAREXAM_PASSAGES, bundledLines } from '../tests/support/bundled-data.js';
import { startFakeEmbeddingServer, type FakeEmbeddingServer } from '../tests/support/fake-embedding-server.js';
import { openDenseRetriever } from './dense.js';

const passages: Passage[] = bundledLines(BAREXAM_PASSAGES)
  .filter(Boolean)
  .slice(0, 16)
  .map((l) => ({ ...(JSON.parse(l) as { id: string; text: string }), source: 'barexam_qa' }));
const letters = (t: string) => Array.from({ length: 6 }, (_, j) => [...t].filter((c) => c.charCodeAt(0) % 6 === j).length + 1);

let a: FakeEmbeddingServer;
let b: FakeEmbeddingServer;
let tmp: string;
let dir: string;
const envBefore = process.env.LEXCASE_EMBED_BASE_URL;

beforeAll(async () => {
  a = await startFakeEmbeddingServer(letters, 'local-embed');
  b = await startFakeEmbeddingServer((t) => letters(t).reverse(), 'local-embed');
  tmp = await mkdtemp(join(tmpdir(), 'lexcase-query-source-'));
  dir = join(tmp, 'index');
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: dir, corpusName: 'barexam-sample', methods: ['bm25'], workers: 0 },
  );
  // built with the endpoint from the environment, as `lexcase index dense --embedder openai` does without --base-url
  process.env.LEXCASE_EMBED_BASE_URL = a.url;
  await addDenseIndex(dir, { embedder: { provider: 'openai', model: 'local-embed' }, batchSize: 8 });
});
afterEach(() => {
  vi.restoreAllMocks();
  process.env.LEXCASE_EMBED_BASE_URL = a.url;
});
afterAll(async () => {
  if (envBefore === undefined) delete process.env.LEXCASE_EMBED_BASE_URL;
  else process.env.LEXCASE_EMBED_BASE_URL = envBefore;
  await Promise.all([a.close(), b.close()]);
  await rm(tmp, { recursive: true, force: true });
});

async function searchWarnings(): Promise<{ warnings: string; querySource?: string }> {
  const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
  const r = await openDenseRetriever(dir);
  try {
    expect(await r.search('adverse possession of land', { k: 3 })).toHaveLength(3);
    return { warnings: warn.mock.calls.flat().join('\n'), querySource: r.config.querySource };
  } finally {
    await r.close();
  }
}

describe('queries embedded by another source than the index', () => {
  it('searches quietly with the endpoint the index was built with', async () => {
    const seen = await searchWarnings();
    expect(seen.warnings).toBe('');
    expect(seen.querySource).toBeUndefined();
  });

  it('warns and records the query side when LEXCASE_EMBED_BASE_URL names another server', async () => {
    process.env.LEXCASE_EMBED_BASE_URL = b.url;
    const seen = await searchWarnings();
    expect(seen.warnings).toContain(`its passage vectors came from endpoint ${a.url}, this search embeds queries by endpoint ${b.url}`);
    expect(seen.querySource).toBe(`endpoint ${b.url}`);
  });

  it('warns for a caller-given base URL too (the library override)', async () => {
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
    const r = await openDenseRetriever(dir, { embedderOverrides: { baseURL: b.url } });
    await r.close();
    expect(warn.mock.calls.flat().join('\n')).toContain(`this search embeds queries by endpoint ${b.url}`);
    expect(r.config.querySource).toBe(`endpoint ${b.url}`);
  });
});
