/**
 * The use-lite encoder's WebAssembly kernels (gemm.wat, compiled into gemm-wasm.ts by
 * `npm run build:kernel`): a float32 matrix product over 128-bit SIMD and its packings. Each
 * instance owns one linear memory, sized once by its caller (use-lite-direct.ts keeps the packed
 * weights and all scratch there), so views of it stay valid. Where the runtime validates relaxed
 * SIMD (Node ≥ 22, or Node 20 with --experimental-wasm-relaxed-simd) the product's multiply-adds
 * are fused (f32x4.relaxed_madd: one FMA where the CPU has it, else a multiply and an add; the
 * rounding differs from the unfused kernel by an ulp per step, far inside use-lite's 1e-5 check).
 */
import { compileWasm, instantiateWasm, wasmMemory, wasmValidates, type WasmMemory, type WasmModule } from '../../../core/wasm.js';
import { GEMM_FMA_WASM_BASE64, GEMM_WASM_BASE64 } from './gemm-wasm.js';

/** gemm flag: max(0, ·) on the result. */
export const GEMM_RELU = 1;
/** gemm flag: add the result to C instead of overwriting it. */
export const GEMM_ACCUMULATE = 2;

export interface GemmKernel {
  /** C[i, j] (=|+=) bias[j] + Σk A[i, k]·B[k, j] for i < M (rows of C past M untouched), j < N (a multiple of 8); A packed by packA, B by packB; byte offsets. */
  gemm(a: number, b: number, c: number, ldc: number, bias: number, M: number, K: number, N: number, flags: number): void;
  /** Packs rows < `rows` of row-major src (row stride lda bytes) times `scale` into A layout, rows up to M as zeros. */
  packA(src: number, lda: number, rows: number, M: number, K: number, scale: number, dst: number): void;
  /** Packs B (K × cols, or its transpose when `transposed` is 1) into B layout, columns up to N as zeros. */
  packB(src: number, ld: number, K: number, cols: number, N: number, transposed: number, dst: number): void;
  memory: WasmMemory;
}

export type GemmVariant = 'simd' | 'simd-fma';

/** The variant this runtime runs: fused multiply-adds where relaxed SIMD validates. */
let variantHere: GemmVariant | undefined;
export function gemmVariant(): GemmVariant {
  return (variantHere ??= wasmValidates(GEMM_FMA_WASM_BASE64) ? 'simd-fma' : 'simd');
}

/** Each variant compiled once per thread. */
const compiled: Partial<Record<GemmVariant, WasmModule>> = {};

/** A new kernel instance with a memory of at least `bytes` (variant: default gemmVariant()). */
export function gemmKernel(bytes: number, variant: GemmVariant = gemmVariant()): GemmKernel {
  const memory = wasmMemory(bytes);
  const exp = instantiateWasm<Omit<GemmKernel, 'memory'>>(
    (compiled[variant] ??= compileWasm(variant === 'simd-fma' ? GEMM_FMA_WASM_BASE64 : GEMM_WASM_BASE64)),
    memory,
  );
  return { gemm: exp.gemm, packA: exp.packA, packB: exp.packB, memory };
}
