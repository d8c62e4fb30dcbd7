// Kernel microbenchmark of the BM25 walk by length (walk.wat bm25LenLists / bm25Len8Lists): 13 lists
// of PER random postings per 16,384-doc block, NB blocks of lengths in a range array (u16 or u8), the
// block's lengths copied next to the scores first (as blocked-taat.ts does) or read in place. ns a posting.
//   node micro-lengths.mjs [PER=600] [NB=305]  (305 blocks ≈ 5M docs: one of two threads' range at 10M)
import { createKernel } from '../../../dist/retrieval/sparse/kernel/kernel.js';
const B = 16384, L = 13, PER = Number(process.argv[2] ?? 600), NB = Number(process.argv[3] ?? 305);
const k = createKernel(8 * 2 ** 20 + NB * B * 3 + 2 * NB * L * PER * 3);
const mem = new DataView(k.memory.buffer);
const u8 = new Uint8Array(k.memory.buffer);
const scoresOff = 1 << 20, copyOff = scoresOff + B * 8, tabOff = copyOff + B * 2 + 64, descOff = tabOff + 256 * 8;
const len16 = 4 << 20, len8 = len16 + NB * B * 2, lowBase = len8 + NB * B + 64, tfBase = lowBase + NB * L * PER * 2;
let seed = 1;
const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
for (let i = 0; i <= 148; i++) mem.setFloat64(tabOff + 8 * i, 0.9 * (1 - 0.4 + (0.4 * i) / 60), true);
for (let i = 0; i < NB * B; i++) {
  const l = Math.floor(rnd() * 149);
  mem.setUint16(len16 + 2 * i, l, true);
  u8[len8 + i] = l;
}
for (let b = 0; b < NB; b++)
  for (let l = 0; l < L; l++) {
    const s = new Set();
    while (s.size < PER) s.add(Math.floor(rnd() * B));
    const a = [...s].sort((x, y) => x - y);
    const idx = b * L + l;
    for (let p = 0; p < PER; p++) {
      mem.setUint16(lowBase + 2 * (idx * PER + p), a[p], true);
      mem.setUint8(tfBase + idx * PER + p, 1 + (rnd() < 0.2 ? 1 : 0));
    }
  }
function run(width, inPlace, iters) {
  let blk = 0;
  const t = performance.now();
  for (let it = 0; it < iters; it++) {
    for (let l = 0; l < L; l++) {
      const d = descOff + 24 * l, idx = blk * L + l;
      mem.setInt32(d, lowBase, true);
      mem.setInt32(d + 4, tfBase, true);
      mem.setInt32(d + 8, idx * PER, true);
      mem.setInt32(d + 12, idx * PER + PER, true);
      mem.setFloat64(d + 16, 2.1 * (l + 1), true);
    }
    const src = (width === 1 ? len8 : len16) + blk * B * width;
    let lenOff = src;
    if (!inPlace) {
      u8.copyWithin(copyOff, src, src + B * width);
      lenOff = copyOff;
    }
    if (width === 1) k.bm25Len8Lists(descOff, L, B, 0, lenOff, tabOff, scoresOff);
    else k.bm25LenLists(descOff, L, B, 0, lenOff, tabOff, scoresOff);
    k.clearScores(scoresOff, B);
    blk = (blk + 1) % NB;
  }
  return ((performance.now() - t) * 1e6) / (iters * L * PER);
}
const arms = [
  ['u16 copied', 2, false],
  ['u8 copied', 1, false],
  ['u8 in place', 1, true],
  ['u16 in place', 2, true],
];
for (const [, w, ip] of arms) run(w, ip, 2000);
const out = {};
for (let r = 0; r < 3; r++) for (const [name, w, ip] of r % 2 ? [...arms].reverse() : arms) (out[name] ??= []).push(Number(run(w, ip, 6000).toFixed(3)));
console.log(JSON.stringify({ PER, NB, nsPerPosting: out }));
