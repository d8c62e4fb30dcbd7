/**
 * Fused dense walks for blocked-taat.ts: a run of lists held as one tf byte per doc (denseTfs) is
 * added doc by doc — the doc's score is read once, the run's weights are added to it in list order,
 * and it is written once — instead of one read-modify-write pass over the block per list. Each doc
 * receives exactly the additions, in exactly the order, that separate passes give it (absent docs
 * add +0 as before), so scores are bit-identical; what goes is the repeated load and store of
 * scores[d] (and BM25's norm[d]) per list. Lists are taken four at a time (unrolled) so the partial
 * sum stays in a register; a remainder of one to three lists is added the same way.
 */
/**
 * BM25: scores[d] += (p1·tf)/(tf + norm[d]) for lists j0 ≤ j < j1 of `dense`, docs [s0, s1).
 * Needs every norm > 0 (k1 > 0, b < 1), so that an absent doc's (p1·0)/(0 + norm) is +0.
 */
export function addDenseBm25(
  scores: Float64Array,
  sOff: number,
  norm: Float64Array,
  dense: (Uint8Array | null)[],
  p1s: number[],
  j0: number,
  j1: number,
  s0: number,
  s1: number,
  lo: number,
): void {
  let j = j0;
  for (; j + 4 <= j1; j += 4) {
    const ta = dense[j]!, tb = dense[j + 1]!, tc = dense[j + 2]!, td = dense[j + 3]!;
    const pa = p1s[j], pb = p1s[j + 1], pc = p1s[j + 2], pd = p1s[j + 3];
    for (let d = s0; d < s1; d++) {
      const n = norm[d];
      const i = d - lo;
      let s = scores[d - sOff];
      let tf = ta[i];
      s = s + (pa * tf) / (tf + n);
      tf = tb[i];
      s = s + (pb * tf) / (tf + n);
      tf = tc[i];
      s = s + (pc * tf) / (tf + n);
      tf = td[i];
      s = s + (pd * tf) / (tf + n);
      scores[d - sOff] = s;
    }
  }
  for (; j < j1; j++) {
    const t = dense[j]!;
    const p = p1s[j];
    for (let d = s0; d < s1; d++) {
      const tf = t[d - lo];
      scores[d - sOff] = scores[d - sOff] + (p * tf) / (tf + norm[d]);
    }
  }
}

/** Table scorers (textbook QLD): scores[d − sOff] += w_j[tf] for lists j0 ≤ j < j1, docs [s0, s1). */
export function addDenseTables(
  scores: Float64Array,
  sOff: number,
  dense: (Uint8Array | null)[],
  tables: Float64Array[],
  j0: number,
  j1: number,
  s0: number,
  s1: number,
  lo: number,
): void {
  let j = j0;
  for (; j + 4 <= j1; j += 4) {
    const ta = dense[j]!, tb = dense[j + 1]!, tc = dense[j + 2]!, td = dense[j + 3]!;
    const wa = tables[j], wb = tables[j + 1], wc = tables[j + 2], wd = tables[j + 3];
    for (let d = s0; d < s1; d++) {
      const i = d - lo;
      let s = scores[d - sOff];
      s = s + wa[ta[i]];
      s = s + wb[tb[i]];
      s = s + wc[tc[i]];
      s = s + wd[td[i]];
      scores[d - sOff] = s;
    }
  }
  for (; j < j1; j++) {
    const t = dense[j]!;
    const w = tables[j];
    for (let d = s0; d < s1; d++) scores[d - sOff] = scores[d - sOff] + w[t[d - lo]];
  }
}
