/**
 * The LLM Advocate: one per hypothesis, a tool-calling loop built with langchain's createAgent. It
 * analyses its hypothesis, picks tools, searches, reflects and refines, then returns its k most
 * compelling passages with a one-line justification each (JSON parsed with zod).
 *
 * A reply that repeats a message or tool-call id of the loop's conversation fails the advocate
 * (LLM_OUTPUT_INVALID; agents/common/message-id-guard.ts) instead of being merged over the earlier one.
 *
 * Limits: `maxSteps` model calls (modelCallLimitMiddleware) and `maxTokens` (a beforeModel
 * middleware that ends the loop once the advocate's replies have used that many tokens). When the
 * loop ends without a parseable selection, one compile call (invokeStructured: one retry, then
 * LLM_OUTPUT_INVALID) asks the model to choose from the passages its searches returned; if that
 * fails too, the advocate falls back to its top passages by evidence score and records the error.
 * Such a final reply is dropped from the response cache only when the step fails (the compile call
 * failed too, or there was nothing to compile from): one the compile call recovered stays cached, so
 * a rerun is answered from the cache as this run was.
 * A final reply without a parseable selection when no tool returned a passage (a tool call written
 * as text, an empty reply) leaves nothing to compile from: the advocate records the error and the
 * reply's text (`raw`, cut), counted as a failed step of its own (`failedStep` "no passages"), apart
 * from a failed compile call ("compile"): ADVOCATE_STEP_FAILURES (types.ts) names each.
 *
 * The model sees passages under neutral handles (P1, P2, …; agents/common/passage-handles.ts), never
 * real ids: the tools are wrapped here, the handles the model picks are mapped back to ids.
 *
 * Evidence can only be passages some tool returned to this advocate: picks naming no handle it was
 * shown (an invented id, a real id spelled out) and handles no tool returned to it are dropped and
 * listed in `rejectedIds` (and `rejected`, with the reason, as are the picks beyond its k), so nothing
 * outside retrieval (e.g. a dataset's gold passage) can enter a juror's prompt through an advocate.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { createAgent, createMiddleware, modelCallLimitMiddleware } from 'langchain';
import { toolErrorsWithoutStack } from '../common/tool-error-text.js';
import { z } from 'zod';
import { isLexcaseError } from '../../core/errors.js';
import { distinctIdsGuard } from '../common/message-id-guard.js';
import { repeatedCallsOnce } from '../common/repeated-tool-calls.js';
import { passageHandles } from '../common/passage-handles.js';
import { TEXT_TOOL_CALL_HINT, textToolCall } from '../common/text-tool-call.js';
import { sendAs } from '../../core/llm/json-schema.js';
import { invokeStructured, messageText, parseStructured, refusalOf, refusalText } from '../../core/llm/structured.js';
import { rejectReply } from '../../core/llm/cache-validation.js';
import { withCall } from '../../core/llm/record-replay.js';
import { advocateCompilePrompt, advocateSystemPrompt, advocateTask } from './prompts.js';
import { cutFrom, truncate } from '../common/question-text.js';
import { AGENT_DEFAULTS, CASE_PROMPT_LIMITS } from '../common/defaults.js';
import { countingModel } from './token-tally.js';
import { extractToolTrace, spentTokensOf, TOKEN_LIMIT_NOTE, tokensOf, type Candidate } from './tool-trace.js';
import type { AdvocateResult, EvidenceItem, Hypothesis, RejectedPick } from './types.js';

export const EvidenceSelection = z.object({
  analysis: z.string().optional(),
  evidence: z.array(z.object({ id: z.union([z.string(), z.number()]).transform(String), justification: z.string().default('') })).min(1),
});

/**
 * The compile call's selection: the same reply, with the passage offered as an enum of the handles
 * listed (`handles`), so a schema-following server can only pick passages the advocate's searches
 * returned; the parser stays lenient (an unknown id is dropped and listed in rejectedIds).
 */
export function evidenceSelectionSchema(handles: readonly string[]) {
  const id = sendAs(z.union([z.string(), z.number()]).transform(String), { type: 'string', enum: [...new Set(handles)] });
  return z.object({ analysis: z.string().optional(), evidence: z.array(z.object({ id, justification: z.string().default('') })).min(1) });
}

export interface AdvocateOptions {
  llm: BaseChatModel;
  tools: StructuredToolInterface[];
  facts: string;
  hypothesis: Hypothesis;
  k: number;
  stance?: 'for' | 'against';
  maxSteps?: number;
  maxTokens?: number;
  getPassage?: (id: string) => Promise<{ id: string; text: string } | undefined>;
  signal?: AbortSignal;
}

function tokenLimitMiddleware(maxTokens: number) {
  return createMiddleware({
    name: 'LexcaseTokenLimit',
    beforeModel: {
      canJumpTo: ['end'],
      hook: (state: { messages: BaseMessage[] }) => {
        if (tokensOf(state.messages) >= maxTokens) return { jumpTo: 'end' as const, messages: [new AIMessage(TOKEN_LIMIT_NOTE)] };
        return undefined;
      },
    },
  });
}

/** A pick: the real id behind the handle the model wrote, or (`unresolved`) what it wrote when that named none. */
interface Pick {
  id: string;
  justification: string;
  unresolved?: true;
}

/**
 * An accepted reply's picks, read (PassageHandles `read`, or `cite` to count those naming no handle shown:
 * once, where the reply is accepted) in the order written.
 */
function readPicks(written: readonly { id: string; justification: string }[], read: (refs: string[]) => { ids: string[]; unresolved: string[] }): Pick[] {
  return written.map((e) => {
    const { ids, unresolved } = read([e.id]);
    return ids.length ? { ...e, id: ids[0] } : { ...e, id: unresolved[0], unresolved: true };
  });
}

/**
 * The model's picks as evidence: the first `k` distinct passages some tool returned. Every other pick
 * is dropped and listed in `rejected` with its reason (DROPPED_PICK_REASONS): one naming no handle it
 * was shown (a passage id spelled out too, whether or not a search returned that passage under a
 * handle), a handle no tool returned to it, a passage picked after the advocate already had its k
 * (before 2026-12-01 those were dropped unlisted), or one it had already picked (before 2026-12-05 dropped unlisted). Each is listed once, in the order first written; a
 * pick written again with the same reason adds to its `times`.
 */
function selectEvidence(picked: Pick[], candidates: Map<string, Candidate>, k: number): { evidence: EvidenceItem[]; rejected: RejectedPick[] } {
  const evidence: EvidenceItem[] = [];
  const rejected: RejectedPick[] = [];
  const drop = (id: string, reason: RejectedPick['reason']) => {
    const seen = rejected.find((r) => r.id === id && r.reason === reason);
    if (seen) seen.times = (seen.times ?? 1) + 1;
    else rejected.push({ id, reason });
  };
  for (const p of picked) {
    if (p.unresolved) {
      drop(p.id, 'names no handle'); // no passage, whatever its text
      continue;
    }
    const c = candidates.get(p.id);
    if (!c) {
      drop(p.id, 'no tool returned it');
      continue;
    }
    if (evidence.some((e) => e.id === p.id)) {
      drop(p.id, 'picked again'); // its first pick (and note) stays; before 2026-12-05 dropped unlisted
      continue;
    }
    if (evidence.length >= k) {
      drop(p.id, 'beyond k');
      continue;
    }
    // the note as the jurors read it, cut at advocateNoteChars; a cut one keeps its length (counted in report.md's CASE section)
    const note = p.justification.replace(/\s+/g, ' ').trim();
    const cut = cutFrom(note, CASE_PROMPT_LIMITS.advocateNoteChars);
    evidence.push({
      id: p.id,
      score: c.score,
      justification: truncate(note, CASE_PROMPT_LIMITS.advocateNoteChars),
      ...(cut !== undefined ? { noteCutFrom: cut } : {}),
    });
  }
  return { evidence, rejected };
}

export async function runAdvocate(o: AdvocateOptions): Promise<AdvocateResult> {
  const stance = o.stance ?? 'for';
  const maxSteps = o.maxSteps ?? AGENT_DEFAULTS.maxSteps;
  const maxTokens = o.maxTokens ?? AGENT_DEFAULTS.maxTokens;
  const handles = passageHandles();
  const agent = createAgent({
    model: o.llm,
    tools: handles.wrapTools(o.tools),
    systemPrompt: advocateSystemPrompt(
      o.k,
      stance,
      o.tools.map((t) => t.name),
    ),
    middleware: [
      handles.inCallOrder(),
      modelCallLimitMiddleware({ runLimit: maxSteps, exitBehavior: 'end' }),
      tokenLimitMiddleware(maxTokens),
      distinctIdsGuard(`advocate ${o.hypothesis.key}`),
      repeatedCallsOnce(),
      toolErrorsWithoutStack(),
    ],
  });
  // the loop's LLM exchanges are recorded as the step `advocate <key>` (core/llm/record-replay.ts)
  const state = (await withCall(`advocate ${o.hypothesis.key}`, () =>
    agent.invoke({ messages: [new HumanMessage(advocateTask(o.facts, o.hypothesis.text, stance))] }, { signal: o.signal, recursionLimit: maxSteps * 8 + 10 }),
  ).catch((e: unknown) => {
    // langchain wraps a middleware's error (the id guard's) in its own; the item fails with lexcase's
    throw isLexcaseError((e as { cause?: unknown })?.cause) ? (e as { cause: unknown }).cause : e;
  })) as { messages: BaseMessage[] };
  const messages = state.messages;
  const { calls, candidates, steps } = extractToolTrace(
    messages,
    handles,
    o.tools.map((t) => t.name),
  );
  let tokens = spentTokensOf(messages);
  const last = messages[messages.length - 1];
  const lastText = last ? messageText(last) : '';
  let stop: AdvocateResult['stop'] = 'final';
  if (lastText === TOKEN_LIMIT_NOTE) stop = 'token-limit';
  else if (/^Model call limits exceeded/.test(lastText)) stop = 'step-limit';

  let analysis: string | undefined;
  let picked: Pick[] | undefined;
  let error: string | undefined;
  let failedStep: AdvocateResult['failedStep'];
  let unparsed = false;
  let finalPicks: { id: string; justification: string }[] = [];
  if (stop === 'final') {
    try {
      const sel = parseStructured(lastText, EvidenceSelection);
      // read without counting: counted below only if these picks stay the advocate's (a compile call replaces them)
      picked = readPicks(sel.evidence, (refs) => handles.read(refs));
      finalPicks = sel.evidence;
      analysis = sel.analysis;
    } catch {
      unparsed = true; // fall through to the compile call
    }
  }
  if ((!picked || selectEvidence(picked, candidates, o.k).evidence.length === 0) && candidates.size > 0) {
    const { compileCandidates, compileSnippetChars } = CASE_PROMPT_LIMITS;
    const shown = [...candidates.values()].sort((a, b) => b.score - a.score).slice(0, compileCandidates);
    const list = shown.map((c) => `${handles.handle(c.id)}: ${truncate(c.snippet.replace(/\s+/g, ' '), compileSnippetChars)}`).join('\n');
    const tally = { tokens: 0 };
    finalPicks = []; // the final reply's picks are replaced, its citations not the advocate's
    try {
      const r = await invokeStructured(
        countingModel(o.llm, tally),
        [
          new SystemMessage('You are an Advocate compiling evidence.'),
          new HumanMessage(advocateCompilePrompt(o.k, o.hypothesis.text, stance, list, { shown: shown.length, of: candidates.size })),
        ],
        evidenceSelectionSchema(shown.map((c) => handles.handle(c.id))),
        { what: `advocate ${o.hypothesis.key} evidence selection`, signal: o.signal },
      );
      picked = readPicks(r.value.evidence, (refs) => handles.cite(refs)); // the accepted compile reply's picks, counted once
      analysis = r.value.analysis ?? analysis;
    } catch (e) {
      if (!isLexcaseError(e)) throw e;
      error = e.message;
      failedStep = 'compile';
      picked = [...candidates.values()]
        .sort((a, b) => b.score - a.score)
        .slice(0, o.k) // the fallback's own ranking, not the model's picks: nothing beyond k to list as rejected
        .map((c) => ({ id: c.id, justification: '(no parseable selection; ranked by evidence score)' }));
    }
    tokens += tally.tokens;
  }
  if (finalPicks.length) picked = readPicks(finalPicks, (refs) => handles.cite(refs)); // the final reply's picks, kept as the advocate's: counted once
  let raw: string | undefined;
  if (stop === 'final' && !picked && candidates.size === 0) {
    // nothing to compile from: without this the advocate read as one that searched and found nothing
    error = noSelectionError(lastText, last && refusalOf(last));
    failedStep = 'no passages';
    raw = cutRaw(lastText);
  }
  // The unparseable final reply leaves the cache only when the step failed (a rerun asks again); one the
  // compile call recovered stays, so a rerun repeats this run instead of arguing again from that point.
  if (unparsed && error !== undefined) rejectReply(last);
  const { evidence, rejected } = selectEvidence(picked ?? [], candidates, o.k);
  if (o.getPassage) {
    for (const e of evidence) e.text = (await o.getPassage(e.id))?.text ?? candidates.get(e.id)?.snippet;
  } else for (const e of evidence) e.text = candidates.get(e.id)?.snippet;
  return {
    hypothesis: o.hypothesis,
    stance,
    evidence,
    toolCalls: calls,
    rejectedIds: rejected.map((r) => r.id),
    rejected,
    steps,
    stop,
    tokens,
    analysis,
    error,
    ...(failedStep ? { failedStep } : {}),
    ...(raw !== undefined ? { raw } : {}),
  };
}

const RAW_MAX = 2000;

/** The error of an advocate whose final reply selects nothing and whose tools returned no passage. */
function noSelectionError(text: string, refusal?: string): string {
  // a refusal (`message.refusal`, content null) is the model's own words, not an empty reply
  const why =
    refusal && !text.trim()
      ? ` (${refusalText(refusal)})`
      : !text.trim()
        ? ' (the reply was empty)'
        : textToolCall(text)
          ? ` (it looks like ${TEXT_TOOL_CALL_HINT})`
          : '';
  return `final reply has no parseable selection and no tool returned passages${why}`;
}

/** A reply's text for the trace, cut at RAW_MAX characters with a mark saying so. */
function cutRaw(text: string): string {
  return text.length <= RAW_MAX ? text : `${text.slice(0, RAW_MAX)}… [cut: ${text.length} characters]`;
}
