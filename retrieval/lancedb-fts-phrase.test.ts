/**
 * `lancedb-fts` given a query that is one quoted phrase ("hearsay statement"): LanceDB reads it as a phrase query,
 * which needs word positions its index is built without, and the search failed with a raw lance error ("position is
 * not found but required for phrase queries"), so an `eval retrieval` whose topics held such a query stopped. Now
 * the phrase is searched as its words, as every other method reads quotes, with one warning. Sixty bundled Bar
 * Exam passages, indexed as `index build` does.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { join } from 'node:path';
import { loadPassages } from '../corpora/registry.js';
import type { Passage } from '../corpora/types.js';
import { buildIndex } from '../indexer/build.js';
import { tempDir } from '../indexer/build-test-helpers.js';
import { log } from '../core/log.js';
import { closeSparseIndexes, openRetriever } from './open.js';

const tmp = tempDir('lexcase-fts-phrase-');
const dir = join(tmp.dir, 'idx');

beforeAll(async () => {
  const passages: Passage[] = [];
  for await (const p of loadPassages('barexam')) {
    passages.push(p);
    if (passages.length === 60) break;
  }
  await buildIndex(passages, { out: dir, methods: ['bm25', 'lancedb-fts'], workers: 0 });
});
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

describe('lancedb-fts and a quoted phrase', () => {
  it('searches a query that is one quoted phrase as its words (the hits of the words unquoted), with one warning', async () => {
    const fts = await openRetriever(dir, 'lancedb-fts');
    const warn = vi.spyOn(log, 'warn');
    try {
      const quoted = await fts.search('"hearsay statement"', { k: 5 });
      const words = await fts.search('hearsay statement', { k: 5 });
      expect(quoted.length).toBeGreaterThan(0);
      expect(quoted).toEqual(words);
      await fts.search('  "the truth of the matter asserted" ', { k: 5 });
      expect(warn.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('lancedb-fts: a query in quotes'))).toHaveLength(1);
    } finally {
      warn.mockRestore();
    }
  });
});
