import { createKernel } from '../../../dist/retrieval/sparse/kernel/kernel.js';
const B = 16384, L = 13, PER = Number(process.argv[2] ?? 600), NB = Number(process.argv[3] ?? 1); // NB distinct blocks of list data (streaming when large)
const bytesPerBlock = L * PER * 3;
const k = createKernel(64 * 2 ** 20 + NB * bytesPerBlock + NB * B * 8);
let mem = new DataView(k.memory.buffer);
const scoresOff = 1 << 20, normOff = scoresOff + B * 8, descOff = normOff + B * 8, dataOff = 4 << 20;
let seed = 1; const rnd = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
const normBase = dataOff + NB * bytesPerBlock + 64; for (let i = 0; i < B * NB; i++) mem.setFloat64(normBase + 8 * i, 0.5 + rnd(), true);
// lists: for block b, list l: low at dataOff + (b*L + l)*PER*2 ... tf after
const lowBase = dataOff, tfBase = dataOff + NB * L * PER * 2;
for (let b = 0; b < NB; b++) for (let l = 0; l < L; l++) {
  const s = new Set(); while (s.size < PER) s.add(Math.floor(rnd() * B));
  const a = [...s].sort((x, y) => x - y);
  const idx = b * L + l;
  for (let p = 0; p < PER; p++) { mem.setUint16(lowBase + 2 * (idx * PER + p), a[p], true); mem.setUint8(tfBase + idx * PER + p, 1 + (rnd() < 0.2 ? 1 : 0)); }
}
const u8 = new Uint8Array(k.memory.buffer);
function run(iters) {
  let blk = 0;
  const t = performance.now();
  for (let it = 0; it < iters; it++) {
    for (let l = 0; l < L; l++) {
      const d = descOff + 24 * l, idx = blk * L + l;
      mem.setInt32(d, lowBase, true); mem.setInt32(d + 4, tfBase, true);
      mem.setInt32(d + 8, idx * PER, true); mem.setInt32(d + 12, idx * PER + PER, true); mem.setFloat64(d + 16, 2.1 * (l + 1), true);
    }
    u8.copyWithin(normOff, normBase + blk * B * 8, normBase + (blk + 1) * B * 8); k.bm25Lists(descOff, L, B, 0, normOff, scoresOff);
    k.clearScores(scoresOff, B);
    blk = (blk + 1) % NB;
  }
  return (performance.now() - t) * 1e6 / (iters * L * PER);
}
run(2000);
console.log(`PER ${PER} NB ${NB} ns/posting`, run(20000).toFixed(3), run(20000).toFixed(3));
