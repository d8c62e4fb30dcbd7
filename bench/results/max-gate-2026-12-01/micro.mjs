// The two costs the gate weighs, per 16,384-doc block, in the built kernel of a build with
// max-gate.patch (bm25Lists untracked beside bm25MaxLists) (one process, arms alternated
// batch by batch, CPU time, median of 31 batches):  node micro.mjs BUILD
//   walk: bm25Lists vs bm25MaxLists over L lists of density d (postings per doc), then the block's
//   selection (selectTouched, θ above every score: nothing emitted) — the tracking's cost per posting;
//   skip: bm25MaxLists then clearScores instead of selectTouched — what a skipped block saves per doc.
import { pathToFileURL } from 'node:url';
const [build] = process.argv.slice(2);
const { createKernel } = await import(pathToFileURL(`${build}/dist/retrieval/sparse/kernel/kernel.js`).href);
const n = 16384;
let seed = 42;
const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
const rows = [];
for (const [L, d] of [[2, 0.002], [6, 0.01], [12, 0.05], [20, 0.1], [40, 0.1], [60, 0.15], [100, 0.1], [10, 0.3], [20, 0.45], [40, 0.45]]) {
  // lists' postings: sorted distinct low bits below n, tf 1..4
  const lists = [];
  for (let l = 0; l < L; l++) {
    const docs = [];
    for (let i = 0; i < n; i++) if (rnd() < d) docs.push(i);
    lists.push({ low: Uint16Array.from(docs), tf: Uint8Array.from(docs, () => 1 + Math.floor(rnd() * 4)) });
  }
  const P = lists.reduce((s, x) => s + x.low.length, 0);
  const descOff = 0;
  let at = 24 * L + 64;
  const place = lists.map((x) => {
    const lowOff = at;
    at += x.low.length * 2 + 16;
    const tfOff = at;
    at += x.tf.length + 16;
    at = (at + 7) & ~7;
    return { lowOff, tfOff, end: x.low.length };
  });
  const normOff = at;
  const scoresOff = normOff + n * 8;
  const outOff = scoresOff + n * 8;
  const k = createKernel(outOff + n * 16 + 1024);
  const mem = k.memory.buffer;
  lists.forEach((x, l) => {
    new Uint16Array(mem, place[l].lowOff, x.low.length).set(x.low);
    new Uint8Array(mem, place[l].tfOff, x.tf.length).set(x.tf);
  });
  new Float64Array(mem, normOff, n).set(Float64Array.from({ length: n }, () => 0.5 + rnd()));
  const di = new Int32Array(mem, descOff, 6 * L);
  const df = new Float64Array(mem, descOff, 3 * L);
  const reset = () => {
    for (let l = 0; l < L; l++) {
      di[6 * l] = place[l].lowOff;
      di[6 * l + 1] = place[l].tfOff;
      di[6 * l + 2] = 0;
      di[6 * l + 3] = place[l].end;
      df[3 * l + 2] = 1.3 + l * 0.01;
    }
  };
  const arms = {
    plain: () => {
      reset();
      k.bm25Lists(descOff, L, n, 0, normOff, scoresOff);
      k.selectTouched(scoresOff, 1e9, n, outOff);
    },
    tracked: () => {
      reset();
      k.resetMax();
      k.bm25MaxLists(descOff, L, n, 0, normOff, scoresOff);
      k.storedMax();
      k.selectTouched(scoresOff, 1e9, n, outOff);
    },
    skipped: () => {
      reset();
      k.resetMax();
      k.bm25MaxLists(descOff, L, n, 0, normOff, scoresOff);
      k.storedMax();
      k.clearScores(scoresOff, n);
    },
  };
  const reps = Math.max(20, Math.floor(2e7 / (P + 4 * n)));
  const times = { plain: [], tracked: [], skipped: [] };
  for (let batch = 0; batch < 31; batch++)
    for (const [name, f] of batch % 2 ? Object.entries(arms) : Object.entries(arms).reverse()) {
      // CPU time of this thread's process (the machine is shared: wall would count other processes' slices)
      const c = process.cpuUsage();
      for (let r = 0; r < reps; r++) f();
      const u = process.cpuUsage(c);
      times[name].push(((u.user + u.system) * 1000) / reps);
    }
  const med = (a) => [...a].sort((x, y) => x - y)[a.length >> 1];
  const [pl, tr, sk] = [med(times.plain), med(times.tracked), med(times.skipped)];
  rows.push({ L, d, postings: P, rho: P / n, plainNs: pl, trackedNs: tr, skippedNs: sk, trackNsPerPosting: (tr - pl) / P, skipSavesNsPerDoc: (tr - sk) / n, trackShare: tr / pl - 1 });
  console.log(JSON.stringify(rows.at(-1)));
}
