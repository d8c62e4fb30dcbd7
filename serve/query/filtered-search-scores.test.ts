/**
 * A filter keeps passages of the unfiltered ranking; it never scores them otherwise. A source filter
 * on hybrid search (/v1/search, the MCP search tool) and the LangChain retriever's filter fetched
 * the ranking deeper to find k kept passages, and a hybrid search of more hits fuses deeper
 * component lists: the filtered hits came back with other scores and in another order than the
 * unfiltered ranking gives them (audit: fre-615#p1 0.008985, rank 6 filtered; 0.007692, rank 8 in
 * the unfiltered ranking), and the LangChain filter gave other scores for the same filter written
 * as an object and as a function. Now a filtered search looks no deeper than the ranking an
 * unfiltered search of k cuts its hits from (hybrid: its depth), and says so when fewer than k of
 * it are kept. Every result here is checked against the unfiltered ranking, filtered by hand.
 *
 * Data: 300 passages of the bundled legal_corpus (the Federal Rules of Evidence, the Constitution,
 * the first 107 passages of the Arkansas opinions), bm25 + qld + dense (the tiny test embedder);
 * hybrid with depth 40 so the filter's share (78 of 300) asks for more than the depth.
 */
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadPassages } from '../../corpora/registry.js';
import type { Passage } from '../../corpora/types.js';
import { buildIndex } from '../../indexer/build.js';
import { tempDir } from '../../indexer/build-test-helpers.js';
import { log } from '../../core/log.js';
import { LexcaseRetriever } from '../../retrieval/langchain-retriever.js';
import { closeSparseIndexes, openRetriever } from '../../retrieval/open.js';
import { openIndex, type OpenedIndex } from '../../retrieval/open-index.js';
import { searchPassages } from './index-queries.js';

const modelDir = join(resolve(fileURLToPath(import.meta.url), '../../..'), 'tests/fixtures/tiny-embedder/tiny-bert');
const tmp = tempDir('lexcase-filtered-scores-');
const dir = join(tmp.dir, 'legal-300');
const sourceOf = new Map<string, string>();
const DEPTH = 40;
const CONST = 'us_constitution';
let ix: OpenedIndex;
/** The index as the query service opens it, its hybrid opened with depth 40. */
let ix40: OpenedIndex;

beforeAll(async () => {
  const passages: Passage[] = [];
  let opinions = 0;
  for await (const p of loadPassages('legal_corpus'))
    if (p.source === 'fre' || p.source === CONST || (p.source === 'cap_arkansas_sample' && opinions++ < 107)) passages.push(p);
  for (const p of passages) sourceOf.set(p.id, p.source);
  await buildIndex(passages, { out: dir, methods: ['bm25', 'qld', 'dense'], workers: 0, dense: { embedder: { provider: 'transformers', modelDir } } });
  ix = await openIndex(dir);
  ix40 = { ...ix, retriever: (m, o) => (m === 'hybrid' ? openRetriever(dir, m, { ...o, depth: DEPTH }) : ix.retriever(m, o)) };
}, 120_000);
afterAll(async () => {
  await ix?.close();
  await closeSparseIndexes();
  tmp.cleanup();
});

/** The unfiltered search of `depth` hits, kept to `source` by hand: [id, score] of the first k. */
async function byHand(method: string, query: string, source: string, k: number, depth: number): Promise<Array<[string, number]>> {
  const hits = await (await ix40.retriever(method)).search(query, { k: depth });
  return hits
    .filter((h) => sourceOf.get(h.id) === source)
    .slice(0, k)
    .map((h) => [h.id, h.score]);
}

describe('a source filter keeps passages of the unfiltered ranking, scored as without it', () => {
  it.each([
    ['bm25', 300],
    ['dense', 300],
    ['hybrid', DEPTH],
  ])('%s: /v1/search and MCP (searchPassages) give the unfiltered ranking, filtered by hand', async (method, depth) => {
    const query = 'search warrant exception';
    const r = await searchPassages(ix40, { query, method, k: 10, sources: [CONST] });
    const want = await byHand(method, query, CONST, 10, depth);
    expect(want).toHaveLength(10);
    expect(r.hits.map((h) => [h.id, h.score])).toEqual(want);
    expect(r.hits.map((h) => h.rank)).toEqual(want.map((_, i) => i + 1));
    expect(r.note).toBeUndefined();
  });

  it('hybrid: the unfiltered search of 10 hits is the first 10 of the search of its depth, scores and all (what "unfiltered" means)', async () => {
    const h = await ix40.retriever('hybrid');
    const top10 = await h.search('search warrant exception', { k: 10 });
    expect((await h.search('search warrant exception', { k: DEPTH })).slice(0, 10)).toEqual(top10);
  });

  it('hybrid: fewer kept passages than k in the ranking give fewer hits and a note, not deeper-scored ones', async () => {
    const query = 'hearsay statement against interest';
    const r = await searchPassages(ix40, { query, method: 'hybrid', k: 10, sources: [CONST] });
    const want = await byHand('hybrid', query, CONST, 10, DEPTH);
    expect(want.length).toBeGreaterThan(0);
    expect(want.length).toBeLessThan(10);
    expect(r.hits.map((h) => [h.id, h.score])).toEqual(want);
    expect(r.note).toBe(
      `${want.length} of the 10 hits asked for: the filter keeps ${want.length} of the top ${DEPTH} of the hybrid ranking, ` +
        `and the hybrid ranking goes no deeper than its depth, ${DEPTH} (each component's top ${DEPTH} hits, fused)`,
    );
  });
});

describe('LexcaseRetriever: a filter as an object and as a function give the same Documents', () => {
  const query = 'search warrant exception';
  const meta = (docs: Array<{ metadata: { id: string; score: number; rank: number } }>) => docs.map((d) => [d.metadata.id, d.metadata.score, d.metadata.rank]);

  it.each(['bm25', 'hybrid'] as const)('%s: { source } and (md) => md.source === … both give the unfiltered ranking, filtered by hand', async (method) => {
    const options = method === 'hybrid' ? { depth: DEPTH } : {};
    const asObject = await new LexcaseRetriever({ index: dir, method, k: 10, options, filter: { source: CONST } }).invoke(query);
    const asFunction = await new LexcaseRetriever({ index: dir, method, k: 10, options, filter: (md) => md.source === CONST }).invoke(query);
    const want = (await byHand(method, query, CONST, 10, method === 'hybrid' ? DEPTH : 300)).map(([id, score], i) => [id, score, i + 1]);
    expect(meta(asObject)).toEqual(want);
    expect(meta(asFunction)).toEqual(want);
  });

  it('hybrid: fewer kept passages than k in the ranking: fewer Documents and a warning saying so', async () => {
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
    try {
      const q = 'hearsay statement against interest';
      const docs = await new LexcaseRetriever({ index: dir, method: 'hybrid', k: 10, options: { depth: DEPTH }, filter: (md) => md.source === CONST }).invoke(
        q,
      );
      const want = await byHand('hybrid', q, CONST, 10, DEPTH);
      expect(docs.map((d) => [d.metadata.id, d.metadata.score])).toEqual(want);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0][0])).toContain(
        `${want.length} of the 10 hits asked for: the filter keeps ${want.length} of the top ${DEPTH} of the hybrid ranking`,
      );
    } finally {
      warn.mockRestore();
    }
  });
});
