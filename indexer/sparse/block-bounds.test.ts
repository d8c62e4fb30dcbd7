/**
 * Block bounds written at build time (issue 38 item 1): per term of ≥ minPostings postings and per
 * block of blockDocs docs, the largest tf and the smallest length of the docs holding it — equal to
 * a brute-force count over the passages; an index built without them (as before they existed) or
 * with a newer section version opens and ranks exactly as one with them; a flipped byte in the
 * file is INDEX_CORRUPT naming it, as for every data file (blocks.crc32).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { buildIndex } from '../build.js';
import { fromArray, tempDir, texts } from '../build-test-helpers.js';
import { createRng } from '../../core/rng.js';
import { zipfText } from '../../retrieval/sparse/test-support/zipf-text.js';
import { queryTerms } from '../../retrieval/sparse/query-terms.js';
import { blockedPruning, blockedStats } from '../../retrieval/sparse/blocked-taat.js';
import { scoreTopK, type ScoreRequest } from '../../retrieval/sparse/score-core.js';
import { loadSparseIndex } from './sparse-index.js';
import { BLOCK_BOUNDS_FILE, writeBlockBounds } from './block-bounds.js';
import { forgetCheckedBlocks } from '../block-checksums.js';

const tmp = tempDir('lexcase-blockbounds-');
afterAll(() => tmp.cleanup());

const rng = createRng(38);
const ts = Array.from({ length: 500 }, () => zipfText(rng, 60, rng.int(1, 40)));
const passages = texts(ts);

function bounded(view: Parameters<typeof scoreTopK>[0], req: ScoreRequest) {
  blockedPruning.sparseCandidates = true;
  blockedPruning.blockBounds = true;
  try {
    return scoreTopK(view, req, 'blocked', 16);
  } finally {
    blockedPruning.sparseCandidates = false;
    blockedPruning.blockBounds = false;
  }
}

it('stores per term and block the largest tf and smallest doc length, as a brute-force count gives', async () => {
  const dir = join(tmp.dir, 'with');
  await buildIndex(fromArray(passages), { out: dir, corpusName: 'bb', workers: 0, blockBounds: { blockDocs: 32, minPostings: 100 } });
  const index = await loadSparseIndex(dir);
  try {
    const bb = index.blockBounds!;
    expect(index.manifest.sparse?.blockBounds).toEqual({
      version: 1,
      file: BLOCK_BOUNDS_FILE,
      blockDocs: 32,
      minPostings: 100,
      terms: expect.any(Number),
      blocks: 16,
    });
    expect(index.manifest.checksums[BLOCK_BOUNDS_FILE]).toMatch(/^[0-9a-f]{64}$/);
    // Brute force: the analyzed tokens of every passage.
    const tf: Map<number, number>[] = [];
    passages.forEach((p, d) => {
      const m = new Map<number, number>();
      for (const tok of index.analyzer.tokens(p.text)) {
        const t = index.termId(tok);
        m.set(t, (m.get(t) ?? 0) + 1);
      }
      tf[d] = m;
    });
    let rows = 0;
    for (let t = 0; t < index.terms.length; t++) {
      const r = bb.row[t];
      expect(r >= 0).toBe(index.df[t] >= 100);
      if (r < 0) continue;
      rows++;
      for (let blk = 0; blk < bb.blocks; blk++) {
        let maxTf = 0;
        let minDl = 0xffff;
        for (let d = blk * 32; d < Math.min(passages.length, blk * 32 + 32); d++) {
          const f = tf[d].get(t) ?? 0;
          if (f === 0) continue;
          maxTf = Math.max(maxTf, f);
          minDl = Math.min(minDl, index.doclen[d]);
        }
        expect([bb.maxTf[r * bb.blocks + blk], bb.minDl[r * bb.blocks + blk]]).toEqual([Math.min(255, maxTf), minDl]);
      }
    }
    expect(rows).toBeGreaterThan(5);
    expect(rows).toBeLessThan(index.terms.length);
  } finally {
    await index.docs.close();
  }
});

it('an index built without block bounds, or with a newer version of them, opens and ranks exactly as one with them', async () => {
  const withDir = join(tmp.dir, 'with2');
  const withoutDir = join(tmp.dir, 'without');
  await buildIndex(fromArray(passages), { out: withDir, corpusName: 'bb', workers: 0, blockBounds: { blockDocs: 8, minPostings: 1 } });
  await buildIndex(fromArray(passages), { out: withoutDir, corpusName: 'bb', workers: 0, blockBounds: false });
  const a = await loadSparseIndex(withDir);
  const b = await loadSparseIndex(withoutDir);
  try {
    expect(b.manifest.sparse?.blockBounds).toBeUndefined();
    expect(b.blockBounds).toBeUndefined();
    for (let qi = 0; qi < 10; qi++) {
      const { ids, counts } = queryTerms(a, zipfText(rng, 60, rng.int(5, 30)));
      const req: ScoreRequest = { method: 'bm25', k1: 0.9, b: 0.4, ids, counts, k: 5 };
      const full = scoreTopK(a.view, req, 'exhaustive');
      expect(bounded(a.view, req)).toEqual(full);
      expect(bounded(b.view, req)).toEqual(full);
      expect(blockedStats.boundedBlocks).toBe(0);
    }
  } finally {
    await a.docs.close();
    await b.docs.close();
  }
  // A newer section version: read as if absent (range-wide bounds), not refused.
  const mf = join(withDir, 'manifest.json');
  const m = JSON.parse(readFileSync(mf, 'utf8'));
  m.sparse.blockBounds.version = 2;
  delete m.seal;
  writeFileSync(mf, JSON.stringify(m));
  const c = await loadSparseIndex(withDir);
  try {
    expect(c.blockBounds).toBeUndefined();
  } finally {
    await c.docs.close();
  }
});

it('a flipped byte in sparse/blockmax.bin is INDEX_CORRUPT naming the file', async () => {
  const dir = join(tmp.dir, 'flip');
  await buildIndex(fromArray(passages), { out: dir, corpusName: 'bb', workers: 0, blockBounds: { blockDocs: 8, minPostings: 1 } });
  const file = join(dir, BLOCK_BOUNDS_FILE);
  const bytes = readFileSync(file);
  bytes[bytes.length - 3] ^= 0x40;
  writeFileSync(file, bytes);
  forgetCheckedBlocks();
  await expect(loadSparseIndex(dir)).rejects.toMatchObject({ code: 'INDEX_CORRUPT', message: expect.stringContaining('blockmax.bin') });
});

it('the bounds the merge derives (two workers, one term range each, many segments) are the bytes derived from the finished postings file', async () => {
  // The build derives them in the merge (issue 38: off the main thread, no second pass over the postings).
  const opts = { blockDocs: 16, minPostings: 40 };
  for (const [name, workers] of [
    ['two', 2],
    ['one', 0],
  ] as const) {
    const dir = join(tmp.dir, `merge-${name}`);
    const m = await buildIndex(fromArray(passages), { out: dir, corpusName: 'bb', workers, segmentPostings: 500, batchPassages: 37, blockBounds: opts });
    expect(m.sparse?.segments).toBeGreaterThan(6);
    const u8 = (f: string) => new Uint8Array(readFileSync(join(dir, f)));
    const again = join(tmp.dir, `again-${name}`);
    mkdirSync(join(again, 'sparse'), { recursive: true });
    const doclen = new Uint32Array(u8('sparse/doclen.u32').buffer);
    // From the index's postings (read through a relative path), into another dir.
    const postings = join('..', `merge-${name}`, 'sparse/postings.bin');
    const r = writeBlockBounds(again, postings, new Uint32Array(u8('sparse/df.u32').buffer), new Float64Array(u8('sparse/offsets.f64').buffer), doclen, opts);
    expect(Buffer.compare(readFileSync(join(again, BLOCK_BOUNDS_FILE)), readFileSync(join(dir, BLOCK_BOUNDS_FILE)))).toBe(0);
    expect(m.sparse?.blockBounds).toEqual(r.section);
    expect(m.checksums[BLOCK_BOUNDS_FILE]).toBe(r.sha256);
    expect(r.section.terms).toBeGreaterThan(5);
  }
});
