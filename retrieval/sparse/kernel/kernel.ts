/**
 * The WebAssembly posting walks (walk.wat, compiled into walk-wasm.ts by `npm run build:kernel`),
 * one instance and one linear memory per thread, used by blocked-taat.ts as scratch: the block's
 * score and norm arrays, QLD's weight tables, the current 65,536-doc chunk of each list's compact
 * postings and the block's tf bytes of the densely walked lists are copied in, the walks add,
 * blocked-taat.ts reads the scores back through a Float64Array view. The walks do the JavaScript loops' IEEE-754 operations in the same order, so
 * scores are bit-identical (retrieval/sparse/exact-strategies.test.ts); they run ~2.5× faster per
 * posting than V8's code for the same loop (no bounds checks, no tagging). The memory only grows
 * (to the largest chunk of the largest query seen), never shrinks.
 */
import { WALK_WASM_BASE64 } from './walk-wasm.js';

/** The parts of the WebAssembly JS API used here (the project's lib settings do not declare it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
const WA = (
  globalThis as unknown as {
    WebAssembly: {
      Memory: new (d: { initial: number }) => WasmMemory;
      Module: new (bytes: Uint8Array) => object;
      Instance: new (m: object, imports: object) => { exports: Record<string, unknown> };
    };
  }
).WebAssembly;

export interface WalkKernel {
  /** BM25 walk: returns the posting index where it stopped (see walk.wat). */
  bm25(lowOff: number, tfOff: number, p: number, end: number, lim: number, dOff: number, normOff: number, scoresOff: number, p1: number): number;
  /** Table walk (256 f64 weights by tf at tableOff): returns where it stopped. */
  table(lowOff: number, tfOff: number, p: number, end: number, lim: number, dOff: number, tableOff: number, scoresOff: number): number;
  /** Fused dense BM25 run (two docs per step, f64x2): see walk.wat. */
  denseBm25(tfOff: number, stride: number, nLists: number, p1Off: number, normOff: number, scoresOff: number, i0: number, i1: number): void;
  /** Fused dense table run (textbook QLD): see walk.wat. */
  denseTable(tfOff: number, stride: number, nLists: number, tablesOff: number, scoresOff: number, i0: number, i1: number): void;
  /** Block top-k candidates, textbook QLD (s = base − qlen·lnl + score): see walk.wat. */
  selectQld(scoresOff: number, lnlOff: number, base: number, qlen: number, thr: number, n: number, outOff: number): number;
  /** Block top-k candidates of touched docs (score ≠ 0): see walk.wat. */
  selectTouched(scoresOff: number, thr: number, n: number, outOff: number): number;
  memory: WasmMemory;
}

const PAGE = 65536;
let instance: WalkKernel | undefined;

/** This thread's kernel, its memory grown to at least `bytes`. Views of an older buffer are stale after a call. */
export function walkKernel(bytes: number): WalkKernel {
  if (!instance) {
    const memory = new WA.Memory({ initial: Math.max(1, Math.ceil(bytes / PAGE)) });
    const mod = new WA.Module(Buffer.from(WALK_WASM_BASE64, 'base64'));
    const exp = new WA.Instance(mod, { env: { mem: memory } }).exports as unknown as Omit<WalkKernel, 'memory'>;
    instance = { ...exp, memory };
  }
  const have = instance.memory.buffer.byteLength;
  if (have < bytes) instance.memory.grow(Math.ceil((bytes - have) / PAGE));
  return instance;
}
