/**
 * Cache-blocked term-at-a-time scoring for "dense" queries (long queries whose postings touch most
 * documents: a 170-word bar-exam query touches ~97 % of a Zipf corpus). The doc range is cut into
 * blocks of BLOCK_DOCS documents; for each block, every query term's postings inside the block are
 * added (same term order as plain TAAT, so each document gets exactly the same additions in the
 * same order: bitwise-identical scores), then the block's documents are scanned densely for top-k
 * selection and their accumulators cleared. The score, norm and length arrays of one block
 * (16K docs × 8 bytes each) stay in L2 cache, instead of every posting missing the cache on
 * scores[d] and norm[d] of a multi-megabyte array; no touched list is kept (the dense scan over
 * the block replaces it), and textbook QLD's unmatched documents fall out of the same scan.
 */
import { Mode } from './accumulator.js';
import { modeFacts } from './mode-facts.js';
import { CHUNK_BITS, CHUNK_DOCS, compactPostings, DENSE_ONLY_SHARE, denseTfs, TF8_ESCAPE } from './decoded-postings.js';
import type { MaxScoreInput, TermPlan } from './max-score.js';
import type { CompactList, DenseList } from './decoded-postings.js';
import type { ScoringView } from '../../indexer/sparse/scoring-view.js';
import { TopK } from './top-k.js';
import { gallop16 } from './gallop.js';
import { viewMemory, type ViewMemory } from './kernel/view-memory.js';
import { luceneBm25Weight, luceneLmdTf, luceneLmdWeight } from './lucene-scorer.js';
import { blockedStats, loadChunk, type Scratch, type Walk } from './blocked-walk.js';
import { sparseBlock, tightBm25Bound } from './sparse-candidates.js';
import { sparseGate } from './sparse-gate.js';
import { blockR, termBounds } from './block-bounds-split.js';
import { bm25NormsByLength } from './doc-arrays.js';

/** What the last blockedTopK call did (blocked-walk.ts); the gate's cost model (sparse-gate.ts). */
export { blockedStats } from './blocked-walk.js';
export { sparseGateModel } from './sparse-gate.js';

export const BLOCK_DOCS = 16384;
/** QLD weights are tabulated for tf < TABLE (every tf a compact list stores; larger ones from its escape map are computed). */
const TABLE = 256;
/**
 * Lists present in at least this share of the range's docs are walked densely (denseTfs), runs of
 * them fused per doc (kernel/walk.wat denseBm25, denseTable); at this share a list's tf byte per doc is also smaller than
 * its compact postings (3 bytes each), so decoded-postings.ts holds such lists only densely.
 * (0.8 for BM25 before the fused walk; 0.5 and 0.34 measured against it: docs/index-format.md.)
 */
export const DENSE_MIN_SHARE = DENSE_ONLY_SHARE;

/**
 * A block prunes (terms from J on added to candidates only) when its candidates are at most this
 * share of its docs; above it the block walks the rest of its terms as usual (kernel walks beat
 * per-candidate look-ups there).
 */
export const PRUNE_MAX_CANDIDATE_SHARE = 1 / 4;

/**
 * Pruning across blocks is tried for k up to this (agent queries ask for 5–10) in textbook QLD,
 * whose candidates are found by a JavaScript scan: at k = 1000 the threshold stays low and that
 * scan cost more than it saved (bench/prune-ab.ts at 100K, before BM25 had the kernel's scan:
 * worst case 11.8 vs 10.9 ms CPU p50 with pruning).
 */
export const PRUNE_MAX_K = 100;

/**
 * BM25 prunes across blocks for k up to this: its candidates come from the kernel's scan (walk.wat
 * pruneScan), and the Zipf worst-case query at top-1000 prunes 50 of its 53 blocks at 856,835
 * passages (~0.6 % of the docs are candidates), so its dense lists are added to candidates only
 * (docs/notes/2026-12-01-worst-case.md).
 */
export const PRUNE_MAX_K_BM25 = 1000;

/**
 * Pruning across blocks on (default) or off (the bench's A/B of what it buys; same results either
 * way); `compactCandidates` also leaves compact lists to the candidates (galloped per candidate):
 * exact, and 2–4.5× slower on the agent shape (docs/notes/2026-11-29-compact-candidates.md), so off.
 * The other switches turn on opt-in strategies, each in its own file: `sparseCandidates`
 * (sparse-candidates.ts), `sparseGate` (sparse-gate.ts) and `blockBounds` (block-bounds-split.ts).
 * `kernelCandidatesMin`: a pruned BM25 block with at least this many candidates adds its resident
 * dense rows to them in the kernel (walk.wat denseBm25Cands; the worst-case shape's top-1000 has
 * ~600 per block), fewer in JavaScript as before (the agent shape's 1–2: a call would not pay).
 * `selectByMax`: a BM25 block whose walked lists are all kernel compact lists skips its selection
 * (and a pruned one its scan) when the largest score the walk stored (+ the rest's bound) is below
 * θ, clearing the block instead (docs/notes/2026-12-01-agent-10m.md); off only for the A/B.
 * `byLength`: a BM25 query's compact lists read each doc's norm from a table by its length
 * (walk.wat bm25Len, docs/notes/2026-12-02-norms-by-length.md); off only for the A/B.
 * `u8Lengths`: walked by length, a range whose longest doc is ≤ 255 tokens holds its lengths as u8
 * (walk.wat bm25Len8: half the bytes copied per block, docs/notes/2026-12-03-u8-lengths.md); off
 * holds u16 as before (A/B). `lengthsInPlace`: the kernel reads the block's lengths where the range's
 * are held instead of a per-block copy (A/B).
 */
export const blockedPruning = {
  enabled: true,
  compactCandidates: false,
  sparseCandidates: false,
  sparseGate: false,
  blockBounds: false,
  kernelCandidatesMin: 32,
  selectByMax: true,
  /** BM25's compact lists walked by doc length (walk.wat bm25Len); off walks by each doc's norm (A/B). */
  byLength: true,
  /** Lengths held as u8 when the range's longest doc is ≤ 255 tokens (walk.wat bm25Len8); off: u16 (A/B). */
  u8Lengths: true,
  /** The block's lengths read in place, not copied next to its scores first (A/B). */
  lengthsInPlace: false,
};

/** Postings of the largest chunks of the lists the WebAssembly walks take per query (3 bytes each). */
export const KERNEL_MAX_POSTINGS = 8 << 20;

/** The lists of one query and how each is walked: densely, in the kernel (in place or copied), or in JavaScript. */
interface ListPlan {
  dense: (DenseList | null)[];
  lists: (CompactList | null)[];
  /** The largest tf byte of each list: its weight table (QLD) needs no entry above it. */
  topTf: number[];
  inKernel: boolean[];
  /** Kernel lists not resident in the view's memory: copied into the scratch chunk by chunk. */
  copied: boolean[];
  /** The range's first chunk. */
  c0: number;
  /** Postings of the largest chunk of the copied lists together. */
  maxChunk: number;
}

/**
 * The WebAssembly walks (kernel/) take the lists of BM25 and textbook QLD with no tf escape;
 * JavaScript walks the rest (Lucene QLD, lists with a tf ≥ 255). Cached lists are resident in the
 * view's kernel memory (kernel/view-memory.ts) and walked in place; the others (short lists, lists
 * the memory refused) are copied chunk by chunk into the scratch. Copied lists are taken in plan
 * order while their largest chunks fit KERNEL_MAX_POSTINGS (a query with thousands of long lists
 * walks the rest in JavaScript: same additions, same order).
 */
function planLists(view: ScoringView, mode: Mode, plan: TermPlan[]): ListPlan {
  const T = plan.length;
  // Lists in most docs: one tf byte per doc, walked densely (decoded-postings.ts denseTfs).
  const dense = plan.map((t) => denseTfs(view, t.id));
  // The other lists in compact form (Uint16 doc low bits per 65,536-doc chunk + Uint8 tf,
  // decoded-postings.ts); uncached short lists are fresh objects, so all stay valid together.
  const lists = plan.map((t, j) => (dense[j] ? null : compactPostings(view, t.id)));
  const topTf = plan.map((_, j) => {
    const l = lists[j];
    return dense[j] ? dense[j]!.maxTf : l!.bigTf ? TABLE - 1 : l!.maxTf;
  });
  const c0 = view.lo >>> CHUNK_BITS;
  const chunks = view.hi > view.lo ? ((view.hi - 1) >>> CHUNK_BITS) + 1 - c0 : 0;
  let budget = KERNEL_MAX_POSTINGS;
  const inKernel = lists.map((l) => {
    if (l === null || l.bigTf !== undefined || !modeFacts(mode).kernel) return false;
    if (l.lowOff >= 0) return true;
    let m = 0;
    for (let ci = 0; ci < chunks; ci++) m = Math.max(m, l.chunkEnd[ci] - (ci > 0 ? l.chunkEnd[ci - 1] : 0));
    if (m > budget) return false;
    budget -= m;
    return true;
  });
  const copied = inKernel.map((on, j) => on && lists[j]!.lowOff < 0);
  let denseLists = 0;
  let kernelLists = 0;
  let residentLists = 0;
  for (let j = 0; j < T; j++) {
    if (dense[j]) denseLists++;
    if (inKernel[j]) {
      kernelLists++;
      if (!copied[j]) residentLists++;
    }
  }
  blockedStats.denseLists = denseLists;
  blockedStats.kernelLists = kernelLists;
  blockedStats.residentLists = residentLists;
  let maxChunk = 0;
  for (let ci = 0; ci < chunks; ci++) {
    let n = 0;
    for (let j = 0; j < T; j++) if (copied[j]) n += lists[j]!.chunkEnd[ci] - (ci > 0 ? lists[j]!.chunkEnd[ci - 1] : 0);
    if (n > maxChunk) maxChunk = n;
  }
  return { dense, lists, topTf, inKernel, copied, c0, maxChunk };
}

/**
 * Runs of densely walked lists (contiguous in the plan), added per doc by the kernel's fused walks
 * (only when branch-free), and how many of their rows are not resident (copied per block).
 */
function fusedRuns(dense: (DenseList | null)[], branchFree: boolean): { runs: { j: number; e: number }[]; copyRows: number } {
  const T = dense.length;
  const runs: { j: number; e: number }[] = [];
  let copyRows = 0;
  if (branchFree)
    for (let j = 0; j < T; j++) {
      if (!dense[j]) continue;
      let e = j + 1;
      while (e < T && dense[e]) e++;
      runs.push({ j, e });
      for (let q = j; q < e; q++) if (dense[q]!.off < 0) copyRows++;
      j = e - 1;
    }
  return { runs, copyRows };
}

/**
 * The scratch, above the resident data: block scores (f64), block norms (f64, BM25; unless the
 * range's are resident), 256-entry tables (QLD), p1 and a tf-row pointer per list, kernel list
 * descriptors, copies of dense rows not resident, block log-lengths (QLD, unless resident), the
 * kernel's selection output, then the current chunk of each copied list: low bits (u16) and tfs (u8).
 */
function layoutScratch(
  vm: ViewMemory,
  view: ScoringView,
  inp: MaxScoreInput,
  marked: boolean,
  copyRows: number,
  maxChunk: number,
  blockDocs: number,
  sparse: boolean,
  prune: boolean,
  byLength: boolean,
): Scratch {
  const { arr, qld } = inp;
  const f = modeFacts(inp.mode);
  const T = inp.plan.length;
  // BM25 (not sparseCandidates): the compact lists' walk reads each doc's norm by its length (2 bytes
  // a doc, copied per block, where the norms are 8 read at random: docs/notes/2026-12-02-norms-by-length.md),
  // when the range's lengths and the table are held; the dense walks get the block's f64 norms copied
  // into the scratch (blockNorms), or its candidates' only (candidateNorms).
  const nbl = byLength && f.bm25Norm && inp.bm25 ? bm25NormsByLength(view, inp.bm25.k1, inp.bm25.b, blockedPruning.u8Lengths) : undefined;
  const lenWidth = nbl?.width ?? 2;
  let lenHeld = nbl ? vm.holdRange(nbl.lengths, view.lo, view.hi) : -1;
  const lenTabOff = lenHeld >= 0 ? vm.holdRange(nbl!.table, 0, nbl!.table.length) : -1;
  if (lenTabOff < 0) lenHeld = -1;
  // The range's norms (BM25) and log-lengths (QLD) held in the view's memory, else copied per block.
  const normHeld = f.bm25Norm && lenHeld < 0 ? vm.holdRange(arr!, view.lo, view.hi) : -1;
  const lnlHeld = qld ? vm.holdRange(qld.lnl, view.lo, view.hi) : -1;
  const scoresOff = (vm.used + 15) & ~15;
  const normOff = scoresOff + blockDocs * 8;
  const tablesOff = normOff + (f.bm25Norm && normHeld < 0 ? blockDocs * 8 : 0);
  const dP1Off = tablesOff + (f.tfTable === 'scratch' ? T * TABLE * 8 : 0);
  const rowsOff = dP1Off + (f.bm25Norm ? T * 8 : 0);
  // Kernel lists' descriptors (walk.wat bm25Lists / tableLists), 24 bytes each, in plan order.
  const descOff = (rowsOff + T * 4 + 7) & ~7;
  const dTfOff = descOff + T * 24;
  // 16 spare bytes after the copied dense rows: the f64x2 walk loads 8 tf bytes at a time.
  const lnlOff = (dTfOff + copyRows * blockDocs + 16 + 7) & ~7;
  const lenCopyOff = lnlOff + (qld && lnlHeld < 0 ? blockDocs * 8 : 0);
  const outOff = (lenCopyOff + (lenHeld >= 0 ? blockDocs * lenWidth + 16 : 0) + 7) & ~7;
  const lowOff = outOff + (marked ? 0 : blockDocs * 16);
  const tfOff = lowOff + maxChunk * 2;
  const bitsOff = sparse ? (tfOff + maxChunk + 7) & ~7 : 0;
  const candOff = sparse ? bitsOff + (((blockDocs + 63) >>> 6) + 1) * 8 : 0;
  const pruneCandOff = ((sparse ? candOff + blockDocs * 4 : tfOff + maxChunk) + 3) & ~3;
  vm.ensure(pruneCandOff + (prune ? blockDocs * 4 : 0));
  if (sparse) new Uint8Array(vm.kernel.memory.buffer, bitsOff, candOff - bitsOff).fill(0);
  return {
    normHeld,
    lenHeld,
    lenWidth,
    lenTabOff,
    lenCopyOff,
    lnlHeld,
    scoresOff,
    normOff,
    tablesOff,
    dP1Off,
    rowsOff,
    descOff,
    dTfOff,
    lnlOff,
    outOff,
    lowOff,
    tfOff,
    bitsOff,
    candOff,
    pruneCandOff,
  };
}

/**
 * Weights by tf (tf < TABLE) for QLD, exactly the expressions accumulate() evaluates, entries 1 to
 * the list's largest tf, computed once per query (textbook QLD in the scratch, where the kernel and
 * the JavaScript loops read them); entry 0 is 0, so a dense walk adds +0 for absent docs. BM25
 * divides per posting and needs none.
 */
function weightTables(mode: Mode, plan: TermPlan[], topTf: number[], kTables: Float64Array): Float64Array[] {
  const table = modeFacts(mode).tfTable;
  return plan.map((t, j) => {
    if (table === 'none') return kTables;
    const a = table === 'scratch' ? kTables.subarray(j * TABLE, (j + 1) * TABLE) : new Float64Array(TABLE);
    a[0] = 0;
    const top = topTf[j];
    if (mode === Mode.Qld) for (let tf = 1; tf <= top; tf++) a[tf] = t.p1 * Math.log1p(tf / t.p2);
    else if (mode === Mode.LuceneLmd) for (let tf = 1; tf <= top; tf++) a[tf] = luceneLmdTf(tf, t.p2);
    else for (let tf = 1; tf <= top; tf++) a[tf] = Math.log1p(tf / t.p2);
    return a;
  });
}

/** The walk's state over `view` for one query: lists planned, scratch laid out, tables and descriptors filled. */
function prepareWalk(view: ScoringView, inp: MaxScoreInput, blockDocs: number, marked: boolean, prune: boolean, sparse: boolean): Walk {
  const { mode, plan, qld } = inp;
  const T = plan.length;
  // A 256-entry table by tf with table[0] = 0 (QLD), so absent docs add +0 and scores stay
  // bit-identical to the posting walk. BM25 adds (p1·0)/(0 + norm) = +0 for absent docs, which
  // needs norm > 0 for every doc: k1 > 0 and b < 1 (norm ≥ k1·(1 − b)); otherwise it skips absent
  // docs by a test, as Lucene QLD (which marks matched docs) does.
  const f = modeFacts(mode);
  const branchFree = f.kernel && (!f.bm25Norm || inp.bm25Positive === true);
  const { dense, lists, topTf, inKernel, copied, c0, maxChunk } = planLists(view, mode, plan);
  blockedStats.longestFusedRun = 0;
  // List j's p1 (BM25) or table (QLD) and the address of its tf bytes for the block are entry j of
  // arrays in the scratch (the bytes in place when resident, else a copy there).
  const { runs, copyRows } = fusedRuns(dense, branchFree);
  const vm = viewMemory(view);
  // sparseCandidates needs every compact list in the kernel (BM25, no tf escape, within the budget).
  const sparseOk = sparse && mode === Mode.Bm25 && branchFree && dense.every((d, j) => d !== null || inKernel[j]);
  const byLength = blockedPruning.byLength && mode === Mode.Bm25 && !marked && !sparseOk;
  const sc = layoutScratch(vm, view, inp, marked, copyRows, maxChunk, blockDocs, sparseOk, prune, byLength);
  const kern = vm.kernel;
  const mem = kern.memory.buffer;
  // Typed arrays over the lists and dense rows, taken now that the memory no longer grows.
  const bs = new Float64Array(mem, sc.scoresOff, blockDocs);
  bs.fill(0);
  const tables = weightTables(mode, plan, topTf, new Float64Array(mem, sc.tablesOff, f.tfTable === 'scratch' ? T * TABLE : 0));
  const rowPtr = new Int32Array(mem, sc.rowsOff, T);
  const copyAt = new Int32Array(T).fill(-1);
  const dP1 = new Float64Array(mem, sc.dP1Off, f.bm25Norm ? T : 0);
  let nextCopy = 0;
  for (const r of runs)
    for (let j = r.j; j < r.e; j++) {
      if (f.bm25Norm) dP1[j] = plan[j].p1;
      if (dense[j]!.off < 0) {
        copyAt[j] = nextCopy * blockDocs;
        rowPtr[j] = sc.dTfOff + nextCopy++ * blockDocs;
      }
    }
  // Each kernel list's descriptor: where its postings are (in place, or the current chunk's copy
  // in the scratch, as offsets for its posting index p), p, the current chunk's end, p1 or table.
  // Runs of consecutive kernel lists are walked by one call per block piece.
  const descI = new Int32Array(mem, sc.descOff, T * 6);
  const descF = new Float64Array(mem, sc.descOff, T * 3);
  const kIdx = new Int32Array(T).fill(-1);
  const kRunEnd = new Int32Array(T).fill(-1);
  let nk = 0;
  for (let j = 0; j < T; j++) {
    if (!inKernel[j]) continue;
    if (j === 0 || !inKernel[j - 1]) {
      let e = j + 1;
      while (e < T && inKernel[e]) e++;
      kRunEnd[j] = e;
    }
    const at = nk * 6;
    kIdx[j] = nk++;
    descI[at] = copied[j] ? 0 : lists[j]!.lowOff;
    descI[at + 1] = copied[j] ? 0 : lists[j]!.tfOff;
    descI[at + 2] = 0;
    descI[at + 3] = 0;
    if (mode === Mode.Bm25) descF[at / 2 + 2] = plan[j].p1;
    else descI[at + 4] = sc.tablesOff + j * TABLE * 8;
  }
  const denseEnd = new Int32Array(T);
  for (const r of runs) for (let q = r.j; q < r.e; q++) denseEnd[q] = r.e;
  const kEnd = new Int32Array(T);
  for (let j = 0; j < T; j++) if (kRunEnd[j] >= 0) for (let q = j; q < kRunEnd[j]; q++) kEnd[q] = kRunEnd[j];
  return {
    mode,
    plan,
    T,
    arr: inp.arr,
    lo: view.lo,
    c0,
    branchFree,
    kern,
    sc,
    dense,
    lists,
    inKernel,
    copied,
    dTfs: dense.map((d) => d?.tfs),
    pos: new Int32Array(T),
    tables,
    bs,
    kLow: new Uint16Array(mem, sc.lowOff, maxChunk),
    kTf: new Uint8Array(mem, sc.tfOff, maxChunk),
    dTf: new Uint8Array(mem, sc.dTfOff, copyRows * blockDocs + 16),
    rowPtr,
    copyAt,
    descI,
    kIdx,
    denseEnd,
    kEnd,
    runs,
    mark: marked ? new Uint8Array(blockDocs) : undefined,
    cands: new Int32Array(mem, sc.pruneCandOff, prune ? blockDocs : 0),
    loadedChunk: -1,
    normsBlock: -1,
    lenOff: sc.lenCopyOff,
    bn: new Float64Array(mem, sc.normOff, f.bm25Norm && sc.normHeld < 0 ? blockDocs : 0),
    hi: view.hi,
    sparse: sparseOk,
    kCands: new Int32Array(mem, sc.candOff, sparseOk ? blockDocs : 0),
  };
}

/**
 * MaxScore across blocks (BM25 and textbook QLD): once the running top-k threshold θ is known, a
 * block walks only the terms before J, the first term whose suffix bound R[J] (the most the terms
 * from J on can add to a doc) leaves every doc short of θ unless its partial score is already
 * close; the terms from J on are then added, in plan order, only to the docs whose partial score +
 * R[J] reaches θ (the others cannot enter the top k). Each doc gets the same additions in the same
 * order as without pruning, so kept docs' scores are bit-identical. R and the QLD offset, padded.
 */
function pruneBounds(w: Walk, view: ScoringView, inp: MaxScoreInput, prune: boolean, tight: boolean): { R: Float64Array; offset: number } {
  const { T, mode, plan, dense, lists } = w;
  const { arr, qld } = inp;
  const R = new Float64Array(T + 1);
  let offset = 0;
  if (prune) {
    // sparseCandidates takes each list's tightest bound (its largest weight in the range, cached
    // with the list): its candidates are the docs whose partial + R[J] reaches θ, so R sets their number.
    const key = `${inp.paramKey}:${view.lo}:${view.hi}`;
    for (let j = T - 1; j >= 0; j--)
      R[j] =
        R[j + 1] +
        (tight
          ? tightBm25Bound(dense[j], lists[j], plan[j], arr!, view.lo, view.hi, key)
          : termBound(dense[j], lists[j], mode, plan[j], arr, view.lo, view.hi));
    if (qld) {
      const order = view.byLenRange;
      offset = order.length ? qld.base - qld.qlen * qld.lnl[order[0]] : 0;
    }
    const eps = 1e-9 * (Math.abs(offset) + R[0] + 1);
    for (let j = 0; j <= T; j++) R[j] += eps;
  }
  return { R, offset };
}

export function blockedTopK(view: ScoringView, inp: MaxScoreInput, blockDocs = BLOCK_DOCS): TopK {
  const { mode, k, arr, qld } = inp;
  // Modes whose weights can be 0 mark the docs they touch (Lucene QLD and the lucene scorer); they
  // are added and selected in JavaScript (the kernel's walks and selection take BM25 and textbook QLD).
  const f = modeFacts(mode);
  const marked = f.marks;
  const prune = blockedPruning.enabled && k <= (mode === Mode.Bm25 ? PRUNE_MAX_K_BM25 : PRUNE_MAX_K) && f.kernel && !inp.exhaustive;
  // sparseCandidates forced on every block it can take, or left to the gate (sparseGate).
  const forced = blockedPruning.sparseCandidates;
  const w = prepareWalk(view, inp, blockDocs, marked, prune, prune && (forced || blockedPruning.sparseGate));
  const { T, sc, kern, dense, runs, copyAt, rowPtr, bs } = w;
  const mem = kern.memory.buffer;
  const bn = w.bn;
  const mem8 = new Uint8Array(mem);
  const inPlace = blockedPruning.lengthsInPlace;
  const bl = new Float64Array(mem, sc.lnlOff, qld && sc.lnlHeld < 0 ? blockDocs : 0);
  // The kernel's candidates: score (f64) at outF[2c], block index (i32) at outI[4c + 2].
  const outF = new Float64Array(mem, sc.outOff, marked ? 0 : blockDocs * 2);
  const outI = new Int32Array(mem, sc.outOff, marked ? 0 : blockDocs * 4);
  // Forced, every pruned block takes the tight bounds; gated, the blocked walk keeps today's.
  const { R, offset } = pruneBounds(w, view, inp, prune, w.sparse && forced);
  const Rs = w.sparse && !forced ? pruneBounds(w, view, inp, prune, true).R : R;
  let useSparse = w.sparse && forced;
  // blockBounds: sparseCandidates' split per block from the index's stored bounds (block-bounds.ts), each no looser than the range-wide one.
  const bb = blockedPruning.blockBounds && w.sparse && inp.bm25 ? view.blockBounds : undefined;
  const tb = bb ? termBounds(w, view, inp) : undefined;
  const Rb = new Float64Array(T + 1);
  // Forced, the gate is still asked (its inputs recorded for the bench's fit) but not followed.
  let gatePending = w.sparse;
  blockedStats.gate.taken = -1;
  let firstDense = 0;
  while (firstDense < T && !dense[firstDense]) firstDense++;
  blockedStats.prunedBlocks = 0;
  blockedStats.fallbackBlocks = 0;
  blockedStats.candidates = 0;
  blockedStats.scanSelects = 0;
  blockedStats.scanFallbacks = 0;
  blockedStats.kernelCandidateRuns = 0;
  blockedStats.boundedBlocks = 0;
  blockedStats.skippedBlocks = 0;
  blockedStats.unselectedBlocks = 0;
  blockedStats.unselectedPruned = 0;
  blockedStats.byLength = sc.lenHeld < 0 ? 0 : sc.lenWidth === 1 ? 2 : 1;
  // The leading lists the kernel's BM25 walk adds (bm25Lists), which records the largest score it
  // stores (walk.wat storedMax): a block that walks only these knows a bound of every doc it touched.
  let tracked = 0;
  if (mode === Mode.Bm25 && !marked && blockedPruning.selectByMax) while (tracked < T && !w.dTfs[tracked] && w.inKernel[tracked]) tracked++;

  const top = new TopK(k);
  let thr = -Infinity;
  const lo = view.lo;
  for (let b0 = view.lo; b0 < view.hi; b0 += blockDocs) {
    const b1 = Math.min(view.hi, b0 + blockDocs);
    // The block's norms / log-lengths: in place when held, else copied in (its u16 lengths, walked by length).
    // Walked by length, the block's lengths are copied next to its scores first: one sequential
    // read of 2 bytes a doc, where reading them in place missed the cache at random (0.84× the CPU).
    // u8 when the range's longest doc is ≤ 255 tokens (1 byte a doc: half the copy).
    if (sc.lenHeld >= 0) {
      const lw = sc.lenWidth;
      if (inPlace) w.lenOff = sc.lenHeld + (b0 - lo) * lw;
      else mem8.copyWithin(sc.lenCopyOff, sc.lenHeld + (b0 - lo) * lw, sc.lenHeld + (b1 - lo) * lw);
      w.normsBlock = -1;
    }
    const nOff = sc.normHeld >= 0 ? sc.normHeld + (b0 - lo) * 8 : sc.normOff;
    const lOff = sc.lnlHeld >= 0 ? sc.lnlHeld + (b0 - lo) * 8 : sc.lnlOff;
    if (f.bm25Norm && sc.normHeld < 0 && sc.lenHeld < 0) bn.set(arr!.subarray(b0, b1));
    if (qld && sc.lnlHeld < 0) bl.set(qld.lnl.subarray(b0, b1));
    // Resident dense rows: the address of the block's first doc's tf byte.
    for (const r of runs) for (let j = r.j; j < r.e; j++) if (copyAt[j] < 0) rowPtr[j] = dense[j]!.off + (b0 - lo);
    if (gatePending && thr > -Infinity) {
      gatePending = false;
      const taken = sparseGate(w, Rs, thr, b0, view.hi);
      if (!forced) useSparse = taken;
    }
    if (useSparse) {
      // MaxScore without the per-document floor: J over every list, compact ones included.
      const Rx = bb && thr > -Infinity ? blockR(w, bb, tb!, inp.bm25!, view.avgdl, b0, b1, Rb) : Rs;
      let Js = T;
      if (thr > -Infinity) {
        Js = 0;
        while (Js < T && Rx[Js] >= thr) Js++;
      }
      if (Js <= firstDense) {
        if (Rx === Rb) blockedStats.boundedBlocks++;
        if (Js === 0) blockedStats.skippedBlocks++;
        const count = sparseBlock(w, b0, b1, Js, Rx, thr, nOff);
        top.pushCandidates(outF, outI, count, b0);
        thr = top.threshold;
        continue;
      }
    }
    let J = T;
    if (prune && thr > -Infinity) {
      // Only the lists walked densely are left to candidates (a look-up per candidate by doc
      // index); a compact list is cheaper to walk in the kernel than to gallop into per candidate.
      J = blockedPruning.compactCandidates ? 0 : firstDense;
      while (J < T && offset + R[J] >= thr) J++;
    }
    const byMax = J <= tracked && thr > 0;
    if (byMax) kern.resetMax();
    walkTerms(w, b0, b1, 0, J, nOff);
    if (byMax) {
      // Every doc the walk touched scores at most m, the others 0: when m (+ the rest's bound R[J],
      // a pruned block) falls short of θ no doc of the block can enter the top k. The block is
      // cleared without a selection or a scan (the compact lists from J on moved past it).
      const m = kern.storedMax();
      if (m < thr && (J === T || m + R[J] < thr)) {
        if (J < T) addToCandidates(w, b0, b1, J, 0, nOff);
        kern.clearScores(sc.scoresOff, b1 - b0);
        blockedStats.unselectedBlocks++;
        if (J < T) blockedStats.unselectedPruned++;
        continue;
      }
    }
    const pruned = J < T ? pruneBlock(w, b0, b1, J, R[J], thr, qld, nOff) : -1;
    // Dense selection over the block, clearing as we go: the kernel writes the docs at or above the
    // threshold the block started with; they are pushed in doc order against the running threshold,
    // exactly as one scan would push them. A BM25 block pruned by the kernel's scan has every doc
    // but its candidates cleared already (none of them reaches θ): the candidates are all it selects.
    const n = b1 - b0;
    if (!marked) {
      const count =
        pruned >= 0
          ? kern.emitCandidates(sc.pruneCandOff, pruned, sc.scoresOff, thr, sc.outOff, 0)
          : qld
            ? kern.selectQld(sc.scoresOff, lOff, qld.base, qld.qlen, thr, n, sc.outOff)
            : kern.selectTouched(sc.scoresOff, thr, n, sc.outOff);
      top.pushCandidates(outF, outI, count, b0);
      thr = top.threshold;
    } else thr = selectMarked(w, top, thr, b0, n, f.f32);
  }
  return top;
}

/**
 * The terms from J on of a pruned block: the candidates are the docs whose partial score + R[J]
 * reaches θ; too many of them and the block walks the rest of its terms as usual. BM25 (θ > 0)
 * finds them by the kernel's scan (walk.wat pruneScan), which also clears every other doc's score:
 * such a doc ends below θ whatever it is added (R[J] < θ bounds the rest), so it is never selected,
 * and the block then selects its candidates only. Returns their count when so, else −1 (the block
 * selects over all its docs: textbook QLD, whose unmatched docs score too, or a fallback).
 */
function pruneBlock(w: Walk, b0: number, b1: number, J: number, rest: number, thr: number, qld: MaxScoreInput['qld'], nOff: number): number {
  const { bs, cands } = w;
  const n = b1 - b0;
  let nc = 0;
  const maxC = Math.floor(n * PRUNE_MAX_CANDIDATE_SHARE);
  const byKernel = !qld && thr > 0;
  if (qld) {
    const { base, qlen, lnl } = qld;
    for (let i = 0; i < n && nc <= maxC; i++) if (base - qlen * lnl[b0 + i] + bs[i] + rest >= thr) cands[nc++] = i;
  } else if (byKernel) nc = w.kern.pruneScan(w.sc.scoresOff, n, rest, thr, w.sc.pruneCandOff, maxC);
  else for (let i = 0; i < n && nc <= maxC; i++) if (bs[i] + rest >= thr) cands[nc++] = i;
  if (nc > maxC) {
    blockedStats.fallbackBlocks++;
    if (byKernel) blockedStats.scanFallbacks++;
    walkTerms(w, b0, b1, J, w.T, nOff);
    return -1;
  }
  blockedStats.prunedBlocks++;
  blockedStats.candidates += nc;
  addToCandidates(w, b0, b1, J, nc, nOff);
  if (!byKernel) return -1;
  blockedStats.scanSelects++;
  return nc;
}

/** Selection in JavaScript (modes that mark the docs they touch): the block's marked docs pushed in doc order, cleared as it goes. */
function selectMarked(w: Walk, top: TopK, thr: number, b0: number, n: number, f32: boolean): number {
  const { bs } = w;
  const mark = w.mark!;
  for (let i = 0; i < n; i++) {
    if (mark[i] === 0) continue;
    const s = f32 ? Math.fround(bs[i]) : bs[i];
    bs[i] = 0;
    mark[i] = 0;
    if (s >= thr) {
      top.push(s, b0 + i);
      thr = top.threshold;
    }
  }
  return thr;
}

/** Terms [jFrom, jTo) of the plan added to every doc of the block [b0, b1), chunk piece by chunk piece. */
function walkTerms(w: Walk, b0: number, b1: number, jFrom: number, jTo: number, nOff: number): void {
  const { mode, sc, kern, dTfs, inKernel, kEnd, kIdx, branchFree } = w;
  for (let s0 = b0; s0 < b1; ) {
    const chunk = s0 >>> CHUNK_BITS;
    const base = chunk * CHUNK_DOCS;
    const s1 = Math.min(b1, base + CHUNK_DOCS);
    const lim = s1 - base;
    const ci = chunk - w.c0;
    if (ci !== w.loadedChunk) loadChunk(w, ci);
    const dOff = base - b0; // block-local index of a posting = low + dOff
    for (let j = jFrom; j < jTo; j++) {
      const tfd = dTfs[j];
      if (tfd && branchFree) {
        j = addFusedRun(w, j, jTo, s0, s1, b0, nOff) - 1;
        continue;
      }
      if (tfd) {
        addDenseList(w, j, tfd, s0, s1, b0);
        continue;
      }
      if (inKernel[j]) {
        // A run of kernel lists (walk.wat bm25Lists / tableLists), in plan order.
        const e = Math.min(kEnd[j], jTo);
        if (mode === Mode.Bm25) {
          if (sc.lenHeld >= 0) {
            if (sc.lenWidth === 1) kern.bm25Len8Lists(sc.descOff + kIdx[j] * 24, e - j, lim, dOff, w.lenOff, sc.lenTabOff, sc.scoresOff);
            else kern.bm25LenLists(sc.descOff + kIdx[j] * 24, e - j, lim, dOff, w.lenOff, sc.lenTabOff, sc.scoresOff);
          } else kern.bm25Lists(sc.descOff + kIdx[j] * 24, e - j, lim, dOff, nOff, sc.scoresOff);
        } else kern.tableLists(sc.descOff + kIdx[j] * 24, e - j, lim, dOff, sc.scoresOff);
        j = e - 1;
        continue;
      }
      addCompactList(w, j, ci, base, lim, b0);
    }
    s0 = s1;
  }
}

/**
 * Walked by length, the kernel's dense walks still read f64 norms from the scratch: the block's are
 * copied there before its first dense run (a sequential copy; the walk reads every doc's anyway).
 */
function blockNorms(w: Walk, b0: number): void {
  if (w.sc.lenHeld < 0 || w.normsBlock === b0) return;
  const n = Math.min(w.bs.length, w.hi - b0);
  w.bn.set(w.arr!.subarray(b0, b0 + n));
  w.normsBlock = b0;
}

/** ... and before a pruned block's dense rows go to its candidates, the candidates' norms only. */
function candidateNorms(w: Walk, b0: number, nc: number): void {
  if (w.sc.lenHeld < 0 || w.normsBlock === b0) return;
  const { bn, cands, arr } = w;
  for (let c = 0; c < nc; c++) bn[cands[c]] = arr![b0 + cands[c]];
}

/**
 * A run of densely walked lists from j (up to jTo), added per doc in one pass by the kernel
 * (walk.wat): the same additions in the same order as one pass per list, so bit-identical. Rows
 * not resident have the piece's tf bytes copied in first. Returns the run's end.
 */
function addFusedRun(w: Walk, j: number, jTo: number, s0: number, s1: number, b0: number, nOff: number): number {
  const { sc, kern, dTfs, copyAt, dTf, lo } = w;
  const e = Math.min(w.denseEnd[j], jTo);
  const n = e - j;
  if (n > blockedStats.longestFusedRun) blockedStats.longestFusedRun = n;
  const i0 = s0 - b0;
  for (let q = j; q < e; q++) {
    const at = copyAt[q];
    if (at >= 0) dTf.set(dTfs[q]!.subarray(s0 - lo, s1 - lo), at + i0);
  }
  if (w.mode === Mode.Bm25) {
    blockNorms(w, b0);
    kern.denseBm25(sc.rowsOff + j * 4, n, sc.dP1Off + j * 8, nOff, sc.scoresOff, i0, s1 - b0);
  } else kern.denseTable(sc.rowsOff + j * 4, n, sc.tablesOff + j * TABLE * 8, sc.scoresOff, i0, s1 - b0);
  return e;
}

/** Dense list j (tf bytes tfd) added in JavaScript to the docs [s0, s1) of the block at b0 (not branch-free: absent docs skipped by a test). */
function addDenseList(w: Walk, j: number, tfd: Uint8Array, s0: number, s1: number, b0: number): void {
  const { mode, bs, mark, lo, arr } = w;
  const p1 = w.plan[j].p1;
  if (mode === Mode.Bm25) {
    const norm = arr!;
    for (let d = s0; d < s1; d++) {
      const tf = tfd[d - lo];
      if (tf !== 0) bs[d - b0] = bs[d - b0] + (p1 * tf) / (tf + norm[d]);
    }
  } else if (mode === Mode.LuceneBm25) {
    const ni = arr!;
    for (let d = s0; d < s1; d++) {
      const tf = tfd[d - lo];
      if (tf === 0) continue;
      mark![d - b0] = 1;
      bs[d - b0] += luceneBm25Weight(p1, tf, ni[d]);
    }
  } else if (mode === Mode.LuceneLmd) {
    const ratio = arr!;
    const lt = w.tables[j];
    for (let d = s0; d < s1; d++) {
      const tf = tfd[d - lo];
      if (tf === 0) continue;
      mark![d - b0] = 1;
      bs[d - b0] += luceneLmdWeight(p1, lt[tf], ratio[d]);
    }
  } else {
    const ratio = arr!;
    const lt = w.tables[j];
    for (let d = s0; d < s1; d++) {
      const tf = tfd[d - lo];
      if (tf === 0) continue;
      mark![d - b0] = 1;
      const s = lt[tf] + ratio[d];
      if (s > 0) bs[d - b0] += p1 * s;
    }
  }
}

/** Compact list j (not in the kernel) walked in JavaScript through the postings of chunk ci below lim, from its cursor. */
function addCompactList(w: Walk, j: number, ci: number, base: number, lim: number, b0: number): void {
  const { mode, bs, mark, arr } = w;
  const list = w.lists[j]!;
  const end = list.chunkEnd[ci];
  const p1 = w.plan[j].p1;
  const { low, tfs } = list;
  const p2 = w.plan[j].p2;
  let p = w.pos[j];
  if (mode === Mode.LuceneBm25) {
    const ni = arr!;
    for (; p < end; p++) {
      const l = low[p];
      if (l >= lim) break;
      const d = base + l;
      let tf = tfs[p];
      if (tf === TF8_ESCAPE) tf = list.bigTf!.get(p)!;
      mark![d - b0] = 1;
      bs[d - b0] += luceneBm25Weight(p1, tf, ni[d]);
    }
  } else if (mode === Mode.LuceneLmd) {
    const ratio = arr!;
    const lt = w.tables[j];
    for (; p < end; p++) {
      const l = low[p];
      if (l >= lim) break;
      const d = base + l;
      let tf = tfs[p];
      if (tf === TF8_ESCAPE) tf = list.bigTf!.get(p)!;
      mark![d - b0] = 1;
      bs[d - b0] += luceneLmdWeight(p1, tf < TABLE ? lt[tf] : luceneLmdTf(tf, p2), ratio[d]);
    }
  } else if (mode !== Mode.LuceneQld) {
    // Lists the kernel does not take (a tf ≥ 255 in the escape map), BM25 or textbook QLD.
    const norm = arr!;
    const wt = w.tables[j];
    for (; p < end; p++) {
      const l = low[p];
      if (l >= lim) break;
      const d = base + l;
      let tf = tfs[p];
      if (tf === TF8_ESCAPE) tf = list.bigTf!.get(p)!;
      bs[d - b0] = bs[d - b0] + (mode === Mode.Bm25 ? (p1 * tf) / (tf + norm[d]) : tf < TABLE ? wt[tf] : p1 * Math.log1p(tf / p2));
    }
  } else {
    const ratio = arr!;
    const lt = w.tables[j];
    for (; p < end; p++) {
      const l = low[p];
      if (l >= lim) break;
      const d = base + l;
      let tf = tfs[p];
      if (tf === TF8_ESCAPE) tf = list.bigTf!.get(p)!;
      mark![d - b0] = 1;
      const s = (tf < TABLE ? lt[tf] : Math.log1p(tf / p2)) + ratio[d];
      if (s > 0) bs[d - b0] += p1 * s;
    }
  }
  w.pos[j] = p;
}

/**
 * Terms [J, T) added to the block's candidates only (docs in ascending order), and every compact list
 * moved past the block. BM25's resident dense rows go to the kernel (walk.wat denseBm25Cands), a
 * run of them per call: per doc the same additions in the same order.
 */
function addToCandidates(w: Walk, b0: number, b1: number, J: number, nc: number, nOff: number): void {
  const { T, mode, plan, dTfs, bs, cands, lo, arr, lists, inKernel, kIdx, descI, pos, tables, branchFree, copyAt, denseEnd, sc, kern } = w;
  for (let j = J; j < T; j++) {
    const tfd = dTfs[j];
    const t = plan[j];
    if (tfd && mode === Mode.Bm25 && branchFree && copyAt[j] < 0 && nc >= blockedPruning.kernelCandidatesMin) {
      // Resident rows of a fused run (their block addresses set): the kernel adds a run of them per candidate.
      let e = j + 1;
      while (e < denseEnd[j] && copyAt[e] < 0) e++;
      candidateNorms(w, b0, nc);
      kern.denseBm25Cands(sc.rowsOff + j * 4, e - j, sc.dP1Off + j * 8, nOff, sc.scoresOff, sc.pruneCandOff, nc);
      blockedStats.kernelCandidateRuns++;
      j = e - 1;
      continue;
    }
    if (tfd) {
      if (mode === Mode.Bm25) {
        const norm = arr!;
        for (let c = 0; c < nc; c++) {
          const i = cands[c];
          const d = b0 + i;
          const tf = tfd[d - lo];
          // (+0 for an absent doc in the fused walk: skipping it leaves the same bits.)
          if (tf !== 0) bs[i] = bs[i] + (t.p1 * tf) / (tf + norm[d]);
        }
      } else {
        const w = tables[j];
        for (let c = 0; c < nc; c++) {
          const i = cands[c];
          const tf = tfd[b0 + i - lo];
          if (tf !== 0) bs[i] = bs[i] + w[tf];
        }
      }
      continue;
    }
    const list = lists[j]!;
    const { low, tfs, chunkEnd } = list;
    const kd = inKernel[j] ? kIdx[j] * 6 + 2 : -1;
    let p = kd >= 0 ? descI[kd] : pos[j];
    const wt = tables[j];
    for (let c = 0; c < nc; c++) {
      const i = cands[c];
      const d = b0 + i;
      const ci = (d >>> CHUNK_BITS) - list.c0;
      const start = ci > 0 ? chunkEnd[ci - 1] : 0;
      const end = chunkEnd[ci];
      if (p < start) p = start;
      if (p >= end) continue;
      const x = d & (CHUNK_DOCS - 1);
      p = gallop16(low, p, end, x);
      if (p >= end || low[p] !== x) continue;
      let tf = tfs[p];
      if (tf === TF8_ESCAPE) tf = list.bigTf!.get(p)!;
      bs[i] = bs[i] + (mode === Mode.Bm25 ? (t.p1 * tf) / (tf + arr![d]) : tf < TABLE ? wt[tf] : t.p1 * Math.log1p(tf / t.p2));
      p++;
    }
    // Past the block: the first posting at or after b1.
    const ci = (b1 >>> CHUNK_BITS) - list.c0;
    if (ci >= chunkEnd.length) p = list.length;
    else {
      const start = ci > 0 ? chunkEnd[ci - 1] : 0;
      if (p < start) p = start;
      p = gallop16(low, p, chunkEnd[ci], b1 & (CHUNK_DOCS - 1));
    }
    if (kd >= 0) descI[kd] = p;
    else pos[j] = p;
  }
}

const smallest = new WeakMap<Float64Array, Map<string, number>>();
/** Smallest entry of a per-doc array over [lo, hi), cached per array and range. */
function minOver(arr: Float64Array, lo: number, hi: number): number {
  let m = smallest.get(arr);
  if (!m) smallest.set(arr, (m = new Map()));
  const key = `${lo}:${hi}`;
  let v = m.get(key);
  if (v === undefined) {
    v = Infinity;
    for (let d = lo; d < hi; d++) if (arr[d] < v) v = arr[d];
    m.set(key, v);
  }
  return v;
}

/**
 * An upper bound of the weight any posting of a term adds in [lo, hi) (BM25, textbook QLD): from
 * its largest tf and, for BM25, the range's smallest norm (every weight grows with tf and falls
 * with length). Padded against rounding: never below a weight actually added.
 */
function termBound(dense: DenseList | null, list: CompactList | null, mode: Mode, t: TermPlan, arr: Float64Array | undefined, lo: number, hi: number): number {
  let tf = dense ? dense.maxTf : list!.maxTf;
  if (!dense && list!.bigTf) for (const v of list!.bigTf.values()) if (v > tf) tf = v;
  const w = mode === Mode.Bm25 ? tf / (tf + minOver(arr!, lo, hi)) : Math.log1p(tf / t.p2);
  return t.p1 * w * (1 + 1e-12);
}
