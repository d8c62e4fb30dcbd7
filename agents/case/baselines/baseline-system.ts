/**
 * The CASE paper's single-path baselines on the lexcase runner (§4.1):
 * - llm-only: the question and options, no retrieval;
 * - bm25-rag / qld-rag / dense-rag / hybrid-rag: the top-k passages for the query facts + question
 *   from that retriever, prepended to the unified prompt (k ∈ {3, 5, 10} in the paper);
 * - oracle: the dataset's gold passage(s) prepended — the ONLY mode whose prompt may contain gold
 *   passage text (the paper's "vanilla prompting with the gold passage", §5.5).
 * Every mode except the oracle runs behind the gold guard: it gets a blind question (no answer, no
 * gold ids), so it cannot inject gold text; its context comes only from the retriever.
 */
import type { Question } from '../../../corpora/types.js';
import type { AgentSystem, SystemContext, SystemOutcome } from '../../../eval/types.js';
import { refusedOptions } from '../../common/option-check.js';
import { errors, errorText, isLexcaseError } from '../../../core/errors.js';
import { blindQuestion } from '../../common/gold-guard.js';
import { CASE_PROMPT_LIMITS } from '../../common/defaults.js';
import { cutFrom, factsOf } from '../../common/question-text.js';
import { answerMcq, type ContextPassage } from './mcq-prompt.js';
import { DEFAULT_K } from '../../../retrieval/default-k.js';
import { printedRun } from '../../../retrieval/top-k.js';
import { BASELINE_MODES, type BaselineMode } from './baseline-modes.js';

export { BASELINE_MODES, type BaselineMode };

export function ragMethod(mode: BaselineMode): string | undefined {
  return mode.endsWith('-rag') ? mode.slice(0, -'-rag'.length) : undefined;
}

/** The trace's context list: each passage's id and source, and `cutFrom` (its length) when the prompt shows only its first `passageChars` characters. */
function contextTrace(out: ContextPassage[], source: string) {
  return out.map((p) => {
    const n = cutFrom(p.text, CASE_PROMPT_LIMITS.baselinePassageChars);
    return { id: p.id, source, ...(n !== undefined ? { cutFrom: n } : {}) };
  });
}

async function contextFor(mode: BaselineMode, q: Question, ctx: SystemContext, k: number, trace: Record<string, unknown>): Promise<ContextPassage[]> {
  if (mode === 'llm-only') return [];
  if (mode === 'oracle') {
    // a question without a gold passage would get an llm-only prompt counted as the oracle's: that item fails, saying so
    if (!q.goldPassageIds.length) throw errors.invalidInput('question', `${q.id} has no gold passage id: the oracle has no passage to show`);
    const out: ContextPassage[] = [];
    for (const id of q.goldPassageIds) {
      const p = await ctx.getPassage(id);
      if (!p) throw errors.notFound('gold passage in the index doc store (oracle mode needs the gold passages indexed)', id);
      out.push({ id, text: p.text });
    }
    trace.context = contextTrace(out, 'gold');
    trace.passageChars = CASE_PROMPT_LIMITS.baselinePassageChars;
    return out;
  }
  const method = ragMethod(mode)!;
  const retriever = ctx.retrievers[method];
  if (!retriever)
    throw errors.usage(
      `${mode} needs the "${method}" retriever, which this index does not have`,
      `available: ${Object.keys(ctx.retrievers).join(', ') || 'none'}`,
    );
  const query = factsOf(q);
  // the top k as `lexcase search -k` prints them (a tie at the cut: trec_eval's order, not index order)
  const hits = await printedRun(retriever, query, k);
  trace.retrieval = { method, query, ids: hits.map((h) => h.id), scores: hits.map((h) => h.score) };
  const out: ContextPassage[] = [];
  for (const h of hits) {
    const p = await ctx.getPassage(h.id);
    if (p) out.push({ id: h.id, text: p.text });
  }
  trace.context = contextTrace(out, method);
  trace.passageChars = CASE_PROMPT_LIMITS.baselinePassageChars;
  return out;
}

function innerBaseline(mode: BaselineMode, defaultK: number): AgentSystem<Question> {
  return async (q, ctx): Promise<SystemOutcome> => {
    const k = typeof ctx.options.k === 'number' ? ctx.options.k : defaultK;
    const trace: Record<string, unknown> = { system: 'baseline', mode, k: mode === 'llm-only' ? 0 : k };
    if (!ctx.llm) throw errors.llmNotConfigured();
    const refused = refusedOptions(q, 'the baseline', trace);
    if (refused) return refused;
    try {
      const passages = await contextFor(mode, q, ctx, k, trace);
      const r = await answerMcq(ctx.llm, q, passages, ctx.signal);
      trace.reasoning = r.value.reasoning;
      trace.raw = r.raw;
      return { prediction: r.value.answer, trace };
    } catch (e) {
      if (!isLexcaseError(e)) throw e;
      const error = (trace.error = errorText(e));
      return { prediction: null, trace, error };
    }
  };
}

/** A baseline system for the runner. Non-oracle modes see a blind question and report goldInContext. */
export function createBaseline(mode: BaselineMode, opts: { k?: number } = {}): AgentSystem<Question> {
  if (!BASELINE_MODES.includes(mode)) throw errors.invalidInput('mode', `"${mode}"; expected one of ${BASELINE_MODES.join(', ')}`);
  const inner = innerBaseline(mode, opts.k ?? DEFAULT_K);
  if (mode === 'oracle') return inner;
  return async (q, ctx) => {
    // refused before any retrieval: no goldInContext (nothing was retrieved)
    const refused = refusedOptions(q, 'the baseline', { system: 'baseline', mode });
    if (refused) return refused;
    const out = await inner(blindQuestion(q), ctx);
    const ids = ((out.trace.retrieval as { ids?: string[] } | undefined)?.ids ?? []) as string[];
    const goldInContext = q.goldPassageIds.length && ragMethod(mode) ? ids.some((id) => q.goldPassageIds.includes(id)) : null;
    return { ...out, metrics: { ...(out.metrics ?? {}), goldInContext } };
  };
}
