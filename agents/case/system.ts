/**
 * The CASE pipeline with an LLM (Babel et al. 2025): hypothesis generation (direct or exploratory)
 * → one Advocate per hypothesis (tool-calling loop) → a seeded 3-persona jury → majority vote.
 * Returns an AgentSystem for the experiment runner; wrap it with withGoldGuard (createCase does).
 * A LexcaseError in any stage (e.g. an LLM request that failed after retries, or unparseable
 * exploratory hypotheses) fails only this item: the outcome carries the error and the partial trace.
 */
import type { Question } from '../../corpora/types.js';
import type { AgentSystem, SystemContext, SystemOutcome } from '../../eval/types.js';
import { errors, errorText, isLexcaseError } from '../../core/errors.js';
import { optionTexts } from '../common/option-letter.js';
import { PassageHandles, withPassageHandles } from '../common/passage-handles.js';
import { seededOrder, type PresentationRecord } from '../common/presentation-order.js';
import { runAdvocate } from './advocate.js';
import { directHypotheses } from './hypotheses-direct.js';
import { BLANK_HYPOTHESIS_STEP, exploratoryHypotheses, REPEATED_HYPOTHESIS_STEP } from './hypotheses-exploratory.js';
import { jurorCaseFile, runJuror } from './juror.js';
import { samplePanel } from './jury-panel.js';
import { majorityVote } from './majority-vote.js';
import { factsOf } from '../common/question-text.js';
import { offeredLetters } from '../common/option-check.js';
import { selectTools } from './select-tools.js';
import { countingModel } from './token-tally.js';
import { advocateTrace, evidenceScoreByLetter } from './trace-view.js';
import { ADVOCATE_STEP_FAILURES, type AdvocateResult, type Hypothesis, type JurorRecord } from './types.js';
import { DEFAULT_K } from '../../retrieval/default-k.js';
import { AGENT_DEFAULTS, CASE_PROMPT_LIMITS } from '../common/defaults.js';

export interface CaseOptions {
  k?: number;
  jurors?: number;
  hypotheses?: 'direct' | 'exploratory';
  /** Short tool names (bm25, qld, dense, hybrid, rewrite); default: every tool in ctx.tools. */
  tools?: string[];
  maxSteps?: number;
  maxTokens?: number;
  /** Max exploratory hypotheses (default 4). */
  maxHypotheses?: number;
}

export function caseOptionsFrom(o: Record<string, unknown>): CaseOptions {
  return {
    k: typeof o.k === 'number' ? o.k : undefined,
    jurors: typeof o.jurors === 'number' ? o.jurors : undefined,
    hypotheses: o.hypotheses === 'exploratory' ? 'exploratory' : o.hypotheses === 'direct' ? 'direct' : undefined,
    tools: Array.isArray(o.tools) ? (o.tools as string[]) : undefined,
    maxSteps: typeof o.maxSteps === 'number' ? o.maxSteps : undefined,
    maxTokens: typeof o.maxTokens === 'number' ? o.maxTokens : undefined,
  };
}

export function createCaseLlmSystem(defaults: CaseOptions = {}): AgentSystem<Question> {
  // k's default is applied here, once (a caller that resolved k already passes it in); an item's ctx.options.k overrides it
  const resolved = { ...defaults, k: defaults.k ?? DEFAULT_K };
  // one passage-handle map per item: advocates and jurors see P1.. (stable within the item), never ids
  return async (q: Question, ctx: SystemContext): Promise<SystemOutcome> => {
    const handles = new PassageHandles();
    const out = await withPassageHandles(() => caseItem(resolved, q, ctx), handles);
    // the evidence an advocate cited as no handle it was shown ("P3, P5", "P99"): dropped from its evidence, counted (metrics.ts unresolvedCitations)
    return { ...out, metrics: { ...out.metrics, unresolvedCitations: handles.unresolved } };
  };
}

async function caseItem(defaults: CaseOptions & { k: number }, q: Question, ctx: SystemContext): Promise<SystemOutcome> {
  {
    const o = { ...defaults, ...stripUndefined(caseOptionsFrom(ctx.options)) };
    const k = o.k ?? defaults.k;
    const mode = o.hypotheses ?? 'direct';
    const llm = ctx.llm;
    if (!llm) throw errors.llmNotConfigured();
    // `jurors` is always the list of juror records (empty until the jury sits); the panel size is `jurorCount`.
    const jurors: JurorRecord[] = [];
    const advocates: AdvocateResult[] = [];
    const dropped = { blank: 0, repeated: 0 }; // exploratory hypotheses with no text, or repeating one, dropped (failed steps)
    const trace: Record<string, unknown> = { system: 'case', mode: 'llm', hypothesesMode: mode, k, jurorCount: o.jurors ?? AGENT_DEFAULTS.jurors, jurors };
    const tokens = { hypotheses: 0, advocates: 0, jury: 0, total: 0 };
    trace.tokens = tokens;
    const presentation: PresentationRecord[] = [];
    trace.presentation = presentation;
    try {
      // an item without 2 options to weigh fails here, before any request (agents/common/option-check.ts)
      const letters = offeredLetters(q, 'CASE');
      const tools = selectTools(ctx.tools, o.tools);
      trace.tools = tools.map((t) => t.name);
      const facts = factsOf(q);
      let hypotheses: Hypothesis[];
      if (mode === 'direct') hypotheses = directHypotheses(q);
      else {
        const tally = { tokens: 0 };
        const r = await exploratoryHypotheses(countingModel(llm, tally), q, { max: o.maxHypotheses, signal: ctx.signal });
        hypotheses = r.hypotheses;
        dropped.blank = r.blank;
        dropped.repeated = r.repeated;
        tokens.hypotheses = tally.tokens;
      }
      trace.hypotheses = hypotheses;
      trace.advocates = [];
      trace.passageChars = CASE_PROMPT_LIMITS.jurorPassageChars; // the juror's cut: evidence[].cutFrom counts what it cut
      trace.advocateNoteChars = CASE_PROMPT_LIMITS.advocateNoteChars; // the notes' cut: evidence[].noteCutFrom counts what it cut
      for (const h of hypotheses) {
        const a = await runAdvocate({
          llm,
          tools,
          facts,
          hypothesis: h,
          k,
          maxSteps: o.maxSteps,
          maxTokens: o.maxTokens,
          getPassage: ctx.getPassage,
          signal: ctx.signal,
        });
        advocates.push(a);
        (trace.advocates as unknown[]).push(advocateTrace(a, CASE_PROMPT_LIMITS.jurorPassageChars));
        tokens.advocates += a.tokens;
      }
      const panel = samplePanel(ctx.seed, o.jurors ?? AGENT_DEFAULTS.jurors);
      trace.panel = panel.map((p) => p.name);
      // the paper does not order the hypothesis–evidence pairs a juror reads: a seeded order per item
      const shown = seededOrder(advocates, (a) => a.hypothesis.key, { seed: ctx.seed, kind: 'juror hypotheses' });
      presentation.push(shown.record);
      const caseFile = jurorCaseFile(q, shown.items);
      for (const p of panel) {
        const j = await runJuror(llm, p, caseFile, letters, ctx.signal, optionTexts(q.choices));
        jurors.push(j);
        tokens.jury += j.tokens;
      }
      const verdict = majorityVote(
        jurors.map((j) => j.vote),
        letters,
        evidenceScoreByLetter(advocates),
        ctx.seed,
      );
      trace.verdict = verdict;
      if (verdict.tieBreak?.draw) presentation.push(verdict.tieBreak.draw);
      tokens.total = tokens.hypotheses + tokens.advocates + tokens.jury;
      const stepFailures = caseStepFailures(advocates, jurors, dropped);
      return {
        prediction: verdict.answer,
        confidence: verdict.confidence,
        trace,
        metrics: caseCounts(advocates, jurors),
        ...(stepFailures ? { stepFailures } : {}),
        ...(verdict.answer === null
          ? { error: errorText(errors.llmOutputInvalid('the jury', `no valid juror vote: all ${jurors.length} juror(s) abstained (unparseable output)`)) }
          : {}),
      };
    } catch (e) {
      if (!isLexcaseError(e)) throw e;
      tokens.total = tokens.hypotheses + tokens.advocates + tokens.jury;
      const error = (trace.error = errorText(e));
      const stepFailures = caseStepFailures(advocates, jurors, dropped);
      // the counts of what ran before the failure, as an answered item records them: every count row of the report is
      // over the same items (before, a failed item recorded unresolvedCitations alone, so that row's mean was over every
      // item and the others over the answered ones, with no word why)
      return { prediction: null, trace, error, metrics: caseCounts(advocates, jurors), ...(stepFailures ? { stepFailures } : {}) };
    }
  }
}

/** One item's counts (results.jsonl `metrics`, beside unresolvedCitations), of the advocates and jurors that ran. */
function caseCounts(advocates: readonly AdvocateResult[], jurors: readonly JurorRecord[]): Record<string, number> {
  return {
    abstentions: jurors.filter((j) => j.abstained).length,
    // the passages advocates picked after they had their k: dropped, listed in each trace's `rejected` (metrics.ts picksBeyondK)
    picksBeyondK: advocates.reduce((n, a) => n + (a.rejected ?? []).filter((r) => r.reason === 'beyond k').length, 0),
    // tool calls a reply made twice (same tool and arguments), run once (agents/common/repeated-tool-calls.ts)
    repeatedToolCalls: advocates.reduce((n, a) => n + a.toolCalls.filter((c) => c.repeated).length, 0),
    // tool calls naming a tool not offered ("Search_BM25"): refused, never ran
    toolCallsNotOffered: advocates.reduce((n, a) => n + a.toolCalls.filter((c) => c.notOffered).length, 0),
  };
}

/**
 * Failed steps of one item: unparseable juror votes; advocates whose compile call failed, and apart
 * from them advocates whose final reply selected nothing while no tool returned a passage; blank
 * exploratory hypotheses and repeats of one dropped.
 */
function caseStepFailures(advocates: AdvocateResult[], jurors: JurorRecord[], dropped = { blank: 0, repeated: 0 }): Record<string, number> | undefined {
  const out: Record<string, number> = {};
  if (dropped.blank) out[BLANK_HYPOTHESIS_STEP] = dropped.blank;
  if (dropped.repeated) out[REPEATED_HYPOTHESIS_STEP] = dropped.repeated;
  const abstained = jurors.filter((j) => j.abstained).length;
  if (abstained) out['juror vote'] = abstained;
  for (const a of advocates) {
    if (!a.error) continue;
    const label = ADVOCATE_STEP_FAILURES[a.failedStep ?? 'compile'];
    out[label] = (out[label] ?? 0) + 1;
  }
  return Object.keys(out).length ? out : undefined;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
