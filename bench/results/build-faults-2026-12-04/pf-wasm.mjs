// node pf-wasm.mjs: first-touch page faults in a WebAssembly memory — 1 GiB grown, 800 MiB copied in twice.
const mem = new WebAssembly.Memory({ initial: 1, maximum: 65536 });
const src = new Uint16Array(1 << 20).fill(7);
let t = performance.now();
mem.grow(16384); // 1 GiB
console.log('grow ms', (performance.now() - t).toFixed(1));
t = performance.now();
const N = 400;
for (let i = 0; i < N; i++) new Uint16Array(mem.buffer).set(src, i * (1 << 20));
const dt = performance.now() - t;
console.log('copy into fresh pages', (dt).toFixed(1), 'ms for', N * 2, 'MiB =', (dt * 1e6 / (N * 2 * 2 ** 20)).toFixed(2), 'ns/byte');
t = performance.now();
for (let i = 0; i < N; i++) new Uint16Array(mem.buffer).set(src, i * (1 << 20));
const dt2 = performance.now() - t;
console.log('copy again', dt2.toFixed(1), 'ms');
