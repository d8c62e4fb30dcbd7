// node pf2.mjs: the cost of first-touch page faults — 800 MiB filled twice.
let t = performance.now();
const a = new Uint8Array(800 << 20);
console.log('alloc', (performance.now() - t).toFixed(1));
t = performance.now();
a.fill(1);
console.log('first fill ms', (performance.now() - t).toFixed(1));
t = performance.now(); a.fill(2); console.log('second fill ms', (performance.now() - t).toFixed(1));
