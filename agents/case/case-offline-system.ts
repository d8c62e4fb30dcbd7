/**
 * CASE offline (no LLM), labelled "offline heuristic, no LLM" in traces and reports: direct
 * hypotheses → one heuristic advocate per option (the query plan of advocate-offline.ts: hypothesis,
 * key terms, facts + hypothesis; weighted-RRF-fused) → instead of a jury, the IR solver (ir-solver.ts,
 * Clark et al. 2016 style) when the index has bm25, else the evidence-score solver.
 */
import type { Question } from '../../corpora/types.js';
import type { AgentSystem, SystemContext, SystemOutcome } from '../../eval/types.js';
import { errors } from '../../core/errors.js';
import { DEFAULT_QUERY_PLAN, OFFLINE_LABEL, planMethods, runOfflineAdvocate, type QueryPlan } from './advocate-offline.js';
import { shareEvidence } from './evidence-share.js';
import { directHypotheses } from './hypotheses-direct.js';
import { evidenceScoreVerdict } from './offline-solver.js';
import { IR_SOLVER_LABEL, irSolverVerdict } from './ir-solver.js';
import { factsOf } from '../common/question-text.js';
import { advocateTrace } from './trace-view.js';
import type { AdvocateResult } from './types.js';
import { DEFAULT_K } from '../../retrieval/default-k.js';

export interface CaseOfflineOptions {
  k?: number;
  /** Retrieval methods (bm25, qld, dense, hybrid); default: bm25/qld/dense as available. */
  tools?: string[];
  depth?: number;
  /** Query plan of the advocates (default DEFAULT_QUERY_PLAN). */
  plan?: QueryPlan;
}

export function createCaseOfflineSystem(defaults: CaseOfflineOptions = {}): AgentSystem<Question> {
  return async (q: Question, ctx: SystemContext): Promise<SystemOutcome> => {
    const k = typeof ctx.options.k === 'number' ? ctx.options.k : (defaults.k ?? DEFAULT_K);
    const wanted = Array.isArray(ctx.options.tools) ? (ctx.options.tools as string[]) : defaults.tools;
    if (ctx.options.hypotheses === 'exploratory')
      throw errors.usage('--hypotheses exploratory needs an LLM; the offline heuristic uses the options as hypotheses (direct)');
    const methods = planMethods(ctx.retrievers, wanted?.filter((t) => t !== 'rewrite'));
    const facts = factsOf(q);
    const hypotheses = directHypotheses(q);
    const plan = defaults.plan ?? DEFAULT_QUERY_PLAN;
    // With a share limit each advocate ranks k × (number of advocates) candidates: enough for k of its own after the others take theirs.
    const share = plan.share !== undefined && plan.share < hypotheses.length ? plan.share : undefined;
    const kEach = share !== undefined ? k * hypotheses.length : k;
    let advocates: AdvocateResult[] = [];
    for (const h of hypotheses)
      advocates.push(await runOfflineAdvocate({ retrievers: ctx.retrievers, methods, facts, hypothesis: h, k: kEach, depth: defaults.depth, getPassage: ctx.getPassage, plan }));
    if (share !== undefined) advocates = shareEvidence(advocates, k, share);
    const bm25 = ctx.retrievers.bm25;
    const verdict = bm25?.explain
      ? { solver: IR_SOLVER_LABEL, ...(await irSolverVerdict(bm25, { facts, question: q.question, options: hypotheses.map((h) => ({ letter: h.letter!, text: h.text })) })) }
      : { solver: 'evidence-score (min-max normalised raw scores)', ...evidenceScoreVerdict(advocates) };
    return {
      prediction: verdict.answer,
      confidence: verdict.confidence,
      trace: {
        system: 'case',
        mode: OFFLINE_LABEL,
        hypothesesMode: 'direct',
        k,
        methods,
        hypotheses,
        advocates: advocates.map(advocateTrace),
        verdict,
        tokens: { hypotheses: 0, advocates: 0, jury: 0, total: 0 },
      },
    };
  };
}
