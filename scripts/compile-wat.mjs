// wat → wasm bytes with wabt (used by build-kernel.mjs and the kernel's source-match test).
import wabtInit from 'wabt';

export async function compileWalkWat(source) {
  const wabt = await wabtInit();
  const mod = wabt.parseWat('walk.wat', source);
  try {
    mod.validate();
    return new Uint8Array(mod.toBinary({ log: false, write_debug_names: false }).buffer);
  } finally {
    mod.destroy();
  }
}
