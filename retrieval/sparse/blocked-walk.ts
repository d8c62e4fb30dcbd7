/**
 * The state blocked TAAT (blocked-taat.ts) shares with its opt-in strategies (sparse-candidates.ts,
 * sparse-gate.ts, block-bounds-split.ts): the per-thread statistics of the last query, the
 * layout of a query's scratch in the view's kernel memory, the walk's state, and the chunk loader
 * the core walk and sparseCandidates both call. A module of its own so that the strategies import
 * it without importing blocked-taat.ts back (no import cycle); it adds no strategy.
 */
import type { Mode } from './accumulator.js';
import type { TermPlan } from './max-score.js';
import type { CompactList, DenseList } from './decoded-postings.js';
import type { ViewMemory } from './kernel/view-memory.js';

/** What the last blockedTopK call on this thread did: lists walked densely, fused, in the kernel (tests, profiling). */
export const blockedStats = {
  denseLists: 0,
  longestFusedRun: 0,
  kernelLists: 0,
  residentLists: 0,
  prunedBlocks: 0,
  fallbackBlocks: 0,
  candidates: 0,
  /** Pruned BM25 blocks that selected over their candidates only (pruneScan), and blocks whose pruneScan found too many (then walked every term). */
  scanSelects: 0,
  scanFallbacks: 0,
  /** Runs of resident dense BM25 rows a pruned block added to its candidates in the kernel (walk.wat denseBm25Cands). */
  kernelCandidateRuns: 0,
  /** Blocks sparseCandidates took with the index's stored block bounds (blockBounds), and those skipped whole (summed bounds below θ). */
  boundedBlocks: 0,
  skippedBlocks: 0,
  /** Blocks that skipped their selection or scan: the largest score the kernel's walk stored (+ the rest's bound) below θ (blocked-taat.ts). */
  unselectedBlocks: 0,
  /** ... of them, blocks pruned across blocks (their scan skipped, the rest's terms given to no doc). */
  unselectedPruned: 0,
  /** How the last query's BM25 lists were walked by doc length: 2 over u8 lengths (walk.wat bm25Len8), 1 over u16 (bm25Len), 0 not by length. */
  byLength: 0,
  /** sparseCandidates' gate (sparseGate) on the last query: its inputs, and 1 taken / 0 not / −1 not asked. */
  gate: { docs: 0, essential: 0, compactPostings: 0, lookupLists: 0, J: 0, eligible: 0, taken: -1 },
};

/** Byte offsets of the query's scratch in the view's kernel memory (and of the ranges held there). */
export interface Scratch {
  normHeld: number;
  /** BM25 walked by length (walk.wat bm25Len / bm25Len8): the range's doc lengths (u16, or u8) and the norms-by-length table held in the view's memory, else −1. */
  lenHeld: number;
  /** Bytes a doc of the lengths held: 1 (u8, the range's longest doc ≤ 255 tokens) or 2 (u16). */
  lenWidth: 1 | 2;
  lenTabOff: number;
  /** Walked by length: the block's lengths, copied here per block. */
  lenCopyOff: number;
  lnlHeld: number;
  scoresOff: number;
  normOff: number;
  tablesOff: number;
  dP1Off: number;
  rowsOff: number;
  descOff: number;
  dTfOff: number;
  lnlOff: number;
  outOff: number;
  lowOff: number;
  tfOff: number;
  /** The touched bitmap (i64 words) and the candidates (i32) of sparseCandidates, else 0. */
  bitsOff: number;
  candOff: number;
  /** The candidates (i32) of a block pruned across blocks (blocked-taat.ts pruneBlock). */
  pruneCandOff: number;
}

/** Everything one blocked walk reads and moves: the lists, the scratch's typed arrays, the cursors. */
export interface Walk {
  /** Walked by length with dense lists: the block whose f64 norms are in the scratch (its first doc), else −1. */
  normsBlock: number;
  /** Walked by length: where the kernel reads the block's lengths (sc.lenCopyOff, or in place with blockedPruning.lengthsInPlace). */
  lenOff: number;
  mode: Mode;
  plan: TermPlan[];
  T: number;
  arr: Float64Array | undefined;
  lo: number;
  hi: number;
  /** The block's f64 norms in the scratch (BM25 when the range's are not held), else empty. */
  bn: Float64Array;
  c0: number;
  branchFree: boolean;
  kern: ViewMemory['kernel'];
  sc: Scratch;
  dense: (DenseList | null)[];
  lists: (CompactList | null)[];
  inKernel: boolean[];
  copied: boolean[];
  /** Each dense list's tf bytes (undefined for compact lists). */
  dTfs: (Uint8Array | undefined)[];
  /** Each compact list's cursor (lists the kernel walks keep theirs in their descriptor). */
  pos: Int32Array;
  tables: Float64Array[];
  /** Block scores. */
  bs: Float64Array;
  kLow: Uint16Array;
  kTf: Uint8Array;
  /** Copies of the block's piece of dense rows not resident. */
  dTf: Uint8Array;
  rowPtr: Int32Array;
  /** List j's copy slot in the scratch (dense lists not resident), else −1. */
  copyAt: Int32Array;
  descI: Int32Array;
  /** List j's index among the kernel lists, else −1. */
  kIdx: Int32Array;
  /** End (exclusive) of the fused dense run and of the kernel run each term is in. */
  denseEnd: Int32Array;
  kEnd: Int32Array;
  runs: { j: number; e: number }[];
  /** The docs the JavaScript walks touched (modes whose weights can be 0), else undefined. */
  mark: Uint8Array | undefined;
  /** A pruned block's candidates (ascending block indexes), in the kernel's memory at sc.pruneCandOff. */
  cands: Int32Array;
  /** The chunk whose postings are loaded in the descriptors and the copies. */
  loadedChunk: number;
  /** sparseCandidates is on for this query (blockedPruning.sparseCandidates and every compact list in the kernel). */
  sparse: boolean;
  /** The candidates of sparseCandidates, in the kernel's memory. */
  kCands: Int32Array;
}

/** Each kernel list's end in chunk ci; the chunk's postings of lists not resident copied into the scratch. */
export function loadChunk(w: Walk, ci: number): void {
  const { T, inKernel, lists, kIdx, descI, copied, kLow, kTf, sc } = w;
  let at = 0;
  for (let j = 0; j < T; j++) {
    if (!inKernel[j]) continue;
    const list = lists[j]!;
    const to = list.chunkEnd[ci];
    const d = kIdx[j] * 6;
    descI[d + 3] = to;
    if (!copied[j]) continue;
    const from = ci > 0 ? list.chunkEnd[ci - 1] : 0;
    kLow.set(list.low.subarray(from, to), at);
    kTf.set(list.tfs.subarray(from, to), at);
    descI[d] = sc.lowOff + (at - from) * 2;
    descI[d + 1] = sc.tfOff + at - from;
    at += to - from;
  }
  w.loadedChunk = ci;
}
