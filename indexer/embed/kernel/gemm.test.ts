import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createRng } from '../../../core/rng.js';
import { GEMM_FMA_WASM_BASE64, GEMM_WASM_BASE64 } from './gemm-wasm.js';
import { GEMM_ACCUMULATE, GEMM_RELU, gemmKernel, gemmVariant, type GemmVariant } from './gemm.js';
// @ts-expect-error — a plain .mjs build script, no type declarations
import { compileGemmFmaWat, compileWat } from '../../../scripts/compile-wat.mjs';

describe('the use-lite encoder kernels (gemm.wat)', () => {
  it('the committed gemm-wasm.ts is exactly what gemm.wat compiles to (npm run build:kernel)', async () => {
    const wat = readFileSync(fileURLToPath(new URL('./gemm.wat', import.meta.url)), 'utf8');
    const bytes: Uint8Array = await compileWat(wat, 'gemm.wat');
    expect(Buffer.from(bytes).toString('base64')).toBe(GEMM_WASM_BASE64);
    const fused: Uint8Array = await compileGemmFmaWat(wat);
    expect(Buffer.from(fused).toString('base64')).toBe(GEMM_FMA_WASM_BASE64);
    expect(fused).not.toEqual(bytes);
  });

  // The FMA variant runs only where relaxed SIMD validates (Node ≥ 22 or the V8 flag).
  const variants: GemmVariant[] = gemmVariant() === 'simd-fma' ? ['simd', 'simd-fma'] : ['simd'];
  it.each(variants)(
    '%s: multiplies packed matrices like a float64 loop: bias, relu, accumulate, B given transposed, 1–3 leftover rows, columns zero-padded',
    (variant) => {
      const rng = createRng(7);
      const rand = (n: number) => Float32Array.from({ length: n }, () => rng.next() * 2 - 1);
      // rows (not a multiple of 4), K, cols (not a multiple of 8)
      for (const [rows, K, cols] of [
        [13, 37, 21],
        [14, 19, 16],
        [15, 64, 40],
        [32, 256, 768],
        [1, 5, 8],
        [2, 3, 8],
        [3, 512, 24],
      ]) {
        const M = Math.ceil(rows / 4) * 4;
        const N = Math.ceil(cols / 8) * 8;
        const a = rand(rows * K);
        const b = rand(K * cols);
        const bias = rand(N);
        const c0 = rand(M * N);
        const bytes = 4 * (2 * M * K + 4 * K * N + 3 * M * N + N) + 1024;
        const k = gemmKernel(bytes, variant);
        const f = new Float32Array(k.memory.buffer);
        let top = 0;
        const put = (x: Float32Array) => {
          const off = top;
          f.set(x, off / 4);
          top += Math.ceil((x.length * 4) / 16) * 16;
          return off;
        };
        const aRow = put(a);
        const bRow = put(b);
        const bT = put(Float32Array.from({ length: cols * K }, (_, i) => b[(i % K) * cols + Math.floor(i / K)])); // [cols][K]
        const biasOff = put(bias);
        const ap = put(new Float32Array(M * K));
        const bp = put(new Float32Array(K * N));
        const bpT = put(new Float32Array(K * N));
        const c = put(new Float32Array(M * N));
        const ref = (i: number, j: number, scale: number) => {
          if (j >= cols) return bias[j];
          let s = bias[j];
          if (i < rows) for (let q = 0; q < K; q++) s += Math.fround(scale * a[i * K + q]) * b[q * cols + j];
          return s;
        };
        const scale = 0.125;
        k.packA(aRow, K * 4, rows, M, K, scale, ap);
        k.packB(bRow, cols * 4, K, cols, N, 0, bp);
        k.packB(bT, K * 4, K, cols, N, 1, bpT);
        expect(Array.from(f.subarray(bpT / 4, bpT / 4 + K * N))).toEqual(Array.from(f.subarray(bp / 4, bp / 4 + K * N)));

        // C rows from `rows` on keep a sentinel: the kernel writes rows < M only.
        const check = (expected: (i: number, j: number) => number) => {
          let worst = 0;
          for (let i = 0; i < rows; i++) for (let j = 0; j < N; j++) worst = Math.max(worst, Math.abs(f[c / 4 + i * N + j] - expected(i, j)));
          expect(worst).toBeLessThan(1e-5 * Math.sqrt(K));
          for (let i = rows; i < M; i++) for (let j = 0; j < N; j++) expect(f[c / 4 + i * N + j]).toBe(-7);
        };
        f.fill(-7, c / 4, c / 4 + M * N);
        k.gemm(ap, bp, c, N * 4, biasOff, M, K, N, 0); // whole blocks, padded rows included
        for (let i = rows; i < M; i++) for (let j = 0; j < N; j++) expect(f[c / 4 + i * N + j]).toBeCloseTo(bias[j], 6);
        f.fill(-7, c / 4, c / 4 + M * N);
        k.gemm(ap, bp, c, N * 4, biasOff, rows, K, N, 0);
        check((i, j) => ref(i, j, scale));
        k.gemm(ap, bp, c, N * 4, biasOff, rows, K, N, GEMM_RELU);
        check((i, j) => Math.max(0, ref(i, j, scale)));
        f.set(c0.subarray(0, rows * N), c / 4);
        k.gemm(ap, bp, c, N * 4, biasOff, rows, K, N, GEMM_ACCUMULATE);
        check((i, j) => c0[i * N + j] + ref(i, j, scale));
      }
    },
  );
});
