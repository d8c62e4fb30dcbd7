/**
 * A dense index whose passages an OpenAI-compatible server embedded with the model it had loaded,
 * searched after another model was loaded on the same server, under the same endpoint and model
 * name asked for (LM Studio, a proxy: the reply's `model` names what it embedded with). The index
 * records the names its passages' replies gave (dense `servedModels`, shown by `index info`, and in
 * what a run records of the index, `indexContent.dense.vectors`); a
 * search whose replies name another warns, and the retriever's config carries it as the query
 * side's source, so the figures' surfaces say it (`eval retrieval` warnings, a `--topics` run's
 * summary, `search --json`). Before, one stderr line said the reply named another model than the
 * one asked for, and `eval retrieval` printed recall over two models' cosines with no trace in its
 * report (helper audit). The same loaded model gives none of it.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '../core/log.js';
import { buildIndex } from '../indexer/build.js';
import { addDenseIndex } from '../indexer/dense/add-dense.js';
import { indexContent } from '../indexer/manifest.js';
import { batchSearch } from '../eval/trec/batch-search.js';
import { evalTopicsOnIndex } from '../eval/trec/eval-index.js';
import { parseMeasures } from '../eval/trec/measures.js';
import { runCli } from '../tests/support/run-cli.js';
import { BAREXAM_PASSAGES, bundledLines } from '../tests/support/bundled-data.js';
import { startFakeEmbeddingServer, type FakeEmbeddingServer } from '../tests/support/fake-embedding-server.js';
import { openDenseRetriever } from './dense.js';
import { querySourceNote } from './dense-query-source.js';
import { closeSparseIndexes } from './open.js';

const letters = (t: string) => Array.from({ length: 6 }, (_, j) => [...t].filter((c) => c.charCodeAt(0) % 6 === j).length + 1);
const passages = bundledLines(BAREXAM_PASSAGES)
  .filter(Boolean)
  .slice(0, 16)
  .map((l) => ({ ...(JSON.parse(l) as { id: string; text: string }), source: 'barexam_qa' }));
const topics = passages.slice(0, 4).map((p, i) => ({ id: `t${i}`, text: p.text.split(/\s+/).slice(0, 12).join(' ') }));
const qrels = new Map(topics.map((t, i) => [t.id, new Map([[passages[i].id, 1]])]));

let server: FakeEmbeddingServer;
let tmp: string;
let index: string;
const envBefore = process.env.LEXCASE_EMBED_BASE_URL;

beforeAll(async () => {
  server = await startFakeEmbeddingServer(letters, 'local-embed');
  server.served = 'model-one-q4';
  tmp = await mkdtemp(join(tmpdir(), 'lexcase-served-model-'));
  index = join(tmp, 'index');
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: index, corpusName: 'barexam-sample', methods: ['bm25'], workers: 0 },
  );
  process.env.LEXCASE_EMBED_BASE_URL = server.url;
  vi.spyOn(log, 'warn').mockImplementation(() => {});
  await addDenseIndex(index, { embedder: { provider: 'openai', model: 'local-embed' }, batchSize: 8 });
  vi.restoreAllMocks();
});
afterEach(() => {
  vi.restoreAllMocks();
  server.served = 'model-one-q4';
  server.vectorOf = letters;
});
afterAll(async () => {
  if (envBefore === undefined) delete process.env.LEXCASE_EMBED_BASE_URL;
  else process.env.LEXCASE_EMBED_BASE_URL = envBefore;
  await closeSparseIndexes();
  await server?.close();
  await rm(tmp, { recursive: true, force: true });
});

/** Another model loaded on the same server: other vectors, another name in the replies. */
const loadOtherModel = () => {
  server.served = 'model-two-q8';
  server.vectorOf = (t) => letters(t).reverse();
};

describe('a dense search whose embedding replies name another model than the passages’ did', () => {
  it('the index records the name its passages’ replies gave, and index info shows it', async () => {
    const m = JSON.parse(await readFile(join(index, 'manifest.json'), 'utf8'));
    expect(m.dense.servedModels).toEqual(['model-one-q4']);
    // what a run records of the index: a rebuild while the server had another model loaded is another index (its resume refused)
    expect((indexContent(m) as { dense: { vectors: { servedModels?: string[] } } }).dense.vectors.servedModels).toEqual(['model-one-q4']);
    const info = await runCli(['index', 'info', index]);
    expect(info.stdout).toMatch(/^ {2}served {4}replies named model "model-one-q4"$/m);
  });

  it('the same model loaded: no warning, nothing in the config', async () => {
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
    const r = await openDenseRetriever(index);
    try {
      expect(await r.search('adverse possession', { k: 3 })).toHaveLength(3);
      expect(r.config.querySource).toBeUndefined();
      expect(warn.mock.calls.flat().join('\n')).not.toMatch(/replies name/);
    } finally {
      await r.close();
    }
  });

  it('another model loaded: warned as the index opens, and carried by the config, a --topics run and eval retrieval', async () => {
    loadOtherModel();
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
    const r = await openDenseRetriever(index);
    try {
      expect(warn.mock.calls.flat().join('\n')).toMatch(
        /its passage vectors came from replies naming model "model-one-q4", this search's embedding replies name "model-two-q8" \(the same endpoint and model asked for\)/,
      );
      expect(r.config.querySource).toBe(`the model the endpoint's replies name "model-two-q8" (its passages' replies named "model-one-q4")`);
      expect(querySourceNote(r)).toMatch(/^queries were embedded by the model the endpoint's replies name "model-two-q8"/);
      const b = await batchSearch(r, topics, { k: 5 });
      expect(b.querySource).toBe(querySourceNote(r));
    } finally {
      await r.close();
    }
    const e = await evalTopicsOnIndex({
      index,
      methods: ['dense'],
      topics,
      topicsFile: 'topics.tsv',
      qrels,
      qrelsFile: 'qrels.txt',
      measures: parseMeasures(['recall@5']),
      iterations: 100,
    });
    expect(e.warnings?.some((w) => w.startsWith(`dense: queries were embedded by the model the endpoint's replies name "model-two-q8"`))).toBe(true);
  });
});
