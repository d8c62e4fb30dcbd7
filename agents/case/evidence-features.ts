/**
 * Features of the learned evidence selector (pure; input from evidence-candidates.ts). Every
 * feature is query-dependent — a rank, reciprocal rank or normalised score of a passage for one of
 * the question's queries, how it ranks for the OTHER options' queries, or how much of a query's
 * vocabulary it contains. None is a function of the passage alone (no id, source or length).
 *
 * Option-level vector x(o, p), 44 values:
 *  - the plan's fused score for o (advocate-offline.ts: weighted RRF of bm25 runs) ×10, 1/plan rank,
 *    plan rank ≤ 1, ≤ 3, ≤ 5, ≤ 10;
 *  - per kind (hypothesis, key terms, facts + hypothesis, question + hypothesis): 10/(10 + rank) in
 *    bm25 and in qld (0 when absent), and the bm25 score / the query's self-score;
 *  - matches for o's hypothesis and key-terms queries ([score / self-score, idf-weighted share]);
 *    each minus its max and minus its mean over the other options (contrast);
 *  - plan contrast: (fused score − best other option's fused score) ×10, share of other options with
 *    p in their plan top 5 / top 20, whether p is some other option's plan top 1;
 *  - question-level: matches for facts, joint key terms, question sentence; 10/(10 + rank) in the
 *    facts and joint key-terms runs (bm25, qld).
 * Question-level vector of p: the max and the mean of x(o, p) over the options (88 values); with
 * dense and phrase signals (QuestionEvidence.signals, evidence-signals.ts) signalFeatures' 20 more (108).
 */
import type { Hit } from '../../retrieval/types.js';
import type { QueryPlan } from './advocate-offline.js';
import { SELECTOR_KINDS, type QuestionEvidence } from './evidence-candidates.js';
import type { QueryKind } from './advocate-queries.js';
import type { CandidateSignals } from './evidence-signals.js';
import { reciprocalRankFusion } from '../../retrieval/fusion.js';

export const OPTION_FEATURES = 44;
export const QUESTION_FEATURES = 2 * OPTION_FEATURES;
/** Per-option dense and phrase values (signalFeatures) before max/mean over the options. */
export const SIGNAL_OPTION_FEATURES = 7;
/** Values signalFeatures appends with dense and phrase signals (evidence-signals.ts). */
export const SIGNAL_FEATURES = 2 * SIGNAL_OPTION_FEATURES + 6;

export interface PlanRanking {
  score: Map<string, number>;
  rank: Map<string, number>;
  /** Ids by fused score (ties: id order). */
  order: string[];
}

/** The plan's weighted RRF over an option's bm25 runs (the same fusion as the offline advocate; retrieval/fusion.ts). */
export function planRanking(runs: Partial<Record<string, { bm25: Hit[] }>>, plan: QueryPlan): PlanRanking {
  const kinds = (Object.keys(plan.weights) as QueryKind[]).filter((kind) => plan.weights[kind] > 0);
  const fused = reciprocalRankFusion(
    kinds.map((kind) => ({ method: kind, hits: runs[kind]?.bm25 ?? [] })),
    { rrfK: plan.rrfK, weights: plan.weights },
  );
  return { score: new Map(fused.map((h) => [h.id, h.score])), rank: new Map(fused.map((h) => [h.id, h.rank])), order: fused.map((h) => h.id) };
}

const ranks = (hits: Hit[] | undefined) => new Map((hits ?? []).map((h) => [h.id, h.rank]));
const rr = (rank: number | undefined) => (rank ? 10 / (10 + rank) : 0);

export interface CandidateFeatures {
  id: string;
  /** x(o, p) per option, in option order. */
  option: number[][];
  /** Max and mean of x(o, ·) over the options (then signalFeatures when the evidence has signals). */
  question: number[];
}

export function candidateFeatures(ev: QuestionEvidence, plan: QueryPlan): { plans: PlanRanking[]; candidates: CandidateFeatures[] } {
  const plans = ev.options.map((o) => planRanking(o.runs, plan));
  const runRanks = ev.options.map((o) => SELECTOR_KINDS.map((k) => ({ b: ranks(o.runs[k]?.bm25), l: ranks(o.runs[k]?.qld), run: o.runs[k] })));
  const fb = ranks(ev.facts.bm25),
    fl = ranks(ev.facts.qld),
    jb = ranks(ev.joint.bm25),
    jl = ranks(ev.joint.qld);
  const n = ev.options.length;
  const candidates = ev.ids.map((id, c) => {
    const ex = ev.match[c];
    const qx = [...ev.qmatch[c], rr(fb.get(id)), rr(fl.get(id)), rr(jb.get(id)), rr(jl.get(id))];
    const option = ev.options.map((_, oi) => {
      const pf = plans[oi].score.get(id) ?? 0;
      const pr = plans[oi].rank.get(id) ?? 1000;
      const x = [pf * 10, 1 / pr, pr <= 1 ? 1 : 0, pr <= 3 ? 1 : 0, pr <= 5 ? 1 : 0, pr <= 10 ? 1 : 0];
      for (const { b, l, run } of runRanks[oi]) {
        const rb = b.get(id);
        x.push(rr(rb), rr(l.get(id)), rb && run && run.self > 0 ? run.bm25[rb - 1].score / run.self : 0);
      }
      x.push(...ex[oi]);
      for (let j = 0; j < 4; j++) {
        const others = ex.filter((_, t) => t !== oi).map((e) => e[j]);
        const max = others.length ? Math.max(...others) : 0;
        const mean = others.length ? others.reduce((a, b) => a + b, 0) / others.length : 0;
        x.push(ex[oi][j] - max, ex[oi][j] - mean);
      }
      let maxOther = 0,
        top5 = 0,
        top20 = 0,
        first = 0;
      plans.forEach((p, j) => {
        if (j === oi) return;
        const r = p.rank.get(id) ?? 1000;
        maxOther = Math.max(maxOther, p.score.get(id) ?? 0);
        if (r <= 5) top5++;
        if (r <= 20) top20++;
        if (r === 1) first = 1;
      });
      const no = Math.max(1, n - 1);
      x.push((pf - maxOther) * 10, top5 / no, top20 / no, first, ...qx);
      return x;
    });
    const max = new Array<number>(OPTION_FEATURES).fill(-Infinity);
    const mean = new Array<number>(OPTION_FEATURES).fill(0);
    for (const x of option) x.forEach((v, j) => ((max[j] = Math.max(max[j], v)), (mean[j] += v / n)));
    return { id, option, question: ev.signals ? [...max, ...mean, ...signalFeatures(ev.signals, c, n)] : [...max, ...mean] };
  });
  return { plans, candidates };
}

/** [value, value − max over the other options, value − mean over the other options] per option. */
function contrast(values: number[]): [number, number, number][] {
  return values.map((v, o) => {
    const others = values.filter((_, t) => t !== o);
    if (!others.length) return [v, 0, 0];
    return [v, v - Math.max(...others), v - others.reduce((a, b) => a + b, 0) / others.length];
  });
}

/**
 * The dense and phrase features of candidate `c` (SIGNAL_FEATURES values): per option
 * [cos, its contrasts, bigram share, its contrasts, 10/(10 + dense rank)], their max and mean over
 * the options, then [cos, 10/(10 + rank)] for the facts and the question sentence and their bigram shares.
 */
export function signalFeatures(s: CandidateSignals, c: number, options: number): number[] {
  const d = s.dense[c],
    p = s.phrase[c];
  const cos = contrast(d.slice(0, options).map((m) => m[0]));
  const bg = contrast(p.slice(0, options));
  const per = cos.map((cv, o) => [...cv, ...bg[o], 10 / (10 + d[o][1])]);
  const max = new Array<number>(SIGNAL_OPTION_FEATURES).fill(-Infinity),
    mean = new Array<number>(SIGNAL_OPTION_FEATURES).fill(0);
  for (const x of per) x.forEach((v, j) => ((max[j] = Math.max(max[j], v)), (mean[j] += v / options)));
  const [f, q] = [d[options], d[options + 1]];
  return [...max, ...mean, f[0], 10 / (10 + f[1]), q[0], 10 / (10 + q[1]), p[options], p[options + 1]];
}
