// wat → wasm bytes with wabt (used by build-kernel.mjs and the kernels' source-match tests).
import wabtInit from 'wabt';

export async function compileWat(source, name = 'kernel.wat') {
  const wabt = await wabtInit();
  const mod = wabt.parseWat(name, source);
  try {
    mod.validate();
    return new Uint8Array(mod.toBinary({ log: false, write_debug_names: false }).buffer);
  } finally {
    mod.destroy();
  }
}

export const compileWalkWat = (source) => compileWat(source, 'walk.wat');
