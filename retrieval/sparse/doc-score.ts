/**
 * One document's score as the ranking computes it, for explanations (bm25.ts and qld.ts explain,
 * `lexcase explain`, `search --explain`, the explorer's and /v1's explain, MCP's explain tool).
 *
 * The ranking (score-core.ts; every strategy equals exhaustive TAAT bit for bit,
 * exact-strategies.test.ts) adds each matched term's weight in the term plan's order (termPlan:
 * largest weight first), with the accumulator's own expressions (accumulator.ts), then adds
 * textbook QLD's shared part (Σ c·ln(μP) − |q|·ln(dl + μ)) and rounds the lucene scorer's sum to
 * float32. A recomputation in the query's order or with the factors in another order differs in the
 * last digits (up to 8e-16 relative), so an explanation printed a second number for a figure the
 * search had printed. This file repeats the ranking's arithmetic in the ranking's order, so
 * `score` is the search's score bit for bit and `weights[i]` is the exact addend of query term i.
 */
import type { ScoringView } from '../../indexer/sparse/scoring-view.js';
import { Mode } from './accumulator.js';
import { bm25Norm, luceneLogRatios, luceneNormInverses, logRatios } from './doc-arrays.js';
import { luceneBm25Weight, luceneLmdTf, luceneLmdWeight } from './lucene-scorer.js';
import { modeFacts } from './mode-facts.js';
import { termPlan, type ScoreRequest } from './score-core.js';

export interface DocScore {
  /** The score the ranking gives the document (exact: no `approx`). */
  score: number;
  /** The weight the ranking added for each query term (request order; 0 when it added none). */
  weights: number[];
  /** Textbook QLD's part shared by the document's length: Σ c·ln(μP) − |q|·ln(dl + μ) (absent otherwise). */
  base?: number;
}

const modeOf = (req: ScoreRequest): Mode => {
  if (req.scorer === 'lucene') return req.method === 'bm25' ? Mode.LuceneBm25 : Mode.LuceneLmd;
  if (req.method === 'bm25') return Mode.Bm25;
  return req.variant === 'lucene' ? Mode.LuceneQld : Mode.Qld;
};

/** The ranking's score of `doc` for `req` (its `approx` and `k` are ignored); `tfOf(term)` gives the doc's tf (0: absent). */
export function docScore(view: ScoringView, req: ScoreRequest, doc: number, tfOf: (term: number) => number): DocScore {
  const mode = modeOf(req);
  const plan = termPlan(view, req);
  const dl = view.doclen[doc];
  const weightOf = new Map<number, number>();
  let sum = 0;
  for (const t of plan) {
    const tf = tfOf(t.id);
    let w = 0;
    if (tf > 0) {
      if (mode === Mode.Bm25 && req.method === 'bm25') w = (t.p1 * tf) / (tf + bm25Norm(req.k1, req.b, dl, view.avgdl));
      else if (mode === Mode.Qld) w = t.p1 * Math.log1p(tf / t.p2);
      else if (mode === Mode.LuceneQld) {
        const s = Math.log1p(tf / t.p2) + logRatios(view, (req as { mu: number }).mu)[doc];
        w = s > 0 ? t.p1 * s : 0;
      } else if (mode === Mode.LuceneBm25 && req.method === 'bm25') w = luceneBm25Weight(t.p1, tf, luceneNormInverses(view, req.k1, req.b)[doc]);
      else w = luceneLmdWeight(t.p1, luceneLmdTf(tf, t.p2), luceneLogRatios(view, (req as { mu: number }).mu)[doc]);
      sum += w;
    }
    weightOf.set(t.id, w);
  }
  const weights = req.ids.map((id) => weightOf.get(id) ?? 0);
  if (mode === Mode.Qld && req.method === 'qld') {
    // score-core.ts: base and |q| over the plan's terms in its order, ln(dl + μ) as logLengths; max-score.ts fullScore
    let b = 0;
    let qlen = 0;
    for (const t of plan) {
      b += t.p1 * Math.log(t.p2);
      qlen += t.p1;
    }
    const base = b - qlen * Math.log(dl + req.mu);
    return { score: base + sum, weights, base };
  }
  return { score: modeFacts(mode).f32 ? Math.fround(sum) : sum, weights };
}
