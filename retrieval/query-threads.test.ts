/** Query workers over doc ranges return exactly the single-thread ranking (same ids, same scores). */
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildIndex } from '../indexer/build.js';
import { fromArray, tempDir } from '../indexer/build-test-helpers.js';
import { closeSparseIndexes, openRetriever } from './open.js';
import { BAREXAM_QA, LEGAL_CORPUS_PASSAGES, bundledLines } from '../tests/support/bundled-data.js';
import { SPARSE_SCORERS } from './sparse/test-support/sparse-scorers.js';

const passages = bundledLines(LEGAL_CORPUS_PASSAGES)
  .slice(3000, 3500)
  .map((l) => JSON.parse(l) as { id: string; text: string })
  .map((r) => ({ id: r.id, text: r.text, source: 'legal_corpus' }));
const queries = bundledLines(BAREXAM_QA)
  .slice(200, 210)
  .map((l) => JSON.parse(l) as { prompt: string; question: string })
  .map((q) => `${q.prompt} ${q.question}`);

const tmp = tempDir('lexcase-threads-');
const dir = join(tmp.dir, 'i');
beforeAll(async () => {
  await buildIndex(fromArray(passages), { out: dir, corpusName: 'legal', workers: 0 });
});
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

it('2 and 3 query threads give identical hits to in-process scoring, for bm25, both QLD variants and the lucene scorer', async () => {
  for (const [method, opts] of SPARSE_SCORERS) {
    const single = await openRetriever(dir, method, { ...opts, threads: 0 });
    const two = await openRetriever(dir, method, { ...opts, threads: 2 });
    const three = await openRetriever(dir, method, { ...opts, threads: 3 });
    for (const q of queries) {
      for (const k of [1, 10, 500]) {
        const a = await single.search(q, { k });
        expect(a.length).toBeGreaterThan(0);
        expect(await two.search(q, { k })).toEqual(a);
        expect(await three.search(q, { k })).toEqual(a);
      }
    }
    // Concurrent queries are answered independently.
    const many = await Promise.all(queries.map((q) => two.search(q, { k: 20 })));
    for (let i = 0; i < queries.length; i++) expect(many[i]).toEqual(await single.search(queries[i], { k: 20 }));
  }
});
