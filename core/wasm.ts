/**
 * The parts of the WebAssembly JS API the project's kernels use (the project's lib settings do not
 * declare it), and one way to compile and instantiate a kernel shipped as base64 (sparse posting
 * walks, dense dot products, use-lite's matrix products): one linear memory imported as env.mem.
 */
export interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
export type WasmModule = object;

export const WASM_PAGE = 65536;

const WA = (
  globalThis as unknown as {
    WebAssembly: {
      Memory: new (d: { initial: number }) => WasmMemory;
      Module: new (bytes: Uint8Array) => WasmModule;
      validate(bytes: Uint8Array): boolean;
      Instance: new (m: WasmModule, imports: object) => { exports: Record<string, unknown> };
    };
  }
).WebAssembly;

/** Whether this runtime accepts the module (e.g. one using relaxed SIMD). */
export const wasmValidates = (base64: string): boolean => WA.validate(Buffer.from(base64, 'base64'));

/** Compile a module shipped as base64. */
export const compileWasm = (base64: string): WasmModule => new WA.Module(Buffer.from(base64, 'base64'));

/** A linear memory of at least `bytes` bytes (one page at least). */
export const wasmMemory = (bytes: number): WasmMemory => new WA.Memory({ initial: Math.max(1, Math.ceil(bytes / WASM_PAGE)) });

/** Instantiate a compiled kernel over `memory` (imported as env.mem); its exports, typed by the caller. */
export const instantiateWasm = <T>(mod: WasmModule, memory: WasmMemory): T => new WA.Instance(mod, { env: { mem: memory } }).exports as unknown as T;
