// wat → wasm bytes with wabt (used by build-kernel.mjs and the kernels' source-match tests).
import wabtInit from 'wabt';

export async function compileWat(source, name = 'kernel.wat', features = {}) {
  const wabt = await wabtInit();
  const mod = wabt.parseWat(name, source, features);
  try {
    mod.validate();
    return new Uint8Array(mod.toBinary({ log: false, write_debug_names: false }).buffer);
  } finally {
    mod.destroy();
  }
}

export const compileWalkWat = (source) => compileWat(source, 'walk.wat');

/**
 * gemm.wat with each `c = c + x * b` of its inner loop (f32x4.add of an f32x4.mul) fused into one
 * relaxed-SIMD multiply-add, f32x4.relaxed_madd — the FMA variant the kernel picks where the
 * runtime validates relaxed SIMD (Node ≥ 22, or node --experimental-wasm-relaxed-simd).
 */
export function fusedMultiplyAdd(source) {
  const re = /\(f32x4\.add \(local\.get \$(c\d)\) \(f32x4\.mul \(local\.get \$x\) \(local\.get \$(b\d)\)\)\)/g;
  const out = source.replace(re, '(f32x4.relaxed_madd (local.get $x) (local.get $$$2) (local.get $$$1))');
  if (out === source) throw new Error('fusedMultiplyAdd: no f32x4.add of an f32x4.mul found');
  return out;
}

export const compileGemmFmaWat = (source) => compileWat(fusedMultiplyAdd(source), 'gemm.wat', { relaxed_simd: true });
