/**
 * Bounded top-k selection: a min-heap of (score, doc) whose root is the current worst hit. Ties are
 * broken by internal doc order (lower index ranks higher), so results are deterministic.
 */
export class TopK {
  readonly scores: Float64Array;
  readonly docs: Int32Array;
  size = 0;

  constructor(readonly k: number) {
    this.scores = new Float64Array(k);
    this.docs = new Int32Array(k);
  }

  /** True when (s1, d1) ranks below (s2, d2). */
  private static worse(s1: number, d1: number, s2: number, d2: number): boolean {
    return s1 < s2 || (s1 === s2 && d1 > d2);
  }

  /** Lowest score that could still enter (−Infinity while not full). */
  get threshold(): number {
    return this.size < this.k ? -Infinity : this.scores[0];
  }

  push(score: number, doc: number): void {
    const { scores, docs } = this;
    if (this.size < this.k) {
      let i = this.size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!TopK.worse(score, doc, scores[p], docs[p])) break;
        scores[i] = scores[p];
        docs[i] = docs[p];
        i = p;
      }
      scores[i] = score;
      docs[i] = doc;
      return;
    }
    if (this.k === 0 || !TopK.worse(scores[0], docs[0], score, doc)) return;
    let i = 0;
    const n = this.size;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) break;
      const r = l + 1;
      let c = l;
      if (r < n && TopK.worse(scores[r], docs[r], scores[l], docs[l])) c = r;
      if (!TopK.worse(scores[c], docs[c], score, doc)) break;
      scores[i] = scores[c];
      docs[i] = docs[c];
      i = c;
    }
    scores[i] = score;
    docs[i] = doc;
  }

  /**
   * Push a block's candidates in order (blocked-taat.ts: score at f[2c], block index at iv[4c + 2],
   * doc = base + index), each only while it still reaches the running threshold — exactly what
   * pushing them one by one with that test does, push's two branches written out in one loop so no
   * score is boxed on the way (a call with a double argument boxes it).
   */
  pushCandidates(f: Float64Array, iv: Int32Array, count: number, base: number): void {
    const { scores, docs, k } = this;
    let c = 0;
    // Filling: sift each candidate up (push's first branch).
    for (; c < count && this.size < k; c++) {
      const score = f[2 * c];
      if (!(score >= -Infinity)) continue; // NaN never reaches a threshold
      const doc = base + iv[4 * c + 2];
      let i = this.size++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (!(score < scores[p] || (score === scores[p] && doc > docs[p]))) break;
        scores[i] = scores[p];
        docs[i] = docs[p];
        i = p;
      }
      scores[i] = score;
      docs[i] = doc;
    }
    if (k === 0) return;
    // Full: a candidate that still reaches the threshold replaces the root if it ranks above it,
    // then sifts down (push's second branch).
    const n = this.size;
    for (; c < count; c++) {
      const score = f[2 * c];
      if (score < scores[0]) continue;
      const doc = base + iv[4 * c + 2];
      if (!(scores[0] < score || (scores[0] === score && docs[0] > doc))) continue;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        let m = l;
        if (r < n && (scores[r] < scores[l] || (scores[r] === scores[l] && docs[r] > docs[l]))) m = r;
        if (!(scores[m] < score || (scores[m] === score && docs[m] > doc))) break;
        scores[i] = scores[m];
        docs[i] = docs[m];
        i = m;
      }
      scores[i] = score;
      docs[i] = doc;
    }
  }

  /** Hits best first (score desc, doc asc) as parallel arrays; one index array is all it allocates besides them. */
  bestFirst(): { docs: number[]; scores: number[] } {
    const { scores, docs, size } = this;
    const order: number[] = [];
    for (let i = 0; i < size; i++) order.push(i);
    // Comparisons, not differences: a double result would be boxed on every call.
    order.sort((a, b) => (scores[b] > scores[a] ? 1 : scores[b] < scores[a] ? -1 : docs[a] - docs[b]));
    const out = { docs: [] as number[], scores: [] as number[] };
    for (const i of order) {
      out.docs.push(docs[i]);
      out.scores.push(scores[i]);
    }
    return out;
  }
}
