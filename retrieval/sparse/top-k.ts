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

  /** Hits best first (score desc, doc asc) as parallel arrays; one index array is all it allocates besides them. */
  bestFirst(): { docs: number[]; scores: number[] } {
    const { scores, docs, size } = this;
    const order: number[] = [];
    for (let i = 0; i < size; i++) order.push(i);
    order.sort((a, b) => scores[b] - scores[a] || docs[a] - docs[b]);
    const out = { docs: [] as number[], scores: [] as number[] };
    for (const i of order) {
      out.docs.push(docs[i]);
      out.scores.push(scores[i]);
    }
    return out;
  }
}
