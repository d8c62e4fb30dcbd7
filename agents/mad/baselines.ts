/**
 * The paper's baselines (002 §3.6), on the same Round-0 evidence pool as the debate:
 * - single-rag: one agent, one cited answer;
 * - self-consistency: m samples of the same agent (each request carries its own seed, derived from
 *   the item seed and the sample number; set a temperature > 0 in the config so samples differ),
 *   majority vote; ties broken by a seeded draw among the tied letters. Unparseable samples abstain
 *   and are counted in the item's stepFailures ("self-consistency sample"); if all abstain the item
 *   fails. The cited answer reported is the first sample that voted for the
 *   winner.
 */
import type { Question } from '../../corpora/types.js';
import type { AgentSystem, SystemContext, SystemOutcome } from '../../eval/types.js';
import { errors, errorText, isLexcaseError } from '../../core/errors.js';
import { createRng, deriveSeed } from '../../core/rng.js';
import { blindQuestion } from '../common/gold-guard.js';
import { PassageHandles, withPassageHandles } from '../common/passage-handles.js';
import { offeredLetters, refusedOptions } from '../common/option-check.js';
import { citedAnswer, type CitedAnswer } from './cited-answer.js';
import { itemCitationMetrics, unansweredCitationMetrics } from './citation-summary.js';
import { madSettings } from './debate.js';
import { buildEvidencePool, poolTrace } from './evidence-pool.js';
import { seededModel } from './llm-call.js';
import type { MadSettings } from './types.js';
import type { PresentationRecord } from '../common/presentation-order.js';
import { inCallBranches } from '../../core/llm/record-replay.js';

/** Majority letter of `votes` (nulls abstain); ties → seeded draw among the tied, in letter order. */
export function majority(votes: (string | null)[], seed: number): { winner: string | null; counts: Record<string, number>; tie: boolean } {
  const counts: Record<string, number> = {};
  for (const v of votes) if (v) counts[v] = (counts[v] ?? 0) + 1;
  const max = Math.max(0, ...Object.values(counts));
  if (max === 0) return { winner: null, counts, tie: false };
  const top = Object.keys(counts)
    .filter((l) => counts[l] === max)
    .sort();
  return { winner: top.length === 1 ? top[0] : top[createRng(seed).int(0, top.length - 1)], counts, tie: top.length > 1 };
}

/** One item's answer; failed steps inside it are counted in `stepFailures` (step name → count). */
type Sampler = (
  q: Question,
  ctx: SystemContext,
  s: MadSettings,
  letters: string[],
  trace: Record<string, unknown>,
  stepFailures: Record<string, number>,
) => Promise<CitedAnswer>;

function baseline(name: 'single-rag' | 'self-consistency', s: MadSettings, sample: Sampler): AgentSystem<Question> {
  return async (item, ctx): Promise<SystemOutcome> => {
    const q = blindQuestion(item);
    const trace: Record<string, unknown> = { system: name, settings: s, letters: [] };
    const refused = refusedOptions(q, name, trace);
    if (refused) return refused;
    const letters = (trace.letters = offeredLetters(q, name));
    let out: CitedAnswer | undefined;
    let error: string | undefined;
    const stepFailures: Record<string, number> = {};
    const handles = new PassageHandles();
    try {
      out = await withPassageHandles(() => sample(q, ctx, s, letters, trace, stepFailures), handles);
      trace.answer = out;
    } catch (e) {
      if (!isLexcaseError(e)) throw e;
      error = trace.error = errorText(e);
    }
    const pool = (trace.pool as { id: string }[] | undefined) ?? [];
    const cited = itemCitationMetrics(
      out?.citations ?? [],
      item.goldPassageIds,
      pool.map((p) => p.id),
    );
    // a failed item has no answer: no answer citations to count (null, never 0)
    // with the cited handles none of ours ("P3, P5", "P99"): kept as written, they count as citations not in the index (metrics.ts unresolvedCitations)
    const metrics = { ...(out?.answer ? cited : unansweredCitationMetrics(cited)), unresolvedCitations: handles.unresolved };
    return {
      prediction: out?.answer ?? null,
      trace,
      metrics,
      ...(Object.keys(stepFailures).length ? { stepFailures } : {}),
      ...(error ? { error } : {}),
    };
  };
}

async function poolFor(q: Question, ctx: SystemContext, s: MadSettings, trace: Record<string, unknown>) {
  const { pool, order } = await buildEvidencePool(q, ctx, s.method, s.k);
  trace.pool = poolTrace(pool, s.passageChars);
  trace.passageChars = s.passageChars;
  trace.presentation = [order];
  return pool;
}

export function createSingleRag(opts: Partial<MadSettings> = {}): AgentSystem<Question> {
  const s = madSettings(opts);
  return baseline('single-rag', s, async (q, ctx, st, letters, trace) => {
    if (!ctx.llm) throw errors.llmNotConfigured();
    const pool = await poolFor(q, ctx, st, trace);
    return citedAnswer(
      seededModel(ctx.llm, deriveSeed(ctx.seed, 'single-rag')),
      q,
      letters,
      pool,
      st.passageChars,
      ctx.getPassage,
      'single-agent answer',
      ctx.signal,
    );
  });
}

export function createSelfConsistency(opts: Partial<MadSettings> & { samples?: number } = {}): AgentSystem<Question> {
  const s = madSettings(opts);
  const m = opts.samples ?? 5;
  if (!Number.isInteger(m) || m < 1) throw errors.invalidInput('samples', `must be a positive integer, got ${opts.samples}`);
  return baseline('self-consistency', s, async (q, ctx, st, letters, trace, stepFailures) => {
    if (!ctx.llm) throw errors.llmNotConfigured();
    const llm = ctx.llm;
    const pool = await poolFor(q, ctx, st, trace);
    const samples = await inCallBranches([...Array(m).keys()], async (i) => {
      const seed = deriveSeed(ctx.seed, `sample-${i}`);
      try {
        return {
          seed,
          ...(await citedAnswer(seededModel(llm, seed), q, letters, pool, st.passageChars, ctx.getPassage, `self-consistency sample ${i + 1}`, ctx.signal)),
        };
      } catch (e) {
        if (isLexcaseError(e) && e.code === 'LLM_OUTPUT_INVALID') return { seed, error: e.message };
        throw e;
      }
    });
    const unparsed = samples.filter((x) => 'error' in x).length;
    if (unparsed) stepFailures['self-consistency sample'] = unparsed;
    const votes = samples.map((x) => ('answer' in x ? x.answer : null));
    const vote = majority(votes, deriveSeed(ctx.seed, 'self-consistency-tie'));
    trace.samples = samples.map((x) => ('answer' in x ? { seed: x.seed, answer: x.answer, reasoning: x.reasoning } : { seed: x.seed, error: x.error }));
    trace.vote = vote;
    if (vote.tie && vote.winner) {
      // counted with the other seeded draws in the report (docs/validity.md, "Presentation orders and ties")
      const tied = Object.keys(vote.counts)
        .filter((l) => vote.counts[l] === vote.counts[vote.winner!])
        .sort();
      trace.presentation = [
        ...((trace.presentation as PresentationRecord[] | undefined) ?? []),
        {
          kind: 'tie-break',
          order: [vote.winner, ...tied.filter((l) => l !== vote.winner)],
          seed: deriveSeed(ctx.seed, 'self-consistency-tie'),
        } satisfies PresentationRecord,
      ];
    }
    if (!vote.winner) throw errors.llmOutputInvalid('self-consistency', `all ${m} samples were unparseable`);
    const chosen = samples.find((x) => 'answer' in x && x.answer === vote.winner) as CitedAnswer;
    return chosen;
  });
}
