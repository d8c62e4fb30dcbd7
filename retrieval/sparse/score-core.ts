/**
 * Exact top-k for one scoring request over one ScoringView (a doc range). Used in-process and by
 * each query worker; per-range results merge into the global top-k (see query-pool.ts).
 *
 * BM25: Σ c·idf·tf·(k1+1)/(tf + k1·(1 − b + b·dl/avgdl)) over matching docs.
 * QLD textbook: Σ c·ln(μP) − |q|·ln(dl+μ) + Σ_{matched} c·ln(1 + tf/(μP)) over ALL docs; unmatched
 *   docs are taken in (length, index) order, so only k of them are ever looked at.
 * QLD lucene: Σ_{matched} c·max(0, ln(1 + tf/(μP')) + ln(μ/(dl+μ))), P' = (cf+1)/(|C|+1).
 */
import { accumulate, accumulatorFor, Mode } from './accumulator.js';
import { bm25Norms, logLengths, logRatios } from './doc-arrays.js';
import type { ScoringView } from './scoring-view.js';
import { TopK } from './top-k.js';

export type ScoreRequest = { ids: number[]; counts: number[]; k: number } & (
  | { method: 'bm25'; k1: number; b: number }
  | { method: 'qld'; variant: 'textbook' | 'lucene'; mu: number }
);

/** Ranked hits best first: parallel arrays of internal doc index and score. */
export interface Ranked {
  docs: number[];
  scores: number[];
}

export const bm25Idf = (N: number, df: number) => Math.log(1 + (N - df + 0.5) / (df + 0.5));

/** P(t|C) of each QLD variant. */
export const collectionProb = (variant: 'textbook' | 'lucene', cf: number, total: number) => (variant === 'lucene' ? (cf + 1) / (total + 1) : cf / total);

export function scoreTopK(view: ScoringView, req: ScoreRequest): Ranked {
  const k = Math.min(req.k, view.hi - view.lo);
  const { ids, counts } = req;
  if (ids.length === 0 || k <= 0) return { docs: [], scores: [] };
  const acc = accumulatorFor(view);
  const top = new TopK(k);
  const { scores, touched } = acc;

  if (req.method === 'bm25' || req.variant === 'lucene') {
    if (req.method === 'bm25') {
      const norm = bm25Norms(view, req.k1, req.b);
      for (let i = 0; i < ids.length; i++) accumulate(view, acc, ids[i], Mode.Bm25, counts[i] * bm25Idf(view.N, view.df[ids[i]]) * (req.k1 + 1), 0, norm);
    } else {
      const ratios = logRatios(view, req.mu);
      for (let i = 0; i < ids.length; i++) accumulate(view, acc, ids[i], Mode.LuceneQld, counts[i], req.mu * collectionProb('lucene', view.cf[ids[i]], view.totalTokens), ratios);
    }
    for (let i = 0; i < acc.count; i++) {
      const d = touched[i];
      const s = scores[d];
      if (s >= top.threshold) top.push(s, d);
    }
    return ranked(top);
  }

  const mu = req.mu;
  let base = 0;
  let qlen = 0;
  for (let i = 0; i < ids.length; i++) {
    const muP = mu * collectionProb('textbook', view.cf[ids[i]], view.totalTokens);
    base += counts[i] * Math.log(muP);
    qlen += counts[i];
    accumulate(view, acc, ids[i], Mode.Qld, counts[i], muP, undefined);
  }
  const lnl = logLengths(view, mu);
  for (let i = 0; i < acc.count; i++) {
    const d = touched[i];
    const s = base - qlen * lnl[d] + scores[d];
    if (s >= top.threshold) top.push(s, d);
  }
  // Unmatched documents: the best are the shortest, in (length, index) order.
  const order = view.byLenRange;
  let taken = 0;
  for (let j = 0; j < order.length && taken < k; j++) {
    const d = order[j];
    if (scores[d] !== 0) continue;
    taken++;
    const s = base - qlen * lnl[d];
    if (s < top.threshold) break;
    top.push(s, d);
  }
  return ranked(top);
}

function ranked(top: TopK): Ranked {
  const r = top.sorted();
  return { docs: r.map((x) => x[0]), scores: r.map((x) => x[1]) };
}

/** Merge per-range rankings into the global top-k (score desc, then doc index asc). */
export function mergeRanked(parts: Ranked[], k: number): Ranked {
  const out: Ranked = { docs: [], scores: [] };
  const pos = parts.map(() => 0);
  while (out.docs.length < k) {
    let best = -1;
    for (let p = 0; p < parts.length; p++) {
      const i = pos[p];
      if (i >= parts[p].docs.length) continue;
      if (best < 0) best = p;
      else {
        const s = parts[p].scores[i];
        const bs = parts[best].scores[pos[best]];
        if (s > bs || (s === bs && parts[p].docs[i] < parts[best].docs[pos[best]])) best = p;
      }
    }
    if (best < 0) break;
    out.docs.push(parts[best].docs[pos[best]]);
    out.scores.push(parts[best].scores[pos[best]++]);
  }
  return out;
}
