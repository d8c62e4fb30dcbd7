/**
 * A dense index built from one embedding server searched with queries embedded by another under the
 * same model name (LEXCASE_EMBED_BASE_URL pointing elsewhere, or a caller's baseURL): the search
 * warns, naming both sources, and the retriever's config (what eval runs record) carries the query
 * side's source; the same server gives neither. The figures and hits it gave carry it too — `eval
 * retrieval`'s warnings (with --topics and on a dataset), a `--topics` run's summary, `search --json` and
 * /v1/search — as stderr's warning is gone once the output is saved (before, only config.querySource
 * said it, without the index's source to compare it with).
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '../core/log.js';
import type { Passage } from '../corpora/types.js';
import type { FakeEmbeddingServer } from '../tests/support/fake-embedding-server.js';
import { openTwoEmbeddingServers, type TwoEmbeddingServers } from '../tests/support/two-embedding-servers.js';
import { evalRetrieval } from '../eval/retrieval-eval.js';
import { batchSearch } from '../eval/trec/batch-search.js';
import { evalTopicsOnIndex } from '../eval/trec/eval-index.js';
import { parseMeasures } from '../eval/trec/measures.js';
import { openQueryService } from '../serve/query/query-service.js';
import { openDenseRetriever } from './dense.js';
import { querySourceNote } from './dense-query-source.js';
import { openRetriever } from './open.js';

let a: FakeEmbeddingServer;
let b: FakeEmbeddingServer;
let dir: string;
let passages: Passage[];
let setup: TwoEmbeddingServers;

beforeAll(async () => {
  setup = await openTwoEmbeddingServers('lexcase-query-source-');
  ({ a, b, index: dir, passages } = setup);
});
afterEach(() => {
  vi.restoreAllMocks();
  process.env.LEXCASE_EMBED_BASE_URL = a.url;
});
afterAll(() => setup.close());

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

describe('what the figures and hits carry when the query side is another source', () => {
  const topics = [
    { id: 't1', text: 'adverse possession of land' },
    { id: 't2', text: 'hearsay exception' },
  ];
  // read when a test runs: the passages are loaded in beforeAll
  const qrels = () => new Map([['t1', new Map([[passages[0]!.id, 1]])]]);
  const quiet = () => vi.spyOn(log, 'warn').mockImplementation(() => {});
  const evalWarnings = async (method: 'dense' | 'hybrid') =>
    (
      await evalTopicsOnIndex({
        index: dir,
        methods: [method],
        topics,
        topicsFile: 'topics.tsv',
        qrels: qrels(),
        qrelsFile: 'qrels.txt',
        measures: parseMeasures(['recall@10']),
        iterations: 100,
      })
    ).warnings ?? [];

  it('says nothing with the endpoint the index was built with', async () => {
    quiet();
    expect((await evalWarnings('dense')).join('\n')).not.toContain('queries were embedded by');
    expect(querySourceNote(await openRetriever(dir, 'hybrid'))).toBeUndefined();
  });

  it('eval retrieval --topics (dense and hybrid), a --topics run, a dataset eval, search and /v1/search say it', async () => {
    process.env.LEXCASE_EMBED_BASE_URL = b.url;
    quiet();
    const note = `queries were embedded by endpoint ${b.url}, not by the endpoint or model files the index's passage vectors came from`;
    expect(await evalWarnings('dense')).toEqual([expect.stringContaining(`dense: ${note}`)]);
    expect((await evalWarnings('hybrid')).join('\n')).toContain(`hybrid: ${note}`);
    const r = await openRetriever(dir, 'dense');
    expect(querySourceNote(r)).toContain(note);
    expect((await batchSearch(r, topics, { k: 5 })).querySource).toContain(note);
    const question = { id: 'q1', prompt: '', question: 'adverse possession of land', choices: [], answer: '', goldPassageIds: [passages[0]!.id] };
    expect((await evalRetrieval({ retriever: r, questions: [question], iterations: 100 })).warnings).toEqual([expect.stringContaining(note)]);
    const service = await openQueryService({ indexes: [{ name: 'i', dir }] });
    try {
      expect((await service.search({ query: 'adverse possession', method: 'dense', k: 3 })).querySource).toContain(note);
      expect((await service.search({ query: 'adverse possession', method: 'bm25', k: 3 })).querySource).toBeUndefined();
    } finally {
      await service.close();
    }
  });
});
