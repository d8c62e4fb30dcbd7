/**
 * `lexcase eval retrieval --out` over a dense index says where the passage vectors came from, as run
 * dirs do (config.json `indexContent.dense.vectors.source`): the embedding endpoint, redacted. Before,
 * the report recorded only `embedder: "openai:local-embed"`, so two reports over indexes embedded by
 * two servers answering under one model name could not be told apart. Never a key, nor a digest of one.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Passage } from '../corpora/types.js';
import { buildIndex } from '../indexer/build.js';
import { addDenseIndex } from '../indexer/dense/add-dense.js';
import { BAREXAM_PASSAGES, bundledLines } from '../tests/support/bundled-data.js';
import { startFakeEmbeddingServer, type FakeEmbeddingServer } from '../tests/support/fake-embedding-server.js';
import { evalRetrievalOnIndex } from './retrieval-eval-index.js';

const KEY = 'QKEY-9f8e7d6c5b4a';
const passages: Passage[] = bundledLines(BAREXAM_PASSAGES)
  .filter(Boolean)
  .slice(0, 12)
  .map((l) => ({ ...(JSON.parse(l) as { id: string; text: string }), source: 'barexam_qa' }));
const letters = (t: string) => Array.from({ length: 6 }, (_, j) => [...t].filter((c) => c.charCodeAt(0) % 6 === j).length + 1);

let server: FakeEmbeddingServer;
let tmp: string;
let base: string;
const envBefore = process.env.LEXCASE_EMBED_BASE_URL;

beforeAll(async () => {
  server = await startFakeEmbeddingServer(letters, 'local-embed');
  tmp = await mkdtemp(join(tmpdir(), 'lexcase-eval-vector-source-'));
  base = `${server.url}?deployment=emb-small&api-key=${KEY}`;
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: join(tmp, 'index'), corpusName: 'barexam-sample', methods: ['bm25'], workers: 0 },
  );
  // the key rides in the query, as Azure-style gateways take it; the search reads the same URL from the environment
  process.env.LEXCASE_EMBED_BASE_URL = base;
  await addDenseIndex(join(tmp, 'index'), { embedder: { provider: 'openai', model: 'local-embed', baseURL: base, apiKey: 'sk-test' }, batchSize: 8 });
  // each question asks for one indexed passage's text
  const lines = passages
    .slice(0, 5)
    .map((p, i) => JSON.stringify({ id: `q${i}`, prompt: '', question: p.text.slice(0, 200), choices: ['a', 'b', 'c', 'd'], answer: 'A', gold_idx: p.id }));
  await writeFile(join(tmp, 'questions.jsonl'), lines.join('\n'));
});
afterAll(async () => {
  if (envBefore === undefined) delete process.env.LEXCASE_EMBED_BASE_URL;
  else process.env.LEXCASE_EMBED_BASE_URL = envBefore;
  await server.close();
  await rm(tmp, { recursive: true, force: true });
});

describe('eval retrieval over a dense index', () => {
  it('records the endpoint its vectors came from, without the key or a digest of it', async () => {
    const report = await evalRetrievalOnIndex({
      index: join(tmp, 'index'),
      methods: ['dense'],
      datasetFile: join(tmp, 'questions.jsonl'),
      split: 'all',
      iterations: 10,
    });
    expect(report.results[0].n).toBe(5);
    const deployment = createHash('sha256')
      .update(JSON.stringify([['deployment', ['emb-small']]]))
      .digest('hex')
      .slice(0, 32);
    // before: no indexContent; the report said only `config.embedder: "openai:local-embed"`
    expect((report.indexContent.dense as { vectors: { source?: string } }).vectors.source).toBe(
      `endpoint ${server.url}?api-key&deployment (query values sha256 ${deployment}, not of api-key)`,
    );
    const keyed = createHash('sha256')
      .update(
        JSON.stringify([
          ['api-key', [KEY]],
          ['deployment', ['emb-small']],
        ]),
      )
      .digest('hex')
      .slice(0, 32);
    const whole = JSON.stringify(report);
    for (const secret of [KEY, 'sk-test', keyed]) expect(whole).not.toContain(secret);
  });
});
