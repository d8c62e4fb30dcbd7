/**
 * One document's score as the ranking computes it, for explanations (bm25.ts and qld.ts explain,
 * `lexcase explain`, `search --explain`, the explorer's and /v1's explain, MCP's explain tool).
 *
 * The ranking's own code scores the document; there is no second copy of its arithmetic here (before,
 * this file repeated the formulas, and only a test kept the two copies in step). The input is the
 * search's (score-core.ts scoringInput: the term plan, the per-doc arrays, textbook QLD's shared
 * part); each plan term's posting of the document (its tf: term-frequency.ts) goes, in the plan's
 * order, through the accumulator's own loop for the scorer (accumulator.ts accumulateList), and the
 * score is taken by the walks' own selection (max-score.ts selectAll: textbook QLD's length part, the
 * lucene scorer's float32 rounding) over the one-document range. That is exhaustive TAAT restricted
 * to the document, which every strategy equals bit for bit (exact-strategies.test.ts), so `score` is
 * the search's score bit for bit. Each term's weight is what the loop adds for it, taken alone onto
 * an empty accumulator (0 + w is w exactly).
 */
import type { ScoringView } from '../../indexer/sparse/scoring-view.js';
import { accumulateList, accumulatorFor } from './accumulator.js';
import { singlePosting } from './decoded-postings.js';
import { selectAll } from './max-score.js';
import { modeFacts } from './mode-facts.js';
import { scoringInput, termPlan, type ScoreRequest } from './score-core.js';
import { termFrequency } from './term-frequency.js';

export interface DocScore {
  /** The score the ranking gives the document (exact: no `approx`). */
  score: number;
  /** The weight the ranking added for each query term (request order; 0 when it added none). */
  weights: number[];
  /** Textbook QLD's part shared by the document's length: Σ c·ln(μP) − |q|·ln(dl + μ) (absent otherwise). */
  base?: number;
}

/** The ranking's score of `doc` for `req` (its `approx` and `k` are ignored). */
export function docScore(view: ScoringView, req: ScoreRequest, doc: number): DocScore {
  const plan = termPlan(view, req);
  const inp = scoringInput(view, req, plan, plan, 1, true);
  // the document's posting of each plan term it holds (none: the term adds nothing, as in the walk)
  const postings = plan.map((t) => {
    const tf = termFrequency(view, t.id, doc);
    return tf > 0 ? singlePosting(doc, tf) : undefined;
  });
  // The index's accumulator (scoring is synchronous: no search is using it now; each use resets it).
  const weightOf = new Map<number, number>();
  plan.forEach((t, i) => {
    const acc = accumulatorFor(view);
    const list = postings[i];
    if (list) accumulateList(list, acc, inp.mode, t.p1, t.p2, inp.arr);
    weightOf.set(t.id, acc.scores[doc]);
  });
  const acc = accumulatorFor(view);
  plan.forEach((t, i) => {
    const list = postings[i];
    if (list) accumulateList(list, acc, inp.mode, t.p1, t.p2, inp.arr);
  });
  // the walks' selection over the range [doc, doc + 1)
  const one: ScoringView = { ...view, lo: doc, hi: doc + 1, byLenRange: Uint32Array.of(doc) };
  const top = selectAll(one, acc, 1, inp.qld, modeFacts(inp.mode).f32).bestFirst();
  acc.reset();
  // Unranked (no term matched: BM25 and the Lucene modes rank matching documents only): 0.
  const score = top.docs.length ? top.scores[0] : 0;
  const weights = req.ids.map((id) => weightOf.get(id) ?? 0);
  const q = inp.qld;
  // max-score.ts fullScore's length part of the document
  return q ? { score, weights, base: q.base - q.qlen * q.lnl[doc] } : { score, weights };
}
