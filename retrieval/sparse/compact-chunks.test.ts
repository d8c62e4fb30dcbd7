/**
 * The compact posting form (decoded-postings.ts: doc ids as 16-bit offsets inside 65,536-doc
 * chunks, tf in one byte with an escape) over a collection larger than one chunk: blocked TAAT and MaxScore on
 * the whole range and on doc ranges that start and end inside a chunk (as query workers' ranges
 * do) equals plain TAAT bit for bit and brute force within 1e-9, and tf ≥ 255 survives the escape.
 * Lists held in the view's WebAssembly memory rank exactly as lists the memory refused (copied
 * into the kernel's scratch per query), also after the memory grew under them.
 * An index whose postings stay on disk (read per list through a descriptor, as large indexes are)
 * ranks and explains exactly like one held in memory.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { BruteForce, fromArray, tempDir, texts } from '../../indexer/build-test-helpers.js';
import { createRng } from '../../core/rng.js';
import { closeSparseIndexes, openSparseIndex } from '../open.js';
import { CHUNK_DOCS, compactPostings, decodedPostings } from './decoded-postings.js';
import { scoreTopK, type ScoreRequest } from './score-core.js';
import { scoringView, type ScoringView } from '../../indexer/sparse/scoring-view.js';
import { loadSparseIndex, type SparseIndex } from '../../indexer/sparse/sparse-index.js';
import { termFrequency } from './term-frequency.js';
import { queryTerms } from './query-terms.js';
import { blockedPruning, blockedStats } from './blocked-taat.js';
import { scoreStats } from './max-score.js';
import { viewMemory } from './kernel/view-memory.js';

const tmp = tempDir('lexcase-chunks-');
const N = CHUNK_DOCS + 9_000;
const VOCAB = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];
let passages: ReturnType<typeof texts>;
let index: SparseIndex;

beforeAll(async () => {
  const rng = createRng(18);
  const ts: string[] = [];
  for (let i = 0; i < N; i++) {
    const len = rng.int(1, 6);
    const words: string[] = [];
    // Skewed: low ranks are frequent, so some lists are dense and some sparse on both chunks.
    for (let j = 0; j < len; j++) words.push(VOCAB[Math.min(VOCAB.length - 1, Math.floor(-Math.log(1 - rng.next()) * 2.5))]);
    ts.push(words.join(' '));
  }
  // One passage past the first chunk with a tf above the one-byte escape, one below it.
  ts[CHUNK_DOCS + 17] = Array.from({ length: 300 }, () => 'zulu').join(' ');
  ts[100] = 'zulu zulu';
  passages = texts(ts);
  await buildIndex(fromArray(passages), { out: tmp.dir, corpusName: 'chunks', workers: 0 });
  index = await openSparseIndex(tmp.dir);
}, 120_000);

afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

function request(q: string, k: number): Omit<ScoreRequest, 'method'> & { ids: number[]; counts: number[] } {
  const { ids, counts } = queryTerms(index, q);
  return { ids, counts, k };
}

/** Blocked TAAT with blockedPruning.sparseCandidates on (opt-in), and with its split per block from the index's stored block bounds (`bounds`). */
function sparseScore(view: ScoringView, req: ScoreRequest, blockDocs?: number, bounds = false): ReturnType<typeof scoreTopK> {
  blockedPruning.sparseCandidates = true;
  blockedPruning.blockBounds = bounds;
  try {
    return scoreTopK(view, req, 'blocked', blockDocs);
  } finally {
    blockedPruning.sparseCandidates = false;
    blockedPruning.blockBounds = false;
  }
}

it('blocked TAAT (also with sparseCandidates), block-max and MaxScore over 16-bit chunk offsets equal plain TAAT bit for bit on ranges that cut chunks', () => {
  let switched = 0;
  let sparsePruned = 0;
  let boundedBlocks = 0;
  // The default build stores block bounds for the lists of ≥ 1,024 postings (every VOCAB word).
  expect(index.blockBounds?.blocks).toBe(Math.ceil(N / 16384));
  const views = [index.view, scoringView(index, 0, N >> 1), scoringView(index, N >> 1, N), scoringView(index, CHUNK_DOCS - 5, CHUNK_DOCS + 5)];
  for (const q of ['alpha bravo charlie delta echo foxtrot golf hotel india', 'lima kilo zulu alpha alpha', 'juliet zulu']) {
    for (const k of [1, 10, 1000]) {
      const base = request(q, k);
      const reqs: ScoreRequest[] = [
        { method: 'bm25', k1: 0.9, b: 0.4, ...base },
        { method: 'qld', variant: 'textbook', mu: 2000, ...base },
        { method: 'qld', variant: 'lucene', mu: 500, ...base },
      ];
      for (const view of views)
        for (const req of reqs) {
          const full = scoreTopK(view, req, 'exhaustive');
          for (const blockDocs of [16384, 7, 65536 + 3]) {
            const blocked = scoreTopK(view, req, 'blocked', blockDocs);
            expect(blocked.docs).toEqual(full.docs);
            expect(blocked.scores).toEqual(full.scores);
            // MaxScore without the per-document floor (BM25): bitmap candidates and kernel gallops
            // over pieces cut by the chunk boundary.
            if (req.method === 'bm25') {
              const sparse = sparseScore(view, req, blockDocs);
              if (blockedStats.prunedBlocks > 0) sparsePruned++;
              expect(sparse.docs).toEqual(full.docs);
              expect(sparse.scores).toEqual(full.scores);
              // ... split per block on the stored bounds (16,384-doc blocks from doc 0: walk blocks of 7 or
              // 65,539 docs from a range's start take one or several of them).
              const bounded = sparseScore(view, req, blockDocs, true);
              boundedBlocks += blockedStats.boundedBlocks;
              expect(bounded.docs).toEqual(full.docs);
              expect(bounded.scores).toEqual(full.scores);
            }
          }
          // Block-max MaxScore (BM25, textbook QLD): windows of 8 docs to a whole chunk.
          if (req.method === 'bm25' || req.variant === 'textbook')
            for (const wb of [3, 11, 16]) {
              const bmx = scoreTopK(view, req, 'blockmax', undefined, wb);
              expect(bmx.docs).toEqual(full.docs);
              expect(bmx.scores).toEqual(full.scores);
            }
          // MaxScore walks the compact form too (its candidates-only phase gallops inside chunks).
          const pruned = scoreTopK(view, req, 'maxscore');
          if (scoreStats.switchedAt >= 0) switched++;
          expect(pruned.docs).toEqual(full.docs);
          expect(pruned.scores).toEqual(full.scores);
          expect(full.docs.every((d) => d >= view.lo && d < view.hi)).toBe(true);
        }
    }
  }
  // Pruning reached its candidates-only phase on some of these requests (else the check is idle).
  expect(switched).toBeGreaterThan(0);
  expect(sparsePruned).toBeGreaterThan(0);
  expect(boundedBlocks).toBeGreaterThan(0);
});

it('matches brute-force BM25 across the chunk boundary, and keeps tf ≥ 255 exact', () => {
  const bf = new BruteForce(index.analyzer, passages);
  const q = 'zulu alpha lima';
  const ref = [...bf.bm25(q).entries()].sort((a, b) => b[1] - a[1] || Number(a[0].slice(1)) - Number(b[0].slice(1)));
  const got = scoreTopK(index.view, { method: 'bm25', k1: 0.9, b: 0.4, ...request(q, 50) }, 'blocked');
  expect(got.docs.length).toBe(50);
  got.docs.forEach((d, i) => {
    expect(passages[d].id).toBe(ref[i][0]);
    expect(Math.abs(got.scores[i] - ref[i][1])).toBeLessThan(1e-9);
  });
  expect(passages[got.docs[0]].id).toBe(`d${CHUNK_DOCS + 17}`);
  // Block-max bounds a tf ≥ 255 (an escape in the compact list) by the real tf: the same top 10.
  for (const method of ['bm25', 'qld'] as const) {
    const req: ScoreRequest = method === 'bm25' ? { method, k1: 0.9, b: 0.4, ...request(q, 10) } : { method, variant: 'textbook', mu: 2000, ...request(q, 10) };
    expect(scoreTopK(index.view, req, 'blockmax', undefined, 4)).toEqual(scoreTopK(index.view, req, 'exhaustive'));
  }
  // Other scorers are refused by name.
  expect(() => scoreTopK(index.view, { method: 'qld', variant: 'lucene', mu: 2000, ...request(q, 10) }, 'blockmax')).toThrow(
    /'blockmax' takes bm25 and textbook qld/,
  );
  const zulu = index.termId('zulu');
  const compact = compactPostings(index.view, zulu);
  expect(compact.chunkEnd.length).toBe(2);
  const wide = decodedPostings(index.view, zulu);
  expect([...wide.docs]).toEqual([100, CHUNK_DOCS + 17]);
  expect([wide.tfs[0], wide.tfs[1]]).toEqual([2, 300]);
});

it('postings read per list from disk give the same rankings, scores and term frequencies as postings in memory', async () => {
  const onDisk = await loadSparseIndex(tmp.dir, { postingsInMemory: false });
  try {
    expect(onDisk.postings.length).toBe(0);
    expect(onDisk.postingsFd).toBeTypeOf('number');
    for (const q of ['alpha bravo charlie delta echo', 'zulu kilo lima lima']) {
      const base = request(q, 100);
      for (const req of [
        { method: 'bm25', k1: 0.9, b: 0.4, ...base },
        { method: 'qld', variant: 'textbook', mu: 2000, ...base },
      ] as ScoreRequest[]) {
        for (const strategy of ['auto', 'exhaustive', 'maxscore'] as const) {
          const a = scoreTopK(index.view, req, strategy);
          const b = scoreTopK(onDisk.view, req, strategy);
          expect(b.docs).toEqual(a.docs);
          expect(b.scores).toEqual(a.scores);
        }
      }
    }
    const zulu = index.termId('zulu');
    expect(termFrequency(onDisk.view, zulu, CHUNK_DOCS + 17)).toBe(300);
    expect(termFrequency(onDisk.view, zulu, 100)).toBe(termFrequency(index.view, zulu, 100));
  } finally {
    onDisk.closePostings();
    await onDisk.docs.close();
  }
});

it('lists walked in place in the view memory rank exactly as lists copied per query, also after the memory grew', () => {
  const held = scoringView(index, 3, N - 2);
  const refused = scoringView(index, 3, N - 2);
  viewMemory(refused, 0);
  const queries = ['alpha bravo charlie delta echo foxtrot golf hotel india', 'lima kilo juliet india hotel zulu'];
  const reqs = (q: string): ScoreRequest[] => [
    { method: 'bm25', k1: 0.9, b: 0.4, ...request(q, 200) },
    { method: 'qld', variant: 'textbook', mu: 2000, ...request(q, 200) },
  ];
  const before = new Map<string, ReturnType<typeof scoreTopK>>();
  for (const q of queries)
    for (const req of reqs(q)) {
      const full = scoreTopK(held, req, 'exhaustive');
      const a = scoreTopK(held, req, 'blocked');
      expect(blockedStats.residentLists).toBeGreaterThan(0);
      const b = scoreTopK(refused, req, 'blocked');
      expect(blockedStats.residentLists).toBe(0);
      expect(blockedStats.kernelLists).toBeGreaterThan(0);
      if (req.method === 'bm25') {
        // sparseCandidates gallops in place (held) and in the scratch's copies (refused).
        const sh = sparseScore(held, { ...req, k: 10 });
        expect(sparseScore(refused, { ...req, k: 10 })).toEqual(sh);
        expect(sparseScore(held, { ...req, k: 10 }, undefined, true)).toEqual(sh);
        expect(sparseScore(refused, { ...req, k: 10 }, undefined, true)).toEqual(sh);
        expect(sh).toEqual(scoreTopK(held, { ...req, k: 10 }, 'exhaustive'));
      }
      const c = scoreTopK(held, { ...req, k: 10 }, 'blockmax');
      const d = scoreTopK(refused, { ...req, k: 10 }, 'blockmax');
      expect(c).toEqual(scoreTopK(held, { ...req, k: 10 }, 'exhaustive'));
      expect(d).toEqual(c);
      for (const r of [a, b]) {
        expect(r.docs).toEqual(full.docs);
        expect(r.scores).toEqual(full.scores);
      }
      before.set(q + req.method, a);
    }
  const hotel = index.termId('hotel');
  expect(compactPostings(held, hotel).lowOff).toBeGreaterThanOrEqual(0);
  const wideBefore = decodedPostings(held, hotel);
  // Grow the memory (a growth detaches every typed array over the old buffer).
  const mem = viewMemory(held);
  const size = mem.kernel.memory.buffer.byteLength;
  mem.ensure(size + (8 << 20));
  expect(mem.kernel.memory.buffer.byteLength).toBeGreaterThan(size);
  const wideAfter = decodedPostings(held, hotel);
  expect(wideAfter.length).toBeGreaterThan(1000);
  expect([...wideAfter.docs]).toEqual([...wideBefore.docs]);
  expect([...wideAfter.tfs]).toEqual([...wideBefore.tfs]);
  for (const q of queries)
    for (const req of reqs(q)) {
      const again = scoreTopK(held, req, 'blocked');
      expect(again.docs).toEqual(before.get(q + req.method)!.docs);
      expect(again.scores).toEqual(before.get(q + req.method)!.scores);
      // Block-max's cached window tables and the lists it reads survive the growth too.
      expect(scoreTopK(held, { ...req, k: 10 }, 'blockmax')).toEqual(scoreTopK(held, { ...req, k: 10 }, 'exhaustive'));
    }
});
