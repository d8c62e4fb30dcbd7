/**
 * The library's `openRetriever(dir, method).search(query, { k })` ranks as `lexcase search`, MCP,
 * /v1 and the explorer do (retrieval/open-printed.ts). On the bundled barexam passages, mbe_126 and
 * mbe_2644 are the same text, so they tie on every method; `lexcase search -k 1` (searchTopK over
 * the index's retriever, src/cli/commands/search.ts) and the query service give mbe_2644 (trec_eval's
 * order, ties by id descending), while the library's search gave mbe_126 (index order).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// The library entry, as a program imports it.
import { buildIndex, closeSparseIndexes, loadPassages, openIndex, openQueryService, openRetriever } from './index.js';
import { tempDir } from '../indexer/build-test-helpers.js';
import { searchTopK } from '../retrieval/top-k.js';
import { isLexcaseError } from '../core/errors.js';

const QUERY = 'federal jurisdiction demands not only a contested federal issue but a substantial one';
const tmp = tempDir('lexcase-library-order-');
const triple = (h: { rank: number; id: string; score: number }) => [h.rank, h.id, h.score];

beforeAll(async () => {
  await buildIndex(loadPassages('barexam'), { out: tmp.dir, corpusName: 'barexam', workers: 0 });
}, 60_000);
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

describe("the library's openRetriever ranks tied passages as lexcase search does", () => {
  it.each(['bm25', 'qld'])('%s: k = 1 and k = 2 give the CLI’s and the query service’s hits, ranks and scores', async (method) => {
    const lib = await openRetriever(tmp.dir, method);
    const idx = await openIndex(tmp.dir);
    const svc = await openQueryService({ indexes: [{ name: 'bx', dir: tmp.dir }] });
    try {
      const cliRetriever = await idx.retriever(method);
      for (const k of [1, 2]) {
        const hits = await lib.search(QUERY, { k });
        const cli = await searchTopK((d) => cliRetriever.search(QUERY, { k: d }), k);
        const served = (await svc.search({ query: QUERY, k, method })).hits;
        expect(hits.map(triple)).toEqual(cli.map(triple));
        expect(hits.map(triple)).toEqual(served.map(triple));
      }
      expect((await lib.search(QUERY, { k: 1 })).map((h) => h.id)).toEqual(['mbe_2644']);
      expect((await lib.search(QUERY, { k: 2 })).map((h) => [h.rank, h.id])).toEqual([
        [1, 'mbe_2644'],
        [2, 'mbe_126'],
      ]);
    } finally {
      await svc.close();
      await idx.close();
    }
  });

  it('keeps the rest of search: withText, the default k, k = 0 and a bad k refused naming k, the method label', async () => {
    const lib = await openRetriever(tmp.dir, 'bm25', { rm3: true });
    expect(lib.method).toBe('bm25+rm3');
    expect('expand' in lib).toBe(true);
    const [hit] = await lib.search(QUERY, { k: 1, withText: true });
    expect(hit.text).toMatch(/^“\[F\]ederal jurisdiction demands/);
    expect(await lib.search('adverse possession')).toHaveLength(10);
    expect(await lib.search(QUERY, { k: 0 })).toEqual([]);
    const bad = await lib.search(QUERY, { k: -1 }).catch((e: unknown) => e);
    expect(isLexcaseError(bad) && bad.code === 'INVALID_INPUT' && /\bk\b/.test(bad.message)).toBe(true);
  });
});
