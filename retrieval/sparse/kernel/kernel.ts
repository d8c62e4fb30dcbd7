/**
 * The WebAssembly posting walks (walk.wat, compiled into walk-wasm.ts by `npm run build:kernel`),
 * one instance and one linear memory per scoring view (view-memory.ts), which holds the view's
 * cached compact postings and dense tf bytes in place; blocked-taat.ts lays out each query's
 * scratch above them (the block's score and norm arrays, QLD's weight tables, a pointer per dense
 * row, copies of lists that are not resident), the walks add, blocked-taat.ts reads the scores back
 * through a Float64Array view. The walks do the JavaScript loops' IEEE-754 operations in the same order, so
 * scores are bit-identical (retrieval/sparse/exact-strategies.test.ts); they run ~2.5× faster per
 * posting than V8's code for the same loop (no bounds checks, no tagging). The memory only grows,
 * never shrinks.
 */
import { compileWasm, instantiateWasm, wasmMemory, type WasmMemory, type WasmModule } from '../../../core/wasm.js';
import { WALK_WASM_BASE64 } from './walk-wasm.js';
import { DECODE_WASM_BASE64 } from './decode-wasm.js';

export interface WalkKernel {
  /** BM25 walk: returns the posting index where it stopped (see walk.wat). */
  bm25(lowOff: number, tfOff: number, p: number, end: number, lim: number, dOff: number, normOff: number, scoresOff: number, p1: number): number;
  /** The largest score bm25 / bm25Lists stored since resetMax (0 at least): an upper bound of every score they touched. */
  storedMax(): number;
  resetMax(): void;
  /** n f64 scores from scoresOff set to 0 (memory.fill). */
  clearScores(scoresOff: number, n: number): void;
  /** Table walk (256 f64 weights by tf at tableOff): returns where it stopped. */
  table(lowOff: number, tfOff: number, p: number, end: number, lim: number, dOff: number, tableOff: number, scoresOff: number): number;
  /** Consecutive lists walked as by bm25, from 24-byte descriptors {lowOff, tfOff, p, end: i32; p1: f64} (p stored back): see walk.wat. */
  bm25Lists(descOff: number, nLists: number, lim: number, dOff: number, normOff: number, scoresOff: number): void;
  /** bm25Lists with each doc's norm read by its length: the f64 at tabOff + 8·len[i], len u16 at lenOff + 2i (walk.wat bm25Len). */
  bm25LenLists(descOff: number, nLists: number, lim: number, dOff: number, lenOff: number, tabOff: number, scoresOff: number): void;
  /** bm25LenLists with the lengths as u8 at lenOff + i (walk.wat bm25Len8: the range's longest doc ≤ 255 tokens). */
  bm25Len8Lists(descOff: number, nLists: number, lim: number, dOff: number, lenOff: number, tabOff: number, scoresOff: number): void;
  /** Same for table walks: descriptors {lowOff, tfOff, p, end, tableOff: i32}. */
  tableLists(descOff: number, nLists: number, lim: number, dOff: number, scoresOff: number): void;
  /** Fused dense BM25 run (two docs per step, f64x2), list r's tf bytes of the block at the i32 address rowsOff + 4r: see walk.wat. */
  denseBm25(rowsOff: number, nLists: number, p1Off: number, normOff: number, scoresOff: number, i0: number, i1: number): void;
  /** A pruned block's dense BM25 rows (as denseBm25's) added to its nc candidates only (i32 block indexes at candOff): see walk.wat. */
  denseBm25Cands(rowsOff: number, nLists: number, p1Off: number, normOff: number, scoresOff: number, candOff: number, nc: number): void;
  /** Fused dense table run (textbook QLD), rows as denseBm25's: see walk.wat. */
  denseTable(rowsOff: number, nLists: number, tablesOff: number, scoresOff: number, i0: number, i1: number): void;
  /** Block top-k candidates, textbook QLD (s = base − qlen·lnl + score): see walk.wat. */
  selectQld(scoresOff: number, lnlOff: number, base: number, qlen: number, thr: number, n: number, outOff: number): number;
  /** Block top-k candidates of touched docs (score ≠ 0): see walk.wat. */
  selectTouched(scoresOff: number, thr: number, n: number, outOff: number): number;
  /** A pruned BM25 block's candidates (score + rest ≥ thr, i32 at candOff, ascending), every other doc's score cleared; stops past maxC; returns their count. */
  pruneScan(scoresOff: number, n: number, rest: number, thr: number, candOff: number, maxC: number): number;
  /** bm25Lists that also sets bit i of the block's touched bitmap (i64 words at bitsOff) per posting: see walk.wat. */
  bm25MarkLists(descOff: number, nLists: number, lim: number, dOff: number, normOff: number, scoresOff: number, bitsOff: number): void;
  /** The touched docs of bitmap words [w0, nWords) in ascending order: those with score + rest ≥ thr written (i32) at candOff, the others cleared; returns their count. */
  gatherTouched(bitsOff: number, w0: number, nWords: number, scoresOff: number, rest: number, thr: number, candOff: number): number;
  /** One compact list (a bm25Lists descriptor) added to the piece's candidates by galloping, its cursor moved to the piece's end. */
  bm25Lookup(desc: number, lim: number, dOff: number, normOff: number, scoresOff: number, candOff: number, nc: number): void;
  /** The candidates whose score + rest reaches thr kept in order, the others' scores cleared; returns how many are kept. */
  keepCandidates(candOff: number, nc: number, scoresOff: number, rest: number, thr: number): number;
  /** Candidates at or above thr written as selectTouched writes them from entry `at`, all cleared; returns at + their count. */
  emitCandidates(candOff: number, nc: number, scoresOff: number, thr: number, outOff: number, at: number): number;
  memory: WasmMemory;
}

let compiled: WasmModule | undefined;

/**
 * A fresh instance over a fresh memory (`bytes` long at least). view-memory.ts gives each scoring
 * view one, which also holds the view's cached postings; views of an older buffer are stale after
 * the memory grows.
 */
export function createKernel(bytes = 0): WalkKernel {
  compiled ??= compileWasm(WALK_WASM_BASE64);
  const memory = wasmMemory(bytes);
  const exp = instantiateWasm<Omit<WalkKernel, 'memory'>>(compiled, memory);
  return { ...exp, memory };
}

/** The posting decoder (decode.wat): one list's varint bytes into the compact form, in a kernel memory. */
export interface DecodeKernel {
  /**
   * Postings of [lo, hi) from the df postings at `src`: low u16s at lowOff, tf bytes at tfOff, chunk
   * ends (i32) at chunkOff, {i32 index, f64 tf} pairs at bigOff (16 bytes each) for tfs ≥ 255; at
   * `out` the i32s n, largest tf byte, postings parsed, bytes parsed, escaped tfs. Returns n.
   */
  decode(
    src: number,
    df: number,
    lo: number,
    hi: number,
    c0: number,
    chunks: number,
    lowOff: number,
    tfOff: number,
    chunkOff: number,
    bigOff: number,
    out: number,
  ): number;
}

let decodeModule: WasmModule | undefined;

/** The decoder over `memory` (a walk kernel's: view-memory.ts makes one per view memory). */
export function createDecoder(memory: WasmMemory): DecodeKernel {
  decodeModule ??= compileWasm(DECODE_WASM_BASE64);
  return instantiateWasm<DecodeKernel>(decodeModule, memory);
}
