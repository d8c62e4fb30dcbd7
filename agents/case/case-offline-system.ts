/**
 * CASE offline (no LLM), labelled "offline heuristic, no LLM" in traces and reports: direct
 * hypotheses → one heuristic advocate per option → instead of a jury, the IR solver (ir-solver.ts,
 * Clark et al. 2016 style) when the index has bm25, else the evidence-score solver.
 *
 * Evidence (`evidence`): `learned` (the default when the index has bm25 and qld and neither tools
 * nor a plan are given) — the learned evidence selector (evidence-selector.ts, trained on the train
 * split): each option keeps its query plan's top passages and the rest of its k slots are filled
 * from a question-level learned ranking of the candidates; where the index also has a use-lite dense
 * part, the ranking reads dense and phrase signals too (evidence-signals.ts, the 108-feature model;
 * chooseSelector); `plan` — each advocate's top k of the
 * query plan (advocate-offline.ts: hypothesis, key terms, facts + hypothesis; weighted RRF). The
 * question-level searches of the selector (facts, joint key terms) are recorded with the first
 * advocate's tool calls.
 */
import { refusedOptions } from '../common/option-check.js';
import type { Question } from '../../corpora/types.js';
import type { AgentSystem, SystemContext, SystemOutcome } from '../../eval/types.js';
import { errors } from '../../core/errors.js';
import { DEFAULT_QUERY_PLAN, isRewriteTool, OFFLINE_LABEL, planMethods, runOfflineAdvocate, type QueryPlan } from './advocate-offline.js';
import { log } from '../../core/log.js';
import { shareEvidence } from './evidence-share.js';
import { directHypotheses } from './hypotheses-direct.js';
import { evidenceScoreVerdict } from './offline-solver.js';
import { IR_SOLVER_LABEL, irSolverVerdict } from './ir-solver.js';
import { factsOf } from '../common/question-text.js';
import { advocateTrace } from './trace-view.js';
import type { AdvocateResult, Hypothesis } from './types.js';
import { DEFAULT_K } from '../../retrieval/default-k.js';
import type { Retriever } from '../../retrieval/types.js';
import { gatherSelectorEvidence, selectEvidence, type SelectorModel } from './evidence-selector.js';
import { EVIDENCE_SELECTOR_MODEL } from './evidence-selector-weights.js';
import { EVIDENCE_SELECTOR_MODEL_DENSE } from './evidence-selector-weights-dense.js';
import { SELECTOR_TRAINING, selectorTrainingIds } from './selector-training-set.js';
import type { GatherOptions } from './evidence-candidates.js';
import { exactDense, type SignalSource } from './evidence-signals.js';
import { LEARNED_SELECTOR_LABEL, SIGNALS_SUFFIX } from './evidence-selection-label.js';

export type EvidenceMode = 'learned' | 'plan';
export { LEARNED_SELECTOR_LABEL, SIGNALS_SUFFIX } from './evidence-selection-label.js';

/** The index's dense retriever when `model` reads dense signals and it was built with the same embedder (and ranks exactly). */
function signalDense(retrievers: Partial<Record<string, Retriever>>, model: SelectorModel): SignalSource['dense'] | undefined {
  const exact = exactDense(retrievers.dense, model.signals?.queryWords);
  return model.signals && exact?.embedder === model.signals.embedder ? exact.dense : undefined;
}

/**
 * The selector a question gets: the given one, else the 108-feature model (dense and phrase signals)
 * where the index has an exact dense part from the same embedder, else the 88-feature model.
 */
export function chooseSelector(
  given: SelectorModel | undefined,
  retrievers: Partial<Record<string, Retriever>>,
  getPassage: SystemContext['getPassage'],
): { model: SelectorModel; signals?: GatherOptions['signals'] } {
  const dense = signalDense(retrievers, given ?? EVIDENCE_SELECTOR_MODEL_DENSE);
  const model = given ?? (dense ? EVIDENCE_SELECTOR_MODEL_DENSE : EVIDENCE_SELECTOR_MODEL);
  if (!model.signals) return { model };
  if (!dense)
    throw errors.usage(
      `this evidence selector reads dense signals from ${model.signals.embedder}; the index has ${retrievers.dense ? 'a dense part from another embedder, or an ANN one (approximate ranks)' : 'no dense part'}`,
      'use an index with a matching dense part, or the default selector',
    );
  return { model, signals: { dense, passageText: async (id) => (await getPassage(id))?.text } };
}

export interface CaseOfflineOptions {
  k?: number;
  /** Retrieval methods (bm25, qld, dense, hybrid); default: bm25/qld/dense as available. */
  tools?: string[];
  depth?: number;
  /** Query plan of the advocates (default DEFAULT_QUERY_PLAN). */
  plan?: QueryPlan;
  /** Evidence selection (default `learned` where it applies, see above; `plan` = the query plan's top k). */
  evidence?: EvidenceMode;
  /** Selector weights (default EVIDENCE_SELECTOR_MODEL). */
  selector?: SelectorModel;
}

/** Whether the learned selector applies: asked for (default), no explicit tools or plan, bm25 (with explain) and qld present. */
export function learnedApplies(o: CaseOfflineOptions, wanted: string[] | undefined, retrievers: Partial<Record<string, Retriever>>): boolean {
  return (o.evidence ?? 'learned') === 'learned' && !wanted?.length && !o.plan && !!retrievers.bm25?.explain && !!retrievers.qld;
}

async function learnedAdvocates(
  retrievers: { bm25: Retriever; qld: Retriever },
  q: Question,
  hypotheses: Hypothesis[],
  k: number,
  selector: ReturnType<typeof chooseSelector>,
  getPassage?: (id: string) => Promise<{ id: string; text: string } | undefined>,
): Promise<AdvocateResult[]> {
  const plan = DEFAULT_QUERY_PLAN;
  const { model, signals } = selector;
  const ev = await gatherSelectorEvidence(retrievers, q, hypotheses, plan, k, signals);
  const chosen = selectEvidence(ev, plan, model, k);
  const out: AdvocateResult[] = [];
  for (const [i, o] of ev.options.entries()) {
    const evidence = [];
    for (const e of chosen[i]) {
      const text = getPassage ? (await getPassage(e.id))?.text : undefined;
      evidence.push({ id: e.id, score: e.score, justification: `${OFFLINE_LABEL}: ${e.justification}`, ...(text !== undefined ? { text } : {}) });
    }
    const retrievalScores: Record<string, number> = {};
    const fh = o.runs['facts+hypothesis'] ?? o.runs.hypothesis;
    for (const m of ['bm25', 'qld'] as const) {
      const top = (fh?.[m] ?? []).slice(0, k);
      retrievalScores[m] = top.length ? top.reduce((s, h) => s + h.score, 0) / top.length : 0;
    }
    out.push({
      hypothesis: o.hypothesis,
      stance: 'for',
      evidence,
      toolCalls: i === 0 ? [...o.calls, ...ev.calls] : o.calls,
      rejectedIds: [],
      steps: 0,
      stop: 'offline',
      tokens: 0,
      retrievalScores,
    });
  }
  return out;
}

/**
 * Fails the item when a committed learned selector would choose the evidence of one of its own
 * training questions (a library caller's question list: `run case --offline` and evalCaseOffline
 * refuse the whole run before it starts, assertSelectorHeldOut). A selector the caller trained
 * itself is not checked: its training questions are not known here.
 */
async function refuseTrainingQuestion(q: Question, model: SelectorModel): Promise<void> {
  if (model !== EVIDENCE_SELECTOR_MODEL && model !== EVIDENCE_SELECTOR_MODEL_DENSE) return;
  if (!(await selectorTrainingIds()).has(q.id)) return;
  const t = SELECTOR_TRAINING;
  throw errors.usage(
    `question ${q.id} is one the learned evidence selector was trained on (${t.dataset} ${t.split}, split seed ${t.splitSeed}): its evidence, and the item's figures, would be measured on the selector's own training data`,
    `pass evidence: 'plan' (the query plan, trained on nothing), or evaluate on ${t.dataset} val or test with split seed ${t.splitSeed}`,
  );
}

export function createCaseOfflineSystem(defaults: CaseOfflineOptions = {}): AgentSystem<Question> {
  // k's default is applied here, once (a caller that resolved k already passes it in); an item's ctx.options.k overrides it
  const defaultK = defaults.k ?? DEFAULT_K;
  // rewrite / rewrite_query are skipped (no LLM to rewrite with), said once per system: `rewrite` was dropped without a
  // word, `rewrite_query` warned on every item
  let rewriteSaid = false;
  return async (q: Question, ctx: SystemContext): Promise<SystemOutcome> => {
    const k = typeof ctx.options.k === 'number' ? ctx.options.k : defaultK;
    const wanted = Array.isArray(ctx.options.tools) ? (ctx.options.tools as string[]) : defaults.tools;
    if (ctx.options.hypotheses === 'exploratory')
      throw errors.usage('--hypotheses exploratory needs an LLM; the offline heuristic uses the options as hypotheses (direct)');
    // an item without 2 options to weigh is one failed item, as on the LLM path (agents/common/option-check.ts):
    // one option with text would be the verdict whatever the evidence, right whenever it is the gold
    const refused = refusedOptions(q, 'CASE', { system: 'case', mode: OFFLINE_LABEL, hypothesesMode: 'direct', k });
    if (refused) return refused;
    const facts = factsOf(q);
    const hypotheses = directHypotheses(q);
    const bm25 = ctx.retrievers.bm25;
    const learned = learnedApplies(defaults, wanted, ctx.retrievers);
    const verdictOf = async (advocates: AdvocateResult[]) =>
      bm25?.explain
        ? {
            solver: IR_SOLVER_LABEL,
            ...(await irSolverVerdict(
              bm25,
              { facts, question: q.question, options: hypotheses.map((h) => ({ letter: h.letter!, text: h.text })) },
              undefined,
              undefined,
              ctx.seed ?? 0,
            )),
          }
        : { solver: 'evidence-score (min-max normalised raw scores)', ...evidenceScoreVerdict(advocates, ctx.seed ?? 0) };
    const outcome = async (advocates: AdvocateResult[], methods: string[], evidenceSelection: string): Promise<SystemOutcome> => {
      const verdict = await verdictOf(advocates);
      return {
        prediction: verdict.answer,
        confidence: verdict.confidence,
        trace: {
          system: 'case',
          mode: OFFLINE_LABEL,
          hypothesesMode: 'direct',
          k,
          methods,
          evidenceSelection,
          hypotheses,
          advocates: advocates.map(advocateTrace),
          verdict,
          presentation: verdict.tieBreak?.draw ? [verdict.tieBreak.draw] : [],
          tokens: { hypotheses: 0, advocates: 0, jury: 0, total: 0 },
        },
      };
    };
    if (learned) {
      const selector = chooseSelector(defaults.selector, ctx.retrievers, ctx.getPassage);
      await refuseTrainingQuestion(q, selector.model);
      const advocates = await learnedAdvocates({ bm25: bm25!, qld: ctx.retrievers.qld! }, q, hypotheses, k, selector, ctx.getPassage);
      return selector.signals
        ? outcome(advocates, ['bm25', 'qld', 'dense'], LEARNED_SELECTOR_LABEL + SIGNALS_SUFFIX)
        : outcome(advocates, ['bm25', 'qld'], LEARNED_SELECTOR_LABEL);
    }
    const methods = planMethods(
      ctx.retrievers,
      wanted?.filter((t) => !isRewriteTool(t)),
    );
    const skipped = wanted?.filter(isRewriteTool) ?? [];
    if (skipped.length && !rewriteSaid) {
      rewriteSaid = true;
      log.warn(`offline advocate: ${skipped.join(', ')} skipped: rewriting a query needs an LLM; it searches ${methods.join(', ')}`);
    }
    const plan = defaults.plan ?? DEFAULT_QUERY_PLAN;
    // With a share limit each advocate ranks k × (number of advocates) candidates: enough for k of its own after the others take theirs.
    const share = plan.share !== undefined && plan.share < hypotheses.length ? plan.share : undefined;
    const kEach = share !== undefined ? k * hypotheses.length : k;
    let advocates: AdvocateResult[] = [];
    for (const h of hypotheses)
      advocates.push(
        await runOfflineAdvocate({
          retrievers: ctx.retrievers,
          methods,
          facts,
          hypothesis: h,
          k: kEach,
          depth: defaults.depth,
          getPassage: ctx.getPassage,
          plan,
        }),
      );
    if (share !== undefined) advocates = shareEvidence(advocates, k, share);
    return outcome(advocates, methods, share !== undefined ? `query plan, share ${share}` : 'query plan');
  };
}
