/**
 * The multi-agent debate system (paper 002 §3): Round 0 shared evidence pool → Round 1 openings (one
 * debater per answer option, 2 to 10 options) → rounds 2..R rebuttal/closing under the full or
 * sparse topology (topology.ts), each rebuttal allowed one retriever request (a rebutting debater is
 * shown the text of every snippet the briefs it reads cite, once, after the pool) → optional
 * cross-examination → the Judge's verdict (it is shown the text of every passage the briefs cite), 3-bullet rationale and 5-item checklist. Debaters of a
 * round run concurrently (the LLM factory's limit applies). The system sees a blind copy of the
 * question (no answer, no gold ids); gold ids are used only afterwards, for the item's metrics.
 *
 * Failures: a debater unparseable twice forfeits that round; an unparseable cross-examiner is
 * skipped; an unparseable judge (twice) fails the item (prediction null, error recorded, the run
 * goes on). Request failures after the LLM layer's retries also fail the item.
 */
import type { Question } from '../../corpora/types.js';
import type { AgentSystem, SystemContext, SystemOutcome } from '../../eval/types.js';
import { errors, errorText, isLexcaseError } from '../../core/errors.js';
import { INDEX_METHODS } from '../../retrieval/methods.js';
import { deriveSeed } from '../../core/rng.js';
import { structuredFailure } from '../../core/llm/structured.js';
import { blindQuestion } from '../common/gold-guard.js';
import { PassageHandles, passageHandles, withPassageHandles } from '../common/passage-handles.js';
import { seededOrder, type PresentationRecord } from '../common/presentation-order.js';
import { offeredLetters, refusedOptions } from '../common/option-check.js';
import { itemCitationMetrics, unansweredCitationMetrics } from './citation-summary.js';
import { citedPassages, type ShownPassage } from './cited-evidence.js';
import { crossExamine } from './cross-examiner.js';
import { debaterTurn } from './debater.js';
import { inTurnOrder } from './turn-order.js';
import { buildEvidencePool, findSearchTool, poolTrace } from './evidence-pool.js';
import { judge } from './judge.js';
import { seededModel } from './llm-call.js';
import { visibleOpponents } from './topology.js';
import { CHECKLIST_ITEMS, type Brief, type CrossExamination, type Judgment, type MadSettings, type PoolPassage } from './types.js';
import { DEFAULT_K } from '../../retrieval/default-k.js';
import { AGENT_DEFAULTS } from '../common/defaults.js';
import { MAD_MAX_ROUNDS } from './system-names.js';
import { inCallBranches } from '../../core/llm/record-replay.js';

export const MAD_DEFAULTS: MadSettings = {
  rounds: AGENT_DEFAULTS.rounds,
  topology: 'sparse',
  crossExaminer: false,
  k: DEFAULT_K,
  method: 'bm25',
  passageChars: 600,
  judgeEachRound: false,
};

export function madSettings(o: Partial<MadSettings> = {}): MadSettings {
  const s = { ...MAD_DEFAULTS };
  for (const key of Object.keys(MAD_DEFAULTS) as (keyof MadSettings)[]) if (o[key] !== undefined) (s as Record<string, unknown>)[key] = o[key];
  if (!Number.isInteger(s.rounds) || s.rounds < 1 || s.rounds > MAD_MAX_ROUNDS)
    throw errors.invalidInput('rounds', `must be an integer from 1 to ${MAD_MAX_ROUNDS}, got ${s.rounds}`);
  if (s.topology !== 'full' && s.topology !== 'sparse') throw errors.invalidInput('topology', `"${s.topology}"; expected full or sparse`);
  if (!Number.isInteger(s.k) || s.k < 1) throw errors.invalidInput('k', `must be a positive integer, got ${s.k}`);
  // a name lexcase does not know (BM25) gets the closest one, not "rebuild with --methods BM25" once the index is open
  if (!INDEX_METHODS.includes(s.method)) throw errors.methodUnknown(s.method, INDEX_METHODS);
  return s;
}

export interface DebateTrace {
  [k: string]: unknown;
  system: 'mad';
  settings: MadSettings;
  letters: string[];
  /** `cutFrom`: the passage's length when the prompts show only its first `settings.passageChars` characters; `fromSnippet`: no doc-store text, the search snippet shown (a cut). */
  pool: { id: string; query: string; cutFrom?: number; fromSnippet?: true }[];
  rounds: { round: number; briefs: Brief[] }[];
  crossExamination?: CrossExamination;
  judge?: Judgment;
  /** With judgeEachRound: the judge's verdict after every round (the last is the final judgment). */
  roundVerdicts?: { round: number; verdict: string | null; error?: string }[];
  /** The seeded orders in which briefs were shown (to each rebutting debater, the cross-examiner, the judge). */
  presentation?: PresentationRecord[];
  error?: string;
}

async function debate(q: Question, ctx: SystemContext, s: MadSettings, trace: DebateTrace): Promise<Judgment> {
  if (!ctx.llm) throw errors.llmNotConfigured();
  const llm = ctx.llm;
  const letters = trace.letters;
  const searchTool = findSearchTool(ctx.tools, s.method);
  const { pool, order: poolOrder } = await buildEvidencePool(q, ctx, s.method, s.k);
  trace.pool = poolTrace(pool, s.passageChars);
  trace.passageChars = s.passageChars;
  for (const p of pool) passageHandles().handle(p.id); // pool order fixes P1..Pn before concurrent turns
  const poolIds = new Set(pool.map((p) => p.id));
  const extra = new Map<string, PoolPassage[]>(letters.map((l) => [l, []]));
  // the paper does not say in which order the options' queries fill the pool, or in which order a
  // debater, the cross-examiner or the judge reads the briefs: each is drawn from the item's seed
  // (and the reader), recorded in the trace
  const presentation: PresentationRecord[] = (trace.presentation = [poolOrder]);
  const inOrder = (briefs: Brief[], kind: string, at?: string) => {
    if (briefs.length < 2) return briefs;
    const o = seededOrder(briefs, (b) => b.letter, { seed: ctx.seed, kind, at });
    presentation.push(o.record);
    return o.items;
  };
  let prev: Brief[] = [];
  for (let round = 1; round <= s.rounds; round++) {
    // each debater's view of the previous round (seeded order), and the text of the snippets those
    // briefs cite that it was not shown, collected in letter order before the concurrent turns
    const seen: Brief[][] = letters.map((letter, i) =>
      round === 1
        ? []
        : inOrder(
            visibleOpponents(s.topology, i, letters.length).map((j) => prev[j]),
            'opponent briefs',
            `${letter} round ${round}`,
          ),
    );
    const cited: ShownPassage[][] = [];
    for (const [i, letter] of letters.entries())
      cited.push(round === 1 ? [] : await citedPassages([prev[i], ...seen[i]], ctx.getPassage, new Set([...pool, ...extra.get(letter)!].map((p) => p.id))));
    const order = inTurnOrder(letters.length); // snippets get their handles in letter order
    // each debater's calls a branch of the item's log (record-replay.ts): llm/<item>.jsonl in letter order, not reply order
    const turns = await inCallBranches(letters, (letter, i) =>
      debaterTurn({
        llm: seededModel(llm, deriveSeed(ctx.seed, `debater-${letter}-r${round}`)),
        q,
        letter,
        round,
        rounds: s.rounds,
        pool,
        extra: extra.get(letter)!,
        own: prev[i],
        seen: seen[i],
        cited: cited[i],
        tools: [searchTool],
        passageChars: s.passageChars,
        getPassage: ctx.getPassage,
        signal: ctx.signal,
        order: order[i],
      }),
    );
    turns.forEach((t, i) => extra.get(letters[i])!.push(...t.added));
    prev = turns.map((t) => t.brief);
    trace.rounds.push({ round, briefs: prev });
    if (s.judgeEachRound && round < s.rounds) {
      // an interim judgment on this round's briefs (no cross-examination); its failure does not fail the item
      trace.roundVerdicts ??= [];
      try {
        const jr = await judge(
          seededModel(llm, deriveSeed(ctx.seed, `judge-r${round}`)),
          q,
          letters,
          pool,
          await citedPassages(prev, ctx.getPassage, poolIds),
          inOrder(prev, 'judge briefs', `round ${round}`),
          undefined,
          s.passageChars,
          ctx.signal,
        );
        trace.roundVerdicts.push({ round, verdict: jr.verdict });
      } catch (e) {
        if (!isLexcaseError(e) || e.code !== 'LLM_OUTPUT_INVALID') throw e;
        trace.roundVerdicts.push({ round, verdict: null, error: e.message });
      }
    }
  }
  if (s.crossExaminer) {
    trace.crossExamination = await crossExamine({
      examiner: seededModel(llm, deriveSeed(ctx.seed, 'cross-examiner')),
      // each debater answers under its own seed, as in its rounds
      answerer: (letter) => seededModel(llm, deriveSeed(ctx.seed, `debater-${letter}-cross`)),
      q,
      letters,
      briefs: inOrder(prev, 'cross-examiner briefs'),
      cited: await citedPassages(prev, ctx.getPassage),
      passageChars: s.passageChars,
      signal: ctx.signal,
    });
  }
  const j = await judge(
    seededModel(llm, deriveSeed(ctx.seed, 'judge')),
    q,
    letters,
    pool,
    await citedPassages(prev, ctx.getPassage, poolIds),
    inOrder(prev, 'judge briefs', 'final'),
    trace.crossExamination,
    s.passageChars,
    ctx.signal,
  );
  trace.judge = j;
  if (s.judgeEachRound) (trace.roundVerdicts ??= []).push({ round: s.rounds, verdict: j.verdict });
  return j;
}

/** With judgeEachRound, whether the verdict after each round is the gold (`correctAfterRound<r>`); a failed judgment counts as wrong. */
function roundFlags(s: MadSettings, trace: DebateTrace, gold: string): Record<string, boolean> {
  const flags: Record<string, boolean> = {};
  if (s.judgeEachRound)
    for (let r = 1; r <= s.rounds; r++) {
      const v = trace.roundVerdicts?.find((x) => x.round === r);
      flags[`correctAfterRound${r}`] = v?.verdict ? v.verdict === gold : false;
    }
  return flags;
}

function allEvidenceIds(trace: DebateTrace): string[] {
  const ids = new Set(trace.pool.map((p) => p.id));
  for (const r of trace.rounds) for (const b of r.briefs) for (const id of b.request?.ids ?? []) ids.add(id);
  return [...ids];
}

/** The MAD system for the runner. */
export function createMad(opts: Partial<MadSettings> = {}): AgentSystem<Question> {
  const s = madSettings(opts);
  return async (item, ctx): Promise<SystemOutcome> => {
    const q = blindQuestion(item);
    const trace: DebateTrace = { system: 'mad', settings: s, letters: [], pool: [], rounds: [] };
    // fewer than 2 options with text: a failed item before any request, its round flags false (wrong,
    // as every failed item's) and no other metric, as nothing was searched, argued or judged
    const refused = refusedOptions(q, 'a debate', trace);
    if (refused) return { ...refused, metrics: roundFlags(s, trace, item.answer) };
    trace.letters = offeredLetters(q, 'a debate');
    let prediction: string | null = null;
    let error: string | undefined;
    const handles = new PassageHandles();
    try {
      prediction = (await withPassageHandles(() => debate(q, ctx, s, trace), handles)).verdict;
    } catch (e) {
      if (!isLexcaseError(e)) throw e;
      error = trace.error = errorText(e);
      const raw = structuredFailure(e).raw.length ? structuredFailure(e).raw : (e as { raw?: string[] }).raw;
      if (raw?.length) trace.judgeRaw = raw;
    }
    const last = trace.rounds[trace.rounds.length - 1]?.briefs ?? [];
    const winner = prediction ? last.find((b) => b.letter === prediction) : undefined;
    // the judge vouches only for citations of passages it was shown (the pool and the snippets the briefs cite)
    const judged = trace.judge && { unsupported: trace.judge.unsupported, shown: [...trace.pool.map((p) => p.id), ...trace.judge.snippets] };
    const cited = itemCitationMetrics(winner?.citations ?? [], item.goldPassageIds, allEvidenceIds(trace), judged);
    // a verdict for a debater whose final brief was forfeited (its replies unparseable twice): there is no winning brief,
    // so no answer citations and no checklist of it — before 2026-12-05 scored as a brief citing nothing, its checklist counted
    const winnerForfeited = !!winner?.error;
    const metrics: Record<string, number | boolean | null> = {
      // a failed item has no answer: no answer citations to count (null, never 0)
      ...(prediction === null || winnerForfeited ? unansweredCitationMetrics(cited) : cited),
      ...(winnerForfeited ? { winnerForfeited: true } : {}),
      debateCitations: trace.rounds.reduce((n, r) => n + r.briefs.reduce((m, b) => m + b.citations.length, 0), 0),
      // cited handles none of ours ("P3, P5", "P99"): kept as written, they count as citations not in the index (metrics.ts unresolvedCitations)
      unresolvedCitations: handles.unresolved,
      forfeits: trace.rounds.reduce((n, r) => n + r.briefs.filter((b) => b.error).length, 0),
      checklist: trace.judge && !winnerForfeited ? CHECKLIST_ITEMS.filter((k) => trace.judge!.checklist[k]).length : null,
    };
    Object.assign(metrics, roundFlags(s, trace, item.answer));
    const stepFailures: Record<string, number> = {};
    if (metrics.forfeits) stepFailures['debater brief'] = metrics.forfeits as number;
    if (trace.crossExamination?.error) stepFailures['cross-examiner'] = 1;
    const unanswered = trace.crossExamination?.questions.filter((x) => x.answer === '(no answer)').length ?? 0;
    if (unanswered) stepFailures['cross-examination answer'] = unanswered;
    const roundFailures = trace.roundVerdicts?.filter((v) => v.verdict === null).length ?? 0;
    if (roundFailures) stepFailures['round verdict'] = roundFailures;
    return { prediction, trace, metrics, ...(Object.keys(stepFailures).length ? { stepFailures } : {}), ...(error ? { error } : {}) };
  };
}
