/**
 * Two indexes given the same --dense-uri (the audit's steps): each keeps its own LanceDB table there,
 * so the second build does not overwrite the first's vectors, dense search on the first returns only
 * its own passages, and a rerun of `index dense` on the first never skips passages by another
 * corpus's ids. A table that is not the index's (another owner, another row count, other ids) fails
 * search and `index verify` with one INDEX_CORRUPT naming the table, instead of foreign hits.
 * In-process, with a deterministic fake embedder standing in for an OpenAI-compatible server.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Passage } from '../../corpora/types.js';
import { openDenseRetriever } from '../../retrieval/dense.js';
import { verifyIndexDir } from '../../src/cli/commands/index-verify.js';
import { buildIndex } from '../build.js';
import type { Embedder } from '../embed/types.js';
import { readManifest, writeManifest } from '../manifest.js';
import { addDenseIndex } from './add-dense.js';
import type { DenseSection } from './dense-section.js';
import { appendVectors, connectDense, createDenseTable, openDenseTable, tableOwner } from './lance-table.js';
import { counting } from './test-support/counting-embedder.js';

const DIM = 16;
/** A unit vector from a hash of the text: a passage's own text is its nearest neighbour (cosine 1). */
const vectorOf = (t: string): Float32Array => {
  const h = createHash('sha256').update(t).digest();
  const v = Float32Array.from({ length: DIM }, (_, i) => h[i] - 127.5);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
};
const fake: Embedder = { id: 'openai:m', provider: 'openai', model: 'm', dimension: DIM, embed: async (texts) => texts.map(vectorOf) };

const corpus = (prefix: string, n: number, word: string): Passage[] =>
  Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}`, text: `${word} ${i} text ${prefix}`, source: 'test' }));
const E1 = corpus('e', 10, 'apple');
const E3 = corpus('x', 12, 'apple');
/** Five passages with E1's first five ids and other texts. */
const E5 = corpus('e', 5, 'pear');

let tmp: string;
let uri: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'lexcase-shared-dense-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

async function* stream(ps: Passage[]) {
  yield* ps;
}
const build = (ps: Passage[], out: string, dense: { uri: string; table?: string }) =>
  buildIndex(stream(ps), { out, corpusName: out, methods: ['bm25', 'dense'], workers: 0, dense: { embedder: fake, ...dense, batchSize: 4 } });

/** Every passage of `ps` is its own nearest neighbour in `dir`'s dense index, and nothing else is found. */
async function expectOwnVectors(dir: string, ps: Passage[]): Promise<void> {
  const r = await openDenseRetriever(dir, { embedder: fake });
  try {
    const all = await r.search('apple 3 text', { k: 100 });
    expect(all.map((h) => h.id).sort()).toEqual(ps.map((p) => p.id).sort());
    for (const p of ps) {
      const [top] = await r.search(p.text, { k: 1 });
      expect(top.id).toBe(p.id);
      expect(top.score).toBeCloseTo(1, 5);
    }
  } finally {
    await r.close();
  }
}

describe('two indexes built with one --dense-uri', () => {
  it('the second build keeps its own table: dense search on the first returns only its passages, and verify passes', async () => {
    uri = join(tmp, 'x', 'vecs');
    const e1 = join(tmp, 'ix-e1');
    const e3 = join(tmp, 'ix-e3');
    await build(E1, e1, { uri });
    await build(E3, e3, { uri });
    await expectOwnVectors(e1, E1); // the old code: x9, x7, x1 … with empty snippets
    const d1 = (await readManifest(e1)).dense as unknown as DenseSection;
    const d3 = (await readManifest(e3)).dense as unknown as DenseSection;
    expect(d1.table).not.toBe(d3.table);
    expect(d1.table).toBe(`passages-${d1.owner}`);
    expect(d1.ids).toMatchObject({ first: 'e0', last: 'e9' });
    const t1 = await openDenseTable(await connectDense(uri), d1.table, uri);
    expect(await tableOwner(t1)).toEqual({ owner: d1.owner, index: e1 });
    await expectOwnVectors(e3, E3);
    await expect(verifyIndexDir(e1)).resolves.toMatchObject({ problems: [] });
  });

  it('a rerun of index dense after a 5-passage index wrote to the same uri re-embeds nothing and keeps only its own vectors', async () => {
    const e1 = join(tmp, 'ix-e1');
    await build(E5, join(tmp, 'ix-e5'), { uri });
    await expectOwnVectors(e1, E1); // 10 of 10, not the other index's 5
    const c = counting(fake);
    const m = await addDenseIndex(e1, { embedder: c, uri });
    expect(c.embedded).toBe(0); // its own table is complete: no "resuming, 5 of 10" on another corpus's ids
    expect((m.dense as unknown as DenseSection).rows).toBe(10);
    await expectOwnVectors(e1, E1);
    await expectOwnVectors(join(tmp, 'ix-e5'), E5);
  });

  it("an interrupted index dense resumes from its own rows, not from another index's table at the same uri", async () => {
    const e1 = join(tmp, 'ix-e1-resume');
    await buildIndex(stream(E1), { out: e1, corpusName: 'e1', methods: ['bm25'], workers: 0 });
    const ac = new AbortController();
    await expect(
      addDenseIndex(e1, { embedder: fake, uri, batchSize: 2, signal: ac.signal, onProgress: (n) => n >= 4 && ac.abort(new Error('killed midway')) }),
    ).rejects.toThrow('killed midway');
    await build(E5, join(tmp, 'ix-e5-again'), { uri });
    const c = counting(fake);
    await addDenseIndex(e1, { embedder: c, uri, batchSize: 2 });
    expect(c.embedded).toBeGreaterThanOrEqual(4);
    expect(c.embedded).toBeLessThanOrEqual(8);
    await expectOwnVectors(e1, E1);
  });

  it('refuses to write into a table another index owns (explicit --dense-table), naming it and its owner; the first index is untouched', async () => {
    const u = join(tmp, 'y', 'vecs');
    const e1 = join(tmp, 'iy-e1');
    await build(E1, e1, { uri: u, table: 'shared' });
    const err = await build(E3, join(tmp, 'iy-e3'), { uri: u, table: 'shared' }).catch((e: Error) => e);
    expect(err).toMatchObject({ code: 'OUT_DIR_REFUSED' });
    expect((err as Error).message).toContain(`(dense table "shared")`);
    expect((err as Error).message).toContain(u);
    expect((err as Error).message).toContain(`belongs to index ${e1}`);
    await expectOwnVectors(e1, E1);
  });
});

describe("a dense table that no longer holds the index's vectors", () => {
  /** Replace the table at `u`/`table` with `ps`'s vectors, as a build of another index (or an older lexcase) would have. */
  async function clobber(u: string, table: string, ps: Passage[], owner?: { owner: string }) {
    const t = await createDenseTable(await connectDense(u), table, DIM, owner);
    await appendVectors(
      t,
      ps.map((p) => p.id),
      ps.map((p) => vectorOf(p.text)),
    );
  }

  it('another owner: search and index verify fail with INDEX_CORRUPT naming the table', async () => {
    const u = join(tmp, 'z1');
    const e1 = join(tmp, 'iz1');
    await build(E1, e1, { uri: u });
    const d = (await readManifest(e1)).dense as unknown as DenseSection;
    await clobber(u, d.table, E3);
    const want = { code: 'INDEX_CORRUPT', message: expect.stringContaining(`(dense table "${d.table}")`) };
    await expect(openDenseRetriever(e1, { embedder: fake })).rejects.toMatchObject(want);
    await expect(verifyIndexDir(e1)).rejects.toMatchObject(want);
  });

  it("the same owner and row count but other ids: the first search fails on the ids' digest", async () => {
    const u = join(tmp, 'z2');
    const e1 = join(tmp, 'iz2');
    await build(E1, e1, { uri: u });
    const d = (await readManifest(e1)).dense as unknown as DenseSection;
    await clobber(u, d.table, E3.slice(0, 10), { owner: d.owner! });
    const r = await openDenseRetriever(e1, { embedder: fake });
    await expect(r.search('apple 3 text', { k: 3 })).rejects.toMatchObject({ code: 'INDEX_CORRUPT', message: expect.stringMatching(/passage ids/) });
    await r.close();
    await expect(verifyIndexDir(e1)).rejects.toMatchObject({ code: 'INDEX_CORRUPT', message: expect.stringMatching(/passage ids/) });
  });

  it('a manifest from before owners keeps its table name and is still checked by row count', async () => {
    const u = join(tmp, 'z3');
    const e1 = join(tmp, 'iz3');
    await build(E1, e1, { uri: u, table: 'passages' });
    const m = await readManifest(e1);
    const { owner: _o, ids: _i, ...legacy } = m.dense as unknown as DenseSection;
    await writeManifest(e1, { ...m, dense: legacy as unknown as typeof m.dense });
    await clobber(u, 'passages', E5);
    await expect(openDenseRetriever(e1, { embedder: fake })).rejects.toMatchObject({
      code: 'INDEX_CORRUPT',
      message: expect.stringMatching(/dense table "passages"\): .*5 rows, the manifest .* records 10/),
    });
    await expect(verifyIndexDir(e1)).rejects.toMatchObject({ code: 'INDEX_CORRUPT' });
    // and index dense does not resume into it on its 5 ids (e0–e4 are also this index's ids)
    await expect(addDenseIndex(e1, { embedder: fake, uri: u })).rejects.toMatchObject({ code: 'OUT_DIR_REFUSED' });
  });
});
