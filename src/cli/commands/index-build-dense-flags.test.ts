/**
 * `lexcase index build` with dense flags (--max-words, --ann-threshold, …) and no --embedder: they
 * are dense flags, so the build has the dense method and embeds with them. Before, only --embedder
 * and --model-dir counted: rebuilding an index that had dense vectors said "re-embedded with use-lite
 * as before" and dropped --max-words 8 and --ann-threshold 2 (its dense Recall@1 0.150 where the
 * flags give 0.075), and a fresh build ignored them, exit 0. Given without --embedder on an index
 * whose vectors another embedder made, they are refused rather than re-embedding it with use-lite.
 * Data: 40 bundled Bar Exam QA passages; use-lite (bundled) and the tiny-bert fixture.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readManifest } from '../../../indexer/manifest.js';
import { closeSparseIndexes } from '../../../retrieval/open.js';
import { BAREXAM_PASSAGES, bundledLines } from '../../../tests/support/bundled-data.js';
import { runCli } from '../../../tests/support/run-cli.js';

const TINY_BERT = join(import.meta.dirname, '../../../tests/fixtures/tiny-embedder/tiny-bert');
let tmp: string;
let corpus: string;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'lexcase-dense-flags-'));
  corpus = join(tmp, 'p.jsonl');
  await writeFile(corpus, `${bundledLines(BAREXAM_PASSAGES).filter(Boolean).slice(0, 40).join('\n')}\n`);
}, 60_000);
afterAll(async () => {
  await closeSparseIndexes();
  await rm(tmp, { recursive: true, force: true });
});

type DenseManifest = { spec?: { provider?: string; maxWords?: number }; annThreshold?: number };
const denseOf = async (dir: string) => (await readManifest(dir)).dense as unknown as DenseManifest | undefined;

describe('index build with dense flags and no --embedder', () => {
  it('a rebuild of an index with dense vectors embeds with --max-words 8 and --ann-threshold 2 (it re-embedded "as before")', async () => {
    const out = join(tmp, 'a');
    expect((await runCli(['index', 'build', corpus, '--out', out, '--workers', '0', '--methods', 'bm25,qld,dense'])).code).toBe(0);
    expect((await denseOf(out))?.spec?.maxWords).not.toBe(8);
    const r = await runCli(['index', 'build', corpus, '--out', out, '--workers', '0', '--max-words', '8', '--ann-threshold', '2']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('as before');
    expect(await denseOf(out)).toMatchObject({ spec: { provider: 'use-lite', maxWords: 8 }, annThreshold: 2 });
  }, 120_000);

  it('a fresh build given --max-words has the dense method, embedded with it (it was left out, exit 0)', async () => {
    const out = join(tmp, 'b');
    const r = await runCli(['index', 'build', corpus, '--out', out, '--workers', '0', '--max-words', '8']);
    expect(r.code, r.stderr).toBe(0);
    expect((await readManifest(out)).methods).toContain('dense');
    expect((await denseOf(out))?.spec).toMatchObject({ provider: 'use-lite', maxWords: 8 });
  }, 120_000);

  it('on an index whose vectors tiny-bert made, --max-words without --embedder is refused: it would re-embed with use-lite', async () => {
    const out = join(tmp, 'c');
    expect((await runCli(['index', 'build', corpus, '--out', out, '--workers', '0', '--model-dir', TINY_BERT])).code).toBe(0);
    const r = await runCli(['index', 'build', corpus, '--out', out, '--workers', '0', '--max-words', '8']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('has dense vectors from transformers:tiny-bert; the dense flags given re-embed it, with use-lite when no --embedder is given');
    expect((await denseOf(out))?.spec?.provider).toBe('transformers');
  }, 120_000);
});
