/**
 * A small Bar Exam QA index (bm25, qld and dense) whose passage vectors came from one local embedding
 * server, and a second server answering under the same model name with other vectors: the setting of a
 * search whose queries are embedded by another source than the index's passages (retrieval/dense-query-source.ts).
 * LEXCASE_EMBED_BASE_URL names the first server after `open` (the endpoint the index was built with) and
 * its value from before is put back by `close`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Passage } from '../../corpora/types.js';
import { buildIndex } from '../../indexer/build.js';
import { addDenseIndex } from '../../indexer/dense/add-dense.js';
import { BAREXAM_PASSAGES, bundledLines } from './bundled-data.js';
import { startFakeEmbeddingServer, type FakeEmbeddingServer } from './fake-embedding-server.js';

export interface TwoEmbeddingServers {
  /** the server the index's passage vectors came from */
  a: FakeEmbeddingServer;
  /** another server under the same model name, with other vectors */
  b: FakeEmbeddingServer;
  tmp: string;
  index: string;
  passages: Passage[];
  close(): Promise<void>;
}

const letters = (t: string) => Array.from({ length: 6 }, (_, j) => [...t].filter((c) => c.charCodeAt(0) % 6 === j).length + 1);

export async function openTwoEmbeddingServers(prefix: string): Promise<TwoEmbeddingServers> {
  const envBefore = process.env.LEXCASE_EMBED_BASE_URL;
  const passages: Passage[] = bundledLines(BAREXAM_PASSAGES)
    .filter(Boolean)
    .slice(0, 16)
    .map((l) => ({ ...(JSON.parse(l) as { id: string; text: string }), source: 'barexam_qa' }));
  const a = await startFakeEmbeddingServer(letters, 'local-embed');
  const b = await startFakeEmbeddingServer((t) => letters(t).reverse(), 'local-embed');
  const tmp = await mkdtemp(join(tmpdir(), prefix));
  const index = join(tmp, 'index');
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: index, corpusName: 'barexam-sample', methods: ['bm25', 'qld'], workers: 0 },
  );
  // built with the endpoint from the environment, as `lexcase index dense --embedder openai` does without --base-url
  process.env.LEXCASE_EMBED_BASE_URL = a.url;
  await addDenseIndex(index, { embedder: { provider: 'openai', model: 'local-embed' }, batchSize: 8 });
  return {
    a,
    b,
    tmp,
    index,
    passages,
    async close() {
      if (envBefore === undefined) delete process.env.LEXCASE_EMBED_BASE_URL;
      else process.env.LEXCASE_EMBED_BASE_URL = envBefore;
      await Promise.all([a.close(), b.close()]);
      await rm(tmp, { recursive: true, force: true });
    },
  };
}
