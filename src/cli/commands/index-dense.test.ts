/**
 * `lexcase index dense --prebuilt` in-process on real bundled corpora: the default corpus gets the
 * shipped use-lite vectors (no embedding); another corpus, or a flag the vectors were not made
 * with, is refused with one clear error.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexCorpus } from '../../../indexer/index-corpus.js';
import { PREBUILT_DENSE_SPEC } from '../../../indexer/dense/prebuilt-spec.js';
import { readManifest } from '../../../indexer/manifest.js';
import { closeSparseIndexes } from '../../../retrieval/open.js';
import { runCli } from '../../../tests/support/run-cli.js';

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-index-dense-'));
  await indexCorpus('default', { out: join(dir, 'default'), methods: ['bm25'], workers: 0 });
  await indexCorpus('barexam', { out: join(dir, 'barexam'), methods: ['bm25'], workers: 0 });
}, 120_000);
afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

describe('lexcase index dense --prebuilt', () => {
  it('loads the shipped use-lite vectors into a default-corpus index: every passage, recorded as use-lite, searchable', async () => {
    const r = await runCli(['--json', 'index', 'dense', join(dir, 'default'), '--prebuilt']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.prebuilt).toBe('default-use-lite');
    const m = await readManifest(join(dir, 'default'));
    expect(m.methods).toContain('dense');
    expect((m.dense as any).rows).toBe(m.corpus.passages);
    expect((m.dense as any).embedderId).toBe('use-lite:universal-sentence-encoder-lite');
    const s = await runCli(['--json', 'search', 'adverse possession of land', '--index', join(dir, 'default'), '--method', 'dense', '-k', '3']);
    expect(s.code, s.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(s.stdout))).toMatch(/"rank":3/);
  }, 120_000);

  it("search under --dense-query-words N says only the last N words were embedded, in its text and --json (before: neither did; the hits read as the whole query's)", async () => {
    const q = 'A landowner sued his neighbor for trespass after the neighbor built a fence; is the neighbor liable';
    const args = ['search', q, '--index', join(dir, 'default'), '--method', 'dense', '-k', '2'];
    const cut = await runCli(['--json', ...args, '--dense-query-words', '5']);
    expect(cut.code, cut.stderr).toBe(0);
    expect(JSON.parse(cut.stdout).denseQuery).toBe('only the last 5 words of each query are embedded (--dense-query-words 5)');
    const text = await runCli([...args, '--dense-query-words', '5']);
    expect(text.stdout).toMatch(/^2 hits · dense · [\d.]+ ms\ndense query: only the last 5 words of each query are embedded \(--dense-query-words 5\)\n/);
    // the whole query (the default): no such line, no field
    const whole = await runCli(['--json', ...args]);
    expect(JSON.parse(whole.stdout)).not.toHaveProperty('denseQuery');
    expect(JSON.parse(whole.stdout).hits.map((h: { id: string }) => h.id)).not.toEqual(JSON.parse(cut.stdout).hits.map((h: { id: string }) => h.id));
  }, 120_000);

  it('index dense with no flag that sets the vectors keeps the table it has (the prebuilt vectors: use-lite, 128 words), instead of embedding every passage again at the default 256 words', async () => {
    const before = await readManifest(join(dir, 'default'));
    const r = await runCli(['--json', 'index', 'dense', join(dir, 'default')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(/again/);
    const m = await readManifest(join(dir, 'default'));
    expect((m.dense as any).spec).toEqual(PREBUILT_DENSE_SPEC);
    expect((m.dense as any).spec).toEqual((before.dense as any).spec);
    expect((m.dense as any).rows).toBe(m.corpus.passages);
  }, 120_000);

  it('index info shows the settings the dense vectors were made with (the prebuilt ones: 128 words), not only the model', async () => {
    const r = await runCli(['index', 'info', join(dir, 'default')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /\n {2}dense {5}use-lite universal-sentence-encoder-lite \(dim 512\), maxWords 128, modelMaxTokens 128 \(\d,\d{3} passages longer: embedded from their first 128 tokens\)\n/,
    );
  }, 120_000);

  it('refuses another corpus, and flags the vectors were not made with, saying why', async () => {
    const other = await runCli(['index', 'dense', join(dir, 'barexam'), '--prebuilt']);
    expect(other.code).not.toBe(0);
    expect(other.stderr).toMatch(/no prebuilt vectors match .*barexam.*default corpus/);
    expect((await readManifest(join(dir, 'barexam'))).methods).not.toContain('dense');
    const flag = await runCli(['index', 'dense', join(dir, 'barexam'), '--prebuilt', '--max-words', '64']);
    expect(flag.code).not.toBe(0);
    expect(flag.stderr).toMatch(/--prebuilt .* takes no --embedder, --model, --model-dir or --max-words/);
  });
});
