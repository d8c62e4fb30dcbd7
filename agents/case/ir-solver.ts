/**
 * The IR solver (the classic retrieval baseline for exam QA, Clark et al. 2016, "Combining
 * Retrieval, Statistics, and Inference to Answer Elementary Science Questions", §3.1), labelled
 * "IR solver, no LLM". It measures lexical support, not legal correctness.
 *
 * Raw retrieval scores of *different* queries are not comparable (BM25 grows with query length,
 * textbook QLD shrinks with it), so comparing options by the scores of "facts + question + option"
 * picks the longest or the shortest option. Here every option is scored against the same candidate
 * passages and normalised by its own length:
 *
 *   P        = the top `depth` passages retrieved by BM25 for the facts + question (shared by all options),
 *              as `lexcase search` prints them (retrieval/top-k.ts printedRun: a tie at the cut in trec_eval's order)
 *   q_o      = the question sentence + option o (the fact pattern is left out: it is the same for all)
 *   s(o, p)  = BM25(q_o, p) / BM25(q_o, q_o) — the score on p divided by the query's self-score (the
 *              score it would get against a passage that is the query itself), so a query scores 1
 *              when a passage matches it as well as it matches itself, whatever its length
 *   score(o) = mean of the `top` best s(o, p) over p ∈ P
 *
 * The option with the highest score wins; equal scores → the item's seeded draw among them (confidence
 * `tie`, `tieBreak.draw`; majority-vote.ts `tieDraw`). Query
 * form, depth (20) and aggregation (mean of the top 3) were chosen on the train split (docs/case.md).
 */
import { bm25Idf } from '../../retrieval/sparse/score-core.js';
import { printedRun } from '../../retrieval/top-k.js';
import type { Explanation, Retriever } from '../../retrieval/types.js';
import { tieDraw } from './majority-vote.js';
import type { VerdictRecord } from './types.js';
import { errors } from '../../core/errors.js';

export const IR_SOLVER_LABEL = 'IR solver (Clark et al. 2016 style), no LLM';
export const IR_SOLVER_DEPTH = 20;
export const IR_SOLVER_TOP = 3;

export interface IrOption {
  letter: string;
  text: string;
}

interface Bm25Detail {
  k1: number;
  b: number;
  avgdl: number;
  N: number;
}

/** BM25 of the option against itself as a document (same k1, b, idf and avgdl as the index). */
export function bm25SelfScore(ex: Explanation): number {
  const d = ex.detail as unknown as Bm25Detail;
  const dl = ex.terms.reduce((s, t) => s + t.qtf, 0);
  const norm = d.k1 * (1 - d.b + (d.b * dl) / (d.avgdl || 1));
  return ex.terms.reduce((s, t) => s + (t.qtf * bm25Idf(d.N, t.df) * t.qtf * (d.k1 + 1)) / (t.qtf + norm), 0);
}

export interface IrSolverResult extends VerdictRecord {
  /** score(o) per letter, and the best-matching passage. */
  scores: Record<string, number>;
  support: Record<string, string | null>;
  depth: number;
  top: number;
}

export interface IrSolverInput {
  /** Facts + question: retrieves the shared candidate passages. */
  facts: string;
  /** The question sentence alone (prefixed to each option). */
  question: string;
  options: IrOption[];
}

export async function irSolverVerdict(bm25: Retriever, input: IrSolverInput, depth = IR_SOLVER_DEPTH, top = IR_SOLVER_TOP, seed = 0): Promise<IrSolverResult> {
  const { facts, question, options } = input;
  if (!bm25.explain) throw errors.invalidInput('retriever', 'the IR solver needs a retriever with explain() (bm25)');
  // the top `depth` as `lexcase search` prints them (a tie at the cut: trec_eval's order, not index order)
  const pool = facts.trim() ? await printedRun(bm25, facts, depth) : [];
  const scores: Record<string, number> = {};
  const support: Record<string, string | null> = {};
  for (const o of options) {
    scores[o.letter] = 0;
    support[o.letter] = null;
    if (!pool.length) continue;
    const query = [question.trim(), o.text.trim()].filter(Boolean).join('\n');
    let self = 0;
    const per: { id: string; s: number }[] = [];
    for (const p of pool) {
      const ex = await bm25.explain(query, p.id);
      if (self === 0) self = bm25SelfScore(ex);
      if (self <= 0) break; // no indexable term in the query
      per.push({ id: p.id, s: ex.score / self });
    }
    per.sort((a, b) => b.s - a.s);
    const best = per.slice(0, Math.max(1, top));
    if (best.length) {
      scores[o.letter] = best.reduce((a, x) => a + x.s, 0) / best.length;
      support[o.letter] = best[0].id;
    }
  }
  const letters = options.map((o) => o.letter);
  const best = letters.length ? Math.max(...letters.map((l) => scores[l])) : 0;
  const tied = letters.filter((l) => scores[l] === best).sort();
  const draw = tied.length > 1 ? tieDraw(tied, seed) : undefined;
  const answer = draw ? draw.order[0] : (tied[0] ?? null);
  return {
    answer,
    confidence: answer === null ? 'none' : draw ? 'tie' : 'offline',
    tally: { ...scores },
    ...(draw ? { tieBreak: { tied, by: 'seeded-draw' as const, scores: { ...scores }, draw } } : {}),
    scores,
    support,
    depth,
    top,
  };
}
