/**
 * The demo's index step writes <dir>/index under the same rule as `index build --out`: a user's
 * directory there is refused and kept. An index already there is reused only when it is what a
 * fresh demo build makes (corpus, passage count, corpus checksum, analyzer, methods).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexCorpus } from '../../indexer/index-corpus.js';
import { readManifest } from '../../indexer/manifest.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { buildIndexStep, staleReason } from './build-index-step.js';
import type { DemoContext } from './types.js';

const base = mkdtempSync(join(tmpdir(), 'lexcase-demo-out-'));

/** A demo context over the Bar Exam val split (what the step reads), with `o` for the index. */
const demoContext = (o: Pick<DemoContext, 'dir' | 'indexDir' | 'corpus' | 'indexMethods' | 'evalMethods'> & { say?: (l: string) => void }): DemoContext =>
  ({
    dataset: 'barexam',
    split: 'val',
    splitSeed: 13,
    seed: 1,
    iterations: 10,
    rebuild: false,
    say: () => undefined,
    sections: [],
    data: {},
    ...o,
  }) as DemoContext;
afterAll(async () => {
  await closeSparseIndexes();
  rmSync(base, { recursive: true, force: true });
});

it('refuses a <dir>/index that is not a lexcase index, with OUT_DIR_REFUSED, and keeps its files', async () => {
  const indexDir = join(base, 'index');
  mkdirSync(indexDir);
  writeFileSync(join(indexDir, 'thesis.txt'), 'keep me');
  const ctx = demoContext({ dir: base, indexDir, corpus: 'barexam', indexMethods: ['bm25'], evalMethods: ['bm25'] });
  await expect(buildIndexStep.run(ctx)).rejects.toMatchObject({
    code: 'OUT_DIR_REFUSED',
    message: expect.stringMatching(/index: it is a non-empty directory that is not a lexcase index/),
  });
  expect(readFileSync(join(indexDir, 'thesis.txt'), 'utf8')).toBe('keep me');
  expect(readdirSync(base)).toEqual(['index']);
});

describe('reusing <dir>/index: only an index a fresh demo build would make', () => {
  const dm = join(base, 'dm');
  const indexDir = join(dm, 'index');
  const ctxOf = (said: string[]) =>
    demoContext({ dir: dm, indexDir, corpus: 'default', indexMethods: ['bm25', 'qld'], evalMethods: ['bm25', 'qld'], say: (l: string) => said.push(l) });

  it("an index of the demo's corpus built with another analyzer is rebuilt, saying why; the rebuilt one is reused", async () => {
    await indexCorpus('default', { out: indexDir, methods: ['bm25', 'qld'], analyzer: { stemmer: 'none', stopwords: 'none' }, workers: 0 });
    const said: string[] = [];
    await buildIndexStep.run(ctxOf(said));
    expect(said[0]).toBe(
      `building the default index in ${indexDir} (it was built with analyzer stopwords=none, stemmer=none, the demo's is stopwords=english, stemmer=porter)…`,
    );
    expect((await readManifest(indexDir)).analyzer).toMatchObject({ stopwords: 'english', stemmer: 'porter' });
    // the fresh build holds the bundled corpus (its checksum is the one lexcase knows): reused as it is
    const again: string[] = [];
    await buildIndexStep.run(ctxOf(again));
    expect(again).toEqual([`reusing the index in ${indexDir}`]);
  }, 120_000);

  it('an index of other texts under the same corpus name and passage count (another corpus checksum) is not reused', async () => {
    const m = await readManifest(indexDir);
    const other = { ...m, corpus: { ...m.corpus, checksum: 'f'.repeat(64) } };
    expect(await staleReason(other, ctxOf([]))).toBe(
      `its corpus checksum ffffffffffff… is not that of the bundled default corpus (${m.corpus.checksum.slice(0, 12)}…)`,
    );
    expect(await staleReason(m, ctxOf([]))).toBeNull();
  });
});
