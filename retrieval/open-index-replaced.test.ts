/**
 * An index replaced (rebuilt into the same dir) between `openIndex` and the opening of a method's
 * retriever is refused naming the swap, not searched as two indexes at once. Before, the retriever
 * loaded the new index's files while `manifest` and `docs` were the old index's: `lexcase search`
 * run while `lexcase index build … --out DIR` replaced DIR printed the new index's ids and scores
 * with empty snippets and no source (their passages are not in the old doc store), exit 0 (3 of
 * 158 searches in a loop of builds); `eval retrieval` and `run <system>` record the old manifest's
 * corpus beside the new index's rankings.
 *
 * Data: 300 Bar Exam passages, then 300 legal_corpus passages (other ids) built into the same dir.
 */
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loadPassages } from '../corpora/registry.js';
import type { Passage } from '../corpora/types.js';
import { buildIndex } from '../indexer/build.js';
import { tempDir } from '../indexer/build-test-helpers.js';
import { openIndex } from './open-index.js';
import { closeSparseIndexes } from './open.js';

const tmp = tempDir('lexcase-open-replaced-');
const dir = join(tmp.dir, 'idx');
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

async function first(corpus: string, n: number): Promise<Passage[]> {
  const out: Passage[] = [];
  for await (const p of loadPassages(corpus)) {
    out.push(p);
    if (out.length === n) break;
  }
  return out;
}

it('a retriever opened after the index was rebuilt in place is refused (INDEX_INCOMPATIBLE naming the swap), not ranked from the new index beside the old doc store', async () => {
  const bar = await first('barexam', 300);
  const legal = await first('legal_corpus', 300);
  await buildIndex(bar, { out: dir, methods: ['bm25'], workers: 0 });
  const idx = await openIndex(dir);
  try {
    expect(idx.manifest.corpus.passages).toBe(300);
    await buildIndex(legal, { out: dir, methods: ['bm25'], workers: 0 });
    const opened = idx.retriever('bm25');
    await expect(opened).rejects.toMatchObject({ code: 'INDEX_INCOMPATIBLE' });
    await expect(opened).rejects.toThrow(`the index at ${dir} was replaced while this process opened it`);
  } finally {
    await idx.close();
  }
  // opened again: one index, whose hits its doc store holds
  const again = await openIndex(dir);
  try {
    const hits = await (await again.retriever('bm25')).search('hearsay statement offered', { k: 5 });
    expect(hits.length).toBe(5);
    for (const h of hits) expect((await again.docs.get(h.id))?.text.length).toBeGreaterThan(0);
    expect(new Set(legal.map((p) => p.id))).toContain(hits[0].id);
  } finally {
    await again.close();
  }
}, 120_000);
