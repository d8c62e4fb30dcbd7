// Issue 38, window bounds: the share of an agent query's postings in doc windows whose summed exact
// per-term maxima fall below θ (final θ, and the running θ at the start of the window's 16,384-doc walk block).
// node count.mjs BUILD INDEX PROFILE COUNT OUT.json   (counts only; reads the index, writes OUT.json)
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [build, dir, profile, count, out] = process.argv.slice(2);
const load = (p) => import(pathToFileURL(`${build}/dist/${p}`).href);
const { openSparseIndex } = await load('retrieval/open.js');
const { queryTerms } = await load('retrieval/sparse/query-terms.js');
const { scoreTopK } = await load('retrieval/sparse/score-core.js');
const { oracleTerms } = await load('bench/oracle-bound.js');
const { syntheticQueries } = await load('bench/synthetic.js');
const WALK = 16384, K = 10, EPS = 1e-9;
const SIZES = process.env.SIZES ? process.env.SIZES.split(',').map(Number) : [64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384];
const index = await openSparseIndex(dir);
const view = index.view;
const N = view.hi - view.lo;
const qs = syntheticQueries({ count: Number(count), seed: 42, profile, shape: 'agent' });
const scores = new Float64Array(N);
const touched = new Uint8Array(N);
const essPartial = new Float64Array(N);
const nBlocks = Math.ceil(N / WALK);
const thetaAt = new Float64Array(nBlocks + 1); // θ before walk block b (thetaAt[nBlocks]: final)
const top = new Float64Array(K);
const rows = [];
const t0 = Date.now();
for (let qi = 0; qi < qs.length; qi++) {
  const { ids, counts } = queryTerms(index, qs[qi]);
  const req = { method: 'bm25', k1: 0.9, b: 0.4, ids, counts, k: K };
  const terms = oracleTerms(view, req);
  scores.fill(0);
  let P = 0;
  for (const t of terms) { P += t.docs.length; for (let i = 0; i < t.docs.length; i++) scores[t.docs[i]] += t.w[i]; }
  // running k-th best (top kept ascending: top[0] is the k-th best); 0 while fewer than k docs scored
  top.fill(0);
  for (let b = 0; b < nBlocks; b++) {
    thetaAt[b] = top[0];
    const hi = Math.min(N, (b + 1) * WALK);
    for (let d = b * WALK; d < hi; d++) {
      const s = scores[d];
      if (s > top[0]) { let j = 0; while (j + 1 < K && top[j + 1] < s) { top[j] = top[j + 1]; j++; } top[j] = s; }
    }
  }
  thetaAt[nBlocks] = top[0];
  const theta = top[0];
  if (qi < 3) {
    const ref = scoreTopK(view, req, 'exhaustive');
    const refTheta = ref.scores ? ref.scores[K - 1] : ref[K - 1]?.score;
    if (refTheta !== theta) throw new Error(`query ${qi}: θ ${theta} ≠ exhaustive ${refTheta}`);
  }
  const row = { q: qi, terms: terms.length, P, theta, thetaAfterBlock: Array.from([1, 2, 4, 8, 16, 32, 64].filter((b) => b < nBlocks), (b) => [b, thetaAt[b]]), sizes: {} };
  for (const W of SIZES) {
    const nw = Math.ceil(N / W);
    const bound = new Float64Array(nw);
    const posts = new Float64Array(nw);
    const T = terms.length;
    const mxs = [], cnts = [];
    for (const t of terms) {
      const mx = new Float64Array(nw), cnt = new Int32Array(nw);
      for (let i = 0; i < t.docs.length; i++) { const w = (t.docs[i] / W) | 0; if (t.w[i] > mx[w]) mx[w] = t.w[i]; posts[w]++; cnt[w]++; }
      for (let w = 0; w < nw; w++) bound[w] += mx[w];
      mxs.push(mx); cnts.push(cnt);
    }
    // Not a whole-window skip: MaxScore inside each window on the same bounds (final θ). The window's terms by
    // ascending bound; non-essential = the longest prefix whose bounds sum (padded) below θ. Their postings need
    // no walk; the docs the essential lists touch become candidates, each looked up in the non-essential lists.
    const ess = new Uint8Array(nw * T);
    const nonEssTerms = new Int32Array(nw);
    const nonEssBound = new Float64Array(nw);
    let nonEssPostings = 0;
    const order = Array.from({ length: T }, (_, j) => j);
    for (let w = 0; w < nw; w++) {
      order.sort((a, b) => mxs[a][w] - mxs[b][w]);
      let sum = 0, j = 0;
      for (; j < T; j++) { const nx = sum + mxs[order[j]][w]; if (nx * (1 + EPS) >= theta) break; sum = nx; }
      nonEssTerms[w] = j;
      nonEssBound[w] = sum;
      for (let m = 0; m < T; m++) if (m < j) nonEssPostings += cnts[order[m]][w]; else ess[w * T + order[m]] = 1;
    }
    touched.fill(0);
    essPartial.fill(0);
    terms.forEach((t, jj) => { for (let i = 0; i < t.docs.length; i++) { const d = t.docs[i]; if (ess[((d / W) | 0) * T + jj]) { touched[d] = 1; essPartial[d] += t.w[i]; } } });
    // candidates: every doc an essential list touches; filtered: those whose essential partial + the window's
    // non-essential bound (padded) reaches θ (the others cannot, whatever the look-ups would add)
    let candidates = 0, lookups = 0, filtered = 0, lookupsFiltered = 0;
    for (let d = 0; d < N; d++) if (touched[d]) {
      const w = (d / W) | 0;
      candidates++; lookups += nonEssTerms[w];
      if ((essPartial[d] + nonEssBound[w]) * (1 + EPS) >= theta) { filtered++; lookupsFiltered += nonEssTerms[w]; }
    }
    for (let d = 0; d < N; d++) if (scores[d] * (1 + EPS) >= theta && !((essPartial[d] + nonEssBound[(d / W) | 0]) * (1 + EPS) >= theta)) throw new Error(`query ${qi}: a doc reaching θ filtered out`);
    let skipFinal = 0, skipRun = 0, winFinal = 0, winRun = 0, violate = 0;
    for (let w = 0; w < nw; w++) {
      const lo = w * W, hi = Math.min(N, lo + W);
      const pad = bound[w] * (1 + EPS);
      // exactness check: no doc of the window may score above its bound
      if (W === 64) for (let d = lo; d < hi; d++) if (scores[d] > pad) violate++;
      if (pad < theta) { skipFinal += posts[w]; winFinal++; }
      const tb = thetaAt[Math.floor(lo / WALK)];
      if (pad < tb) { skipRun += posts[w]; winRun++; }
    }
    const ratio = Float64Array.from(bound, (x) => x / theta).sort();
    if (violate) throw new Error(`query ${qi}: ${violate} docs above their window's bound`);
    row.sizes[W] = { windows: nw, nonEssPostings, candidates, lookups, filtered, lookupsFiltered, skipFinal, skipRun, winFinal, winRun, boundOverThetaMin: ratio[0], boundOverThetaP01: ratio[Math.floor(nw * 0.01)], boundOverThetaP50: ratio[Math.floor(nw / 2)] };
  }
  rows.push(row);
  const s = row.sizes;
  console.log(`q${qi} terms ${terms.length} P ${P} θ ${theta.toFixed(3)} final ${SIZES.map((W) => `${W}:${(s[W].skipFinal / P * 100).toFixed(1)}%`).join(' ')} | running ${SIZES.map((W) => `${W}:${(s[W].skipRun / P * 100).toFixed(1)}%`).join(' ')} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
}
writeFileSync(out, JSON.stringify({ schema: 'window-bounds/1', index: dir, N, profile, queries: { generator: 'syntheticQueries seed 42 shape agent', count: Number(count) }, scorer: { k1: 0.9, b: 0.4, k: K }, walkBlock: WALK, eps: EPS, sizes: SIZES, rows }, null, 1));
process.exit(0);
