/**
 * An index rebuilt in place while a server holds it open is refused, not searched as it was.
 * Before, `serve --api`, MCP and the explorer kept the index they opened at start (its manifest,
 * analyzer, doc store, scorers) and went on answering from it after `lexcase index build … --out
 * DIR` replaced DIR: scores and rankings of an index that was no longer on disk, with no word.
 * Now every search names the change (INDEX_INCOMPATIBLE: restart to serve the new index).
 *
 * Data: 120 passages of the bundled legal_corpus, bm25, rebuilt with another analyzer.
 */
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { tempDir } from '../../indexer/build-test-helpers.js';
import { buildIndex } from '../../indexer/build.js';
import { loadPassages } from '../../corpora/registry.js';
import type { Passage } from '../../corpora/types.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { openQueryService } from './query-service.js';
import { buildLegal120 } from './test-support/legal-120.js';

const tmp = tempDir('lexcase-index-rebuilt-');
const dir = join(tmp.dir, 'legal-120');
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

it('a search after the index was rebuilt in place is refused naming the change, not answered from the index as it was', async () => {
  await buildLegal120(dir, ['bm25']);
  const svc = await openQueryService({ indexes: [{ name: 'legal', dir }] });
  try {
    const before = await svc.search({ query: 'hearsay statements offered', k: 3 });
    expect(before.hits.length).toBe(3);
    // the same passages, rebuilt into the same dir with another analyzer (other terms, other scores)
    const passages: Passage[] = [];
    for await (const p of loadPassages('legal_corpus')) if (passages.length < 300) passages.push(p);
    await buildIndex(passages, { out: dir, methods: ['bm25'], workers: 0, analyzer: { stemmer: 'none', stopwords: 'none' } });
    const after = svc.search({ query: 'hearsay statements offered', k: 3 });
    await expect(after).rejects.toMatchObject({ code: 'INDEX_INCOMPATIBLE' });
    await expect(after).rejects.toThrow(/changed on disk after this process opened it/);
  } finally {
    await svc.close();
  }
  // opened again: the index as it is now
  const again = await openQueryService({ indexes: [{ name: 'legal', dir }] });
  try {
    expect(again.listIndexes().indexes[0].passages).toBe(300);
    expect((await again.search({ query: 'hearsay statements offered', k: 3 })).hits.length).toBe(3);
  } finally {
    await again.close();
  }
}, 120_000);

it("a search after a data file of the index was replaced by another index's (the manifest unchanged) is refused naming the change", async () => {
  const served = join(tmp.dir, 'legal-120-served');
  const other = join(tmp.dir, 'barexam-120');
  await buildLegal120(served, ['bm25']);
  const bar: Passage[] = [];
  for await (const p of loadPassages('barexam')) if (bar.length < 120) bar.push(p);
  await buildIndex(bar, { out: other, methods: ['bm25'], workers: 0 });
  const svc = await openQueryService({ indexes: [{ name: 'legal', dir: served }] });
  try {
    const before = await svc.search({ query: 'hearsay statements offered', k: 3 });
    expect(before.hits.length).toBe(3);
    // the user copies the other index's passage texts over this one's (same name, same inode)
    copyFileSync(join(other, 'docs', 'text.dfl'), join(served, 'docs', 'text.dfl'));
    const after = svc.search({ query: 'hearsay statements offered', k: 3 });
    await expect(after).rejects.toMatchObject({ code: 'INDEX_INCOMPATIBLE' });
    await expect(after).rejects.toThrow(/changed on disk after this process opened it \(its manifest.json or a data file it lists was rewritten/);
  } finally {
    await svc.close();
  }
}, 120_000);
