/**
 * MaxScore pruning and cache-blocked TAAT are exact: on random Zipf-like corpora where pruning
 * actually switches to the candidates-only phase, the pruned and the blocked top-k equal the
 * exhaustive top-k bit for bit (same docs, same order, same scores), for BM25 (default and random k1/b), textbook QLD and Lucene QLD,
 * and the lucene scorer (float32 BM25 and LMDirichlet on 1-byte norms), k small and
 * large, on the whole range and on the doc ranges query workers use; blocked TAAT includes its
 * dense walk (one tf byte per doc) of the lists present in most documents, its pruning across blocks
 * (MaxScore: terms past the bound added to candidates only; and, opt-in, sparseCandidates: candidates
 * from the essential lists' postings, the rest galloped in the kernel, forced or chosen per query by
 * 'auto''s gate), and its WebAssembly walks
 * over lists held in the view's kernel memory and over lists copied into its scratch; and
 * block-max MaxScore over doc windows (block-max.ts: whole windows skipped on their summed bounds).
 */
import fc from 'fast-check';
import { afterAll, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { fromArray, tempDir, texts } from '../../indexer/build-test-helpers.js';
import { zipfText } from './test-support/zipf-text.js';
import { queryTerms } from './query-terms.js';
import { createRng } from '../../core/rng.js';
import { closeSparseIndexes, openSparseIndex } from '../open.js';
import { scoreStats } from './max-score.js';
import { blockedPruning, blockedStats, PRUNE_MAX_K, sparseGateModel } from './blocked-taat.js';
import { blockMaxStats } from './block-max.js';
import { scoreTopK, type ScoreRequest } from './score-core.js';
import { scoringView } from '../../indexer/sparse/scoring-view.js';

const tmp = tempDir('lexcase-maxscore-');
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

let run = 0;
const KERNEL_CANDIDATES_MIN = blockedPruning.kernelCandidatesMin;
let denseWalks = 0;
let fusedLong = 0;
let kernelWalks = 0;
let residentWalks = 0;
let copiedWalks = 0;
let prunedBlocked = 0;
let prunedCompact = 0;
let sparseRuns = 0;
let prunedSparse = 0;
let boundedRuns = 0;
let boundedBlocks = 0;
let skippedBlocks = 0;
let fewerCandidates = 0;
let gateTaken = 0;
let gateDeclined = 0;
let prunedGated = 0;
let fallbackBlocked = 0;
let scanSelected = 0;
let scanFellBack = 0;
let kernelCands = 0;
let switched = 0;
let compared = 0;
let luceneSwitched = 0;
let blockMaxRuns = 0;
let skippedWindows = 0;
let lookups = 0;

it('pruned and blocked top-k equal exhaustive top-k bit for bit (bm25, textbook QLD, Lucene QLD, the lucene scorer; k small and large)', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      fc.integer({ min: 60, max: 400 }),
      fc.integer({ min: 20, max: 300 }),
      fc.double({ min: 0.2, max: 2.5, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.integer({ min: 1, max: 4000 }),
      async (seed, n, vocab, k1, b, mu) => {
        const rng = createRng(seed);
        const ts = Array.from({ length: n }, () => zipfText(rng, vocab, rng.int(1, 80)));
        const dir = `${tmp.dir}/i${run++}`;
        // Tiny blocks have few candidates: the kernel adds dense rows to 1–3 or more of them, JavaScript to fewer.
        blockedPruning.kernelCandidatesMin = 1 + (seed % 3);
        // Block bounds stored per 1–11 docs (so a walk block overlaps several), for lists of ≥ 1–3 postings.
        const blockBounds = { blockDocs: 1 + (seed % 11), minPostings: 1 + (seed % 3) };
        await buildIndex(fromArray(texts(ts)), { out: dir, corpusName: 'maxscore', workers: 0, blockBounds });
        const index = await openSparseIndex(dir);
        const halves = [index.view, scoringView(index, 0, n >> 1), scoringView(index, n >> 1, n)];
        for (let qi = 0; qi < 3; qi++) {
          const { ids, counts } = queryTerms(index, zipfText(rng, vocab, rng.int(5, 64)));
          for (const k of [1, 3, 10, Math.max(1, n >> 2), n]) {
            const reqs: ScoreRequest[] = [
              { method: 'bm25', k1: 0.9, b: 0.4, ids, counts, k },
              { method: 'bm25', k1, b, ids, counts, k },
              { method: 'qld', variant: 'textbook', mu, ids, counts, k },
              { method: 'qld', variant: 'lucene', mu, ids, counts, k },
              { method: 'bm25', k1: 0.9, b: 0.4, ids, counts, k, scorer: 'lucene' },
              { method: 'bm25', k1, b, ids, counts, k, scorer: 'lucene' },
              { method: 'qld', variant: 'lucene', mu, ids, counts, k, scorer: 'lucene' },
            ];
            for (const view of halves) {
              for (const req of reqs) {
                const pruned = scoreTopK(view, req, 'maxscore');
                if (scoreStats.switchedAt >= 0) switched++;
                if (scoreStats.switchedAt >= 0 && req.scorer === 'lucene') luceneSwitched++;
                const full = scoreTopK(view, req, 'exhaustive');
                compared++;
                expect(pruned.docs).toEqual(full.docs);
                expect(pruned.scores).toEqual(full.scores);
                // Cache-blocked TAAT (tiny blocks, so postings cross many block boundaries).
                const blocked = scoreTopK(view, req, 'blocked', 1 + (seed % 37));
                if (blockedStats.denseLists > 0) denseWalks++;
                if (blockedStats.longestFusedRun >= 5) fusedLong++;
                if (blockedStats.kernelLists > 0) kernelWalks++;
                if (blockedStats.residentLists > 0) residentWalks++;
                if (blockedStats.kernelLists > blockedStats.residentLists) copiedWalks++;
                if (blockedStats.prunedBlocks > 0) prunedBlocked++;
                if (blockedStats.fallbackBlocks > 0) fallbackBlocked++;
                if (blockedStats.scanSelects > 0) scanSelected++;
                if (blockedStats.scanFallbacks > 0) scanFellBack++;
                if (blockedStats.kernelCandidateRuns > 0) kernelCands++;
                expect(blocked.docs).toEqual(full.docs);
                expect(blocked.scores).toEqual(full.scores);
                // ... also with compact lists left to the candidates (the bench's compactCandidates arm; first query).
                if (qi === 0) {
                  blockedPruning.compactCandidates = true;
                  let compact: ReturnType<typeof scoreTopK>;
                  try {
                    compact = scoreTopK(view, req, 'blocked', 1 + (seed % 37));
                  } finally {
                    blockedPruning.compactCandidates = false;
                  }
                  if (blockedStats.prunedBlocks > 0) prunedCompact++;
                  expect(compact.docs).toEqual(full.docs);
                  expect(compact.scores).toEqual(full.scores);
                }
                // ... and by MaxScore without the per-document floor (sparseCandidates: BM25,
                // candidates from the essential lists' postings, the rest galloped in the kernel).
                if (req.method === 'bm25' && req.scorer !== 'lucene') {
                  blockedPruning.sparseCandidates = true;
                  let sparse: ReturnType<typeof scoreTopK>;
                  try {
                    sparse = scoreTopK(view, req, 'blocked', 1 + (seed % 37));
                  } finally {
                    blockedPruning.sparseCandidates = false;
                  }
                  sparseRuns++;
                  const sparseCandidates = blockedStats.candidates;
                  if (blockedStats.prunedBlocks > 0) prunedSparse++;
                  expect(sparse.docs).toEqual(full.docs);
                  expect(sparse.scores).toEqual(full.scores);
                  // ... and with the split per block from the index's stored block bounds (blockBounds).
                  blockedPruning.sparseCandidates = true;
                  blockedPruning.blockBounds = true;
                  let bounded: ReturnType<typeof scoreTopK>;
                  try {
                    bounded = scoreTopK(view, req, 'blocked', 1 + (seed % 37));
                  } finally {
                    blockedPruning.sparseCandidates = false;
                    blockedPruning.blockBounds = false;
                  }
                  boundedRuns++;
                  boundedBlocks += blockedStats.boundedBlocks;
                  skippedBlocks += blockedStats.skippedBlocks;
                  if (blockedStats.candidates < sparseCandidates) fewerCandidates++;
                  expect(bounded.docs).toEqual(full.docs);
                  expect(bounded.scores).toEqual(full.scores);
                  // ... and by 'auto' with sparseCandidates' gate (sparseGate; tiny blocks, so the gate
                  // is asked after the first): with the fitted model, and with one that takes
                  // sparseCandidates when the essential lists hold under half the compact postings left
                  // (so both branches run on these corpora).
                  for (const model of [undefined, { sparsePerDoc: 0, perEssential: 2, perLookup: 0, autoPerDoc: 0, perWalked: 1 }]) {
                    const savedModel = { ...sparseGateModel };
                    const savedGate = blockedPruning.sparseGate;
                    blockedPruning.sparseGate = true;
                    if (model) Object.assign(sparseGateModel, model);
                    blockedStats.gate.taken = -1;
                    let gated: ReturnType<typeof scoreTopK>;
                    try {
                      gated = scoreTopK(view, req, 'auto', 1 + (seed % 37));
                    } finally {
                      blockedPruning.sparseGate = savedGate;
                      Object.assign(sparseGateModel, savedModel);
                    }
                    if (blockedStats.gate.taken === 1) {
                      gateTaken++;
                      if (blockedStats.prunedBlocks > 0) prunedGated++;
                    } else if (blockedStats.gate.taken === 0) gateDeclined++;
                    expect(gated.docs).toEqual(full.docs);
                    expect(gated.scores).toEqual(full.scores);
                  }
                }
                // Block-max MaxScore over doc windows (BM25 and textbook QLD): tiny windows (2–16
                // docs, many skipped) and the default ones.
                if (req.scorer !== 'lucene' && (req.method === 'bm25' || req.variant === 'textbook')) {
                  for (const wb of [1 + (seed % 4), undefined]) {
                    const bmx = scoreTopK(view, req, 'blockmax', undefined, wb);
                    blockMaxRuns++;
                    skippedWindows += blockMaxStats.skippedWindows;
                    lookups += blockMaxStats.lookups;
                    expect(bmx.docs).toEqual(full.docs);
                    expect(bmx.scores).toEqual(full.scores);
                  }
                }
              }
            }
          }
        }
      },
    ),
    { numRuns: 12, seed: 20261123 },
  );
  blockedPruning.kernelCandidatesMin = KERNEL_CANDIDATES_MIN;
  // The property is only meaningful if pruning really kicked in on a good share of the requests.
  expect(switched).toBeGreaterThan(compared / 10);
  // ... and the dense walk of lists present in most docs (blocked-taat.ts) was part of it.
  expect(denseWalks).toBeGreaterThan(compared / 10);
  // ... including runs of ≥ 5 such lists added in one fused pass (an unrolled group of 4 + a rest).
  expect(fusedLong).toBeGreaterThan(0);
  // ... and the WebAssembly posting walks (kernel/walk.wat) took part in most blocked requests.
  expect(kernelWalks).toBeGreaterThan(compared / 4);
  // ... both on lists held in the view's kernel memory (kernel/view-memory.ts, walked in place) and
  // on short lists copied into the scratch chunk by chunk.
  expect(residentWalks).toBeGreaterThan(compared / 4);
  expect(copiedWalks).toBeGreaterThan(compared / 4);
  // ... and blocked TAAT's pruning across blocks (terms past J added to candidates only) took part,
  // as did its fallback (too many candidates: the rest of the terms walked as usual).
  expect(prunedBlocked).toBeGreaterThan(compared / 10);
  // ... also with compact lists left to the candidates.
  expect(prunedCompact).toBeGreaterThan(prunedBlocked / 6);
  expect(fallbackBlocked).toBeGreaterThan(0);
  // ... and BM25's pruned blocks found their candidates by the kernel's scan (walk.wat pruneScan,
  // every other doc's score cleared) and selected over those only, and some scans found too many
  // candidates (the block then walked every term with the others' scores already cleared).
  expect(scanSelected).toBeGreaterThan(prunedBlocked / 4);
  expect(scanFellBack).toBeGreaterThan(0);
  // ... and their resident dense BM25 rows were added to the candidates by the kernel (walk.wat
  // denseBm25Cands) on many requests.
  expect(kernelCands).toBeGreaterThan(scanSelected / 4);
  // ... and MaxScore without the per-document floor left terms to its candidates on many requests.
  expect(prunedSparse).toBeGreaterThan(sparseRuns / 10);
  // ... and with the stored block bounds it split per block on them, skipped whole blocks, and had
  // fewer candidates than with range-wide bounds on many requests.
  expect(boundedBlocks).toBeGreaterThan(boundedRuns);
  expect(skippedBlocks).toBeGreaterThan(boundedRuns / 10);
  expect(fewerCandidates).toBeGreaterThan(boundedRuns / 10);
  // ... and 'auto' with the gate took sparseCandidates on some queries (pruning blocks) and the
  // blocked walk on others.
  expect(gateTaken).toBeGreaterThan(0);
  expect(prunedGated).toBeGreaterThan(0);
  expect(gateDeclined).toBeGreaterThan(0);
  // ... and the lucene scorer's requests were pruned too.
  expect(luceneSwitched).toBeGreaterThan(0);
  // ... and block-max MaxScore skipped whole windows and added terms to candidates only.
  expect(blockMaxRuns).toBeGreaterThan(compared / 2);
  expect(skippedWindows).toBeGreaterThan(blockMaxRuns);
  expect(lookups).toBeGreaterThan(0);
}, 240_000);

it("BM25 blocked top-k pruned across blocks at k above the QLD limit (the worst-case shape's top-1000) equals exhaustive top-k bit for bit", async () => {
  let prunedLargeK = 0;
  let scannedLargeK = 0;
  let fellBackLargeK = 0;
  let kernelCandsLargeK = 0;
  let qldLargeK = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      fc.integer({ min: 500, max: 1600 }),
      fc.integer({ min: 30, max: 300 }),
      fc.double({ min: 0.2, max: 2.5, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
      async (seed, n, vocab, k1, b) => {
        const rng = createRng(seed);
        const ts = Array.from({ length: n }, () => zipfText(rng, vocab, rng.int(1, 80)));
        const dir = `${tmp.dir}/k${run++}`;
        blockedPruning.kernelCandidatesMin = 1 + (seed % 3);
        await buildIndex(fromArray(texts(ts)), { out: dir, corpusName: 'maxscore-large-k', workers: 0 });
        const index = await openSparseIndex(dir);
        const views = [index.view, scoringView(index, 0, n >> 1), scoringView(index, n >> 1, n)];
        for (let qi = 0; qi < 3; qi++) {
          const { ids, counts } = queryTerms(index, zipfText(rng, vocab, rng.int(20, 170)));
          for (const k of [PRUNE_MAX_K + 1 + (seed % 50), n >> 2]) {
            const reqs: ScoreRequest[] = [
              { method: 'bm25', k1: 0.9, b: 0.4, ids, counts, k },
              { method: 'bm25', k1, b, ids, counts, k },
              { method: 'qld', variant: 'textbook', mu: 1000, ids, counts, k },
            ];
            for (const view of views)
              for (const req of reqs) {
                const full = scoreTopK(view, req, 'exhaustive');
                const blocked = scoreTopK(view, req, 'blocked', 1 + (seed % 37));
                if (req.method === 'bm25') {
                  if (blockedStats.prunedBlocks > 0) prunedLargeK++;
                  if (blockedStats.scanSelects > 0) scannedLargeK++;
                  if (blockedStats.fallbackBlocks > 0) fellBackLargeK++;
                  if (blockedStats.kernelCandidateRuns > 0) kernelCandsLargeK++;
                } else qldLargeK += blockedStats.prunedBlocks;
                expect(blocked.docs).toEqual(full.docs);
                expect(blocked.scores).toEqual(full.scores);
              }
          }
        }
      },
    ),
    { numRuns: 6, seed: 20261201 },
  );
  blockedPruning.kernelCandidatesMin = KERNEL_CANDIDATES_MIN;
  // BM25 pruned blocks at these k (their candidates by the kernel's scan, the dense rows added to
  // them by the kernel), and fell back on some.
  expect(prunedLargeK).toBeGreaterThan(10);
  expect(scannedLargeK).toBeGreaterThan(10);
  expect(kernelCandsLargeK).toBeGreaterThan(10);
  expect(fellBackLargeK).toBeGreaterThan(0);
  // Textbook QLD keeps PRUNE_MAX_K: no block pruned above it.
  expect(qldLargeK).toBe(0);
}, 240_000);

it('BM25 blocked top-k on agent-shaped queries (rare terms once each, a common one or two; k 1–10) skips the selection of blocks whose largest stored score falls short of θ, walks by doc length (u8 and u16 lengths, dense lists too), and equals exhaustive top-k bit for bit', async () => {
  let unselected = 0;
  let byLength = 0;
  let byLengthU8 = 0;
  let byLengthDense = 0;
  let unselectedPruned = 0;
  let requests = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      fc.integer({ min: 300, max: 1500 }),
      fc.integer({ min: 100, max: 600 }),
      fc.double({ min: 0.2, max: 2.5, noNaN: true }),
      fc.double({ min: 0, max: 0.99, noNaN: true }),
      async (seed, n, vocab, k1, b) => {
        const rng = createRng(seed);
        const ts = Array.from({ length: n }, () => zipfText(rng, vocab, rng.int(1, 80)));
        const dir = `${tmp.dir}/a${run++}`;
        await buildIndex(fromArray(texts(ts)), { out: dir, corpusName: 'agent-shape', workers: 0 });
        const index = await openSparseIndex(dir);
        const views = [index.view, scoringView(index, 0, n >> 1), scoringView(index, n >> 1, n)];
        for (let qi = 0; qi < 6; qi++) {
          // The agent shape: 3–10 distinct words, mostly rare (uniform over the vocabulary), and one
          // or two of the commonest (lists in most docs: walked densely, left to candidates once pruned).
          const words = Array.from({ length: rng.int(3, 10) }, () => `w${rng.int(0, vocab - 1).toString(36)}x`);
          for (let c = rng.int(0, 2); c > 0; c--) words.push(`w${rng.int(0, 2).toString(36)}x`);
          const { ids, counts } = queryTerms(index, words.join(' '));
          if (ids.length === 0) continue;
          for (const k of [1, 3, 10]) {
            const reqs: ScoreRequest[] = [
              { method: 'bm25', k1: 0.9, b: 0.4, ids, counts, k },
              { method: 'bm25', k1, b, ids, counts, k },
            ];
            for (const view of views)
              for (const req of reqs)
                for (const blockDocs of [1 + (seed % 37), 64]) {
                  const full = scoreTopK(view, req, 'exhaustive');
                  // Every other request with the lengths held as u16 though no doc is above 80 tokens (the A/B's toggle).
                  blockedPruning.u8Lengths = requests % 2 === 0;
                  const blocked = scoreTopK(view, req, 'blocked', blockDocs);
                  blockedPruning.u8Lengths = true;
                  requests++;
                  if (blockedStats.unselectedBlocks > blockedStats.unselectedPruned) unselected++;
                  if (blockedStats.unselectedPruned > 0) unselectedPruned++;
                  if (blockedStats.byLength > 0) byLength++;
                  if (blockedStats.byLength === 2) byLengthU8++;
                  if (blockedStats.byLength && blockedStats.denseLists > 0) byLengthDense++;
                  expect(blocked.docs).toEqual(full.docs);
                  expect(blocked.scores).toEqual(full.scores);
                }
          }
        }
      },
    ),
    { numRuns: 8, seed: 20261201 },
  );
  // Both skips happened on many requests: blocks walked whole (no selection) and pruned ones (no scan).
  expect(unselected).toBeGreaterThan(requests / 10);
  expect(unselectedPruned).toBeGreaterThan(requests / 20);
  // Every request walked by length (the norms from a table by doc length, u8 or u16), many of them with a
  // dense list (its norms copied per block, or filled at the candidates).
  expect(byLength).toBe(requests);
  // u8 lengths (walk.wat bm25Len8: docs ≤ 80 tokens) on the half that left them on, u16 on the other.
  expect(byLengthU8).toBe(Math.ceil(requests / 2));
  expect(byLengthDense).toBeGreaterThan(requests / 20);
}, 240_000);
