/** Test helpers for the sparse engine: temp dirs, in-memory corpora, a brute-force reference scorer. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Passage } from '../corpora/types.js';
import type { Analyzer } from './analyzer.js';

export function tempDir(prefix = 'lexcase-idx-'): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function* fromArray(passages: Passage[]): AsyncIterable<Passage> {
  for (const p of passages) yield p;
}

export const texts = (ts: string[], source = 'test'): Passage[] => ts.map((text, i) => ({ id: `d${i}`, text, source }));

/** Scores computed the slow, obvious way from raw term counts. */
export class BruteForce {
  readonly docs: Map<string, number>[];
  readonly lens: number[];
  readonly df = new Map<string, number>();
  readonly cf = new Map<string, number>();
  readonly total: number;
  readonly avgdl: number;

  constructor(
    readonly analyzer: Analyzer,
    readonly passages: Passage[],
  ) {
    this.docs = passages.map((p) => {
      const m = new Map<string, number>();
      for (const t of analyzer.tokens(p.text)) m.set(t, (m.get(t) ?? 0) + 1);
      return m;
    });
    this.lens = passages.map((p) => analyzer.tokens(p.text).length);
    for (const d of this.docs)
      for (const [t, tf] of d) {
        this.df.set(t, (this.df.get(t) ?? 0) + 1);
        this.cf.set(t, (this.cf.get(t) ?? 0) + tf);
      }
    this.total = this.lens.reduce((a, b) => a + b, 0);
    this.avgdl = this.total / passages.length;
  }

  /** c(t, q) over query terms that occur in the collection. */
  query(q: string): Map<string, number> {
    const m = new Map<string, number>();
    for (const t of this.analyzer.tokens(q)) if (this.df.has(t)) m.set(t, (m.get(t) ?? 0) + 1);
    return m;
  }

  /** BM25 (Lucene formula) of every document that matches at least one query term. */
  bm25(q: string, k1 = 0.9, b = 0.4): Map<string, number> {
    const N = this.passages.length;
    const out = new Map<string, number>();
    const qt = this.query(q);
    this.docs.forEach((d, i) => {
      let s = 0;
      let matched = false;
      for (const [t, c] of qt) {
        const tf = d.get(t) ?? 0;
        if (!tf) continue;
        matched = true;
        const df = this.df.get(t)!;
        const idf = Math.log(1 + (N - df + 0.5) / (df + 0.5));
        s += (c * idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * this.lens[i]) / this.avgdl));
      }
      if (matched) out.set(this.passages[i].id, s);
    });
    return out;
  }

  /** Textbook Dirichlet QLD of EVERY document (empty map when no query term is known). */
  qld(q: string, mu = 2000): Map<string, number> {
    const out = new Map<string, number>();
    const qt = this.query(q);
    if (!qt.size) return out;
    this.docs.forEach((d, i) => {
      let s = 0;
      for (const [t, c] of qt) s += c * Math.log(((d.get(t) ?? 0) + (mu * this.cf.get(t)!) / this.total) / (this.lens[i] + mu));
      out.set(this.passages[i].id, s);
    });
    return out;
  }

  /**
   * Lucene's length of a document of `len` terms after its 1-byte norm (SmallFloat.intToByte4 /
   * byte4ToInt), written out independently: exact below 24; above, 24 + (len − 24) keeping its 4
   * most significant bits.
   */
  static luceneNormLength(len: number): number {
    if (len < 24) return len;
    const v = len - 24;
    const bits = 32 - Math.clz32(v);
    if (bits < 4) return len;
    const shift = bits - 4;
    return 24 + (v >>> shift) * 2 ** shift;
  }

  /** Documents with at least one term (Lucene's docCount). */
  get docCount(): number {
    return this.lens.filter((l) => l > 0).length;
  }

  /**
   * Lucene 8 BM25Similarity in double precision (the lucene scorer rounds to float32 like Lucene):
   * Σ c·idf·tf/(tf + k1·(1 − b + b·L/avgdl)), no (k1 + 1), L the norm length, idf and avgdl over docCount.
   */
  luceneBm25(q: string, k1 = 0.9, b = 0.4): Map<string, number> {
    const N = this.docCount;
    const avgdl = this.total / N;
    const out = new Map<string, number>();
    const qt = this.query(q);
    this.docs.forEach((d, i) => {
      let s = 0;
      let matched = false;
      const L = BruteForce.luceneNormLength(this.lens[i]);
      for (const [t, c] of qt) {
        const tf = d.get(t) ?? 0;
        if (!tf) continue;
        matched = true;
        const df = this.df.get(t)!;
        const idf = Math.log(1 + (N - df + 0.5) / (df + 0.5));
        s += (c * idf * tf) / (tf + k1 * (1 - b + (b * L) / avgdl));
      }
      if (matched) out.set(this.passages[i].id, s);
    });
    return out;
  }

  /** Lucene 8 LMDirichletSimilarity in double precision: luceneQld with the norm length L for dl. */
  luceneLmd(q: string, mu = 2000): Map<string, number> {
    const out = new Map<string, number>();
    const qt = this.query(q);
    this.docs.forEach((d, i) => {
      let s = 0;
      let matched = false;
      const L = BruteForce.luceneNormLength(this.lens[i]);
      for (const [t, c] of qt) {
        const tf = d.get(t) ?? 0;
        if (!tf) continue;
        matched = true;
        const P = (this.cf.get(t)! + 1) / (this.total + 1);
        s += c * Math.max(0, Math.log(1 + tf / (mu * P)) + Math.log(mu / (L + mu)));
      }
      if (matched) out.set(this.passages[i].id, s);
    });
    return out;
  }

  /** Lucene LMDirichlet of every matching document: Σ c·max(0, ln(1 + tf/(μP)) + ln(μ/(dl+μ))), P = (cf+1)/(|C|+1). */
  luceneQld(q: string, mu = 2000): Map<string, number> {
    const out = new Map<string, number>();
    const qt = this.query(q);
    this.docs.forEach((d, i) => {
      let s = 0;
      let matched = false;
      for (const [t, c] of qt) {
        const tf = d.get(t) ?? 0;
        if (!tf) continue;
        matched = true;
        const P = (this.cf.get(t)! + 1) / (this.total + 1);
        s += c * Math.max(0, Math.log(1 + tf / (mu * P)) + Math.log(mu / (this.lens[i] + mu)));
      }
      if (matched) out.set(this.passages[i].id, s);
    });
    return out;
  }
}
