/**
 * The demo's index step writes <dir>/index under the same rule as `index build --out`: a user's
 * directory there is refused and kept. An index already there is reused only when it is what a
 * fresh demo build makes (corpus, passage count, corpus checksum, analyzer, methods, lexcase version
 * and index format).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { indexCorpus } from '../../indexer/index-corpus.js';
import { MANIFEST_VERSION, readManifest } from '../../indexer/manifest.js';
import { VERSION } from '../../core/version.js';
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

  it('an index an older lexcase built (another version or index format) is not reused: its analyzer code or bundled data may differ', async () => {
    // Before, a demo rerun after an upgrade said "reusing the index" and reported the older lexcase's
    // index under the new version (simulated 0.1.0 -> 0.2.0 with soft hyphens joined: bm25
    // Recall@1000 0.581 reused vs 0.573 rebuilt, qld Recall@10 0.065 vs 0.073, CASE 26.6% vs 25.8%).
    const m = await readManifest(indexDir);
    expect(m.lexcaseVersion).toBe(VERSION);
    expect(await staleReason({ ...m, lexcaseVersion: '0.0.9' }, ctxOf([]))).toBe(
      `it was built by lexcase 0.0.9 (index format v${m.version}), this is lexcase ${VERSION} (v${MANIFEST_VERSION}), whose analyzer, index code or bundled data may differ`,
    );
    expect(await staleReason({ ...m, version: m.version - 1 }, ctxOf([]))).toMatch(
      new RegExp(`^it was built by lexcase ${VERSION} \\(index format v${m.version - 1}\\)`),
    );
    // the step records which lexcase built the index its figures come from
    const ctx = ctxOf([]);
    await buildIndexStep.run(ctx);
    expect(ctx.data.index).toMatchObject({ built: false, builtBy: { lexcaseVersion: VERSION, format: MANIFEST_VERSION } });
  });
});
