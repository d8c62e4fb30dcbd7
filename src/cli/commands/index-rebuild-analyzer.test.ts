/**
 * `index build … --out IX` over an existing index IX keeps IX's analyzer unless --analyzer is given
 * (runIndexBuild in this process). Before, a rebuild without --analyzer went back to the default
 * analyzer without a word: an index built with `--analyzer lucene` was rebuilt with english
 * stopwords and lexcase's tokenizer, and every BM25/QLD score changed.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '../../../core/log.js';
import { LUCENE_ANALYZER_PRESET, readManifest } from '../../../indexer/manifest.js';
import { BAREXAM_PASSAGES, bundledLines } from '../../../tests/support/bundled-data.js';
import { runIndexBuild, type IndexBuildFlags } from './index-cmd.js';

let dir: string;
let corpus: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-rebuild-analyzer-'));
  corpus = join(dir, 'passages.jsonl');
  writeFileSync(corpus, bundledLines(BAREXAM_PASSAGES).filter(Boolean).slice(0, 80).join('\n') + '\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const build = (out: string, extra: Partial<IndexBuildFlags> = {}) =>
  runIndexBuild(corpus, { out, methods: ['bm25', 'qld'], workers: 0, ...extra }, undefined, { methodsGiven: false });

/** The lines log.info writes while `f` runs. */
async function infoLines(f: () => Promise<unknown>): Promise<string> {
  const info = vi.spyOn(log, 'info');
  try {
    await f();
    return info.mock.calls.flat().join('\n');
  } finally {
    info.mockRestore();
  }
}

describe('rebuilding an index keeps its analyzer', () => {
  it('without --analyzer the rebuilt index has the lucene preset it had, the same postings, and stderr says so', async () => {
    const out = join(dir, 'idx-lucene');
    await build(out, { analyzer: 'lucene' });
    const postings = readFileSync(join(out, 'sparse/postings.bin'));
    const said = await infoLines(() => build(out));
    expect(said).toContain(`rebuilding ${out} with the analyzer it has: lucene (--analyzer … sets another)`);
    expect((await readManifest(out)).analyzer).toEqual(LUCENE_ANALYZER_PRESET);
    expect(readFileSync(join(out, 'sparse/postings.bin')).equals(postings)).toBe(true);
  });

  it('key=value settings are kept too; --analyzer replaces them and stderr names both', async () => {
    const out = join(dir, 'idx-settings');
    await build(out, { analyzer: 'stopwords=none,stemmer=snowball' });
    expect(await infoLines(() => build(out))).toContain('with the analyzer it has: stopwords=none,stemmer=snowball');
    expect((await readManifest(out)).analyzer).toMatchObject({ stopwords: 'none', stemmer: 'snowball' });
    expect(await infoLines(() => build(out, { analyzer: 'lucene' }))).toContain(
      `${out} had the analyzer stopwords=none,stemmer=snowball; the rebuilt index has lucene (--analyzer)`,
    );
    expect((await readManifest(out)).analyzer).toEqual(LUCENE_ANALYZER_PRESET);
  });

  it('an index with the default analyzer is rebuilt without a note', async () => {
    const out = join(dir, 'idx-default');
    await build(out);
    expect(await infoLines(() => build(out))).not.toMatch(/analyzer/);
  });
});
