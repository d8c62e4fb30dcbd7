/**
 * One debater's turn. Round 1 (opening): argue for its option from the shared pool. Round r > 1
 * (rebuttal/closing): sees its own previous brief and the opponents' the topology allows, may request
 * ONE new snippet by calling a search tool once (the tool call returns the highest-ranked hit the debater
 * was not already shown, or an honest "no new passage" reply: new-snippet.ts; further calls
 * in the same turn are refused, and recorded in the brief's `refused` with the reason, as are a call to
 * a tool not offered and a tool call written as text), then writes the revised brief. Citations are checked (exists in the
 * index, seen by the debater, lexical support). The brief is a structured call (the endpoint's
 * structured output, see core/llm/structured.ts); a reply unparseable twice forfeits the round: the
 * brief is recorded empty with the error, the raw replies and any malformed tool-call arguments,
 * it is counted in the item's stepFailures, and the debate goes on. Only a forfeited round's replies
 * leave the response cache; a turn the structured call recovered is answered from the cache on a rerun.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage, ToolMessage, type AIMessage, type BaseMessage } from '@langchain/core/messages';
import type { StructuredToolInterface } from '@langchain/core/tools';
import type { Question } from '../../corpora/types.js';
import { isLexcaseError } from '../../core/errors.js';
import { cutFrom } from '../common/question-text.js';
import { passageHandles } from '../common/passage-handles.js';
import { TEXT_TOOL_CALL_HINT, textToolCall } from '../common/text-tool-call.js';
import { checkCitations } from './citation-check.js';
import { NO_NEW_SNIPPET, SNIPPET_RULE_ID, newSnippet } from './new-snippet.js';
import { extractJson, invokeStructured, messageText, structuredFailure, type StructuredResult } from '../../core/llm/structured.js';
import { rejectReply } from '../../core/llm/cache-validation.js';
import { debaterSystem, openingPrompt, rebuttalPrompt, shownText } from './prompts.js';
import { briefSchema, type BriefReply } from './schemas.js';
import { citedClaims } from './cited-claims.js';
import type { ShownPassage } from './cited-evidence.js';
import type { Brief, PoolPassage } from './types.js';
import type { TurnGate } from './turn-order.js';

function tryJson(text: string): unknown {
  try {
    return extractJson(text);
  } catch {
    return undefined;
  }
}

export interface DebaterTurnOptions {
  llm: BaseChatModel;
  q: Question;
  letter: string;
  round: number;
  rounds: number;
  pool: PoolPassage[];
  /** Snippets this debater requested in earlier rounds (it keeps them). */
  extra: PoolPassage[];
  own?: Brief;
  seen: Brief[];
  /**
   * The text of every passage outside the pool and `extra` that `own` and `seen` cite (an opponent's
   * requested snippet: cited-evidence.ts), shown after the pool and citable like it.
   */
  cited?: ShownPassage[];
  /** Search tools a rebuttal may call once; empty = no requests. */
  tools: StructuredToolInterface[];
  passageChars: number;
  getPassage(id: string): Promise<{ id: string; text: string } | undefined>;
  signal?: AbortSignal;
  /** The round's turn order: a snippet gets its passage handle only after earlier debaters' did (turn-order.ts). */
  order?: TurnGate;
}

export interface DebaterTurn {
  brief: Brief;
  /** The snippet requested this turn (added to the debater's own evidence). */
  added: PoolPassage[];
}

/** The ids of every passage the debater was shown before this request: the pool, its own earlier snippets, the opponents' it was shown. */
function shownIds(o: DebaterTurnOptions): Set<string> {
  return new Set([...o.pool, ...o.extra, ...(o.cited ?? [])].map((p) => p.id));
}

async function requestSnippet(
  first: AIMessage,
  o: DebaterTurnOptions,
): Promise<{ toolMessages: ToolMessage[]; request?: Brief['request']; added: PoolPassage[]; refused: NonNullable<Brief['refused']> }> {
  const calls = first.tool_calls ?? [];
  const toolMessages: ToolMessage[] = [];
  const refused: NonNullable<Brief['refused']> = [];
  let request: Brief['request'];
  const added: PoolPassage[] = [];
  let ran = false;
  for (const [i, call] of calls.entries()) {
    const id = call.id ?? `call_${i}`;
    const tool = o.tools.find((t) => t.name === call.name);
    const query = typeof call.args?.query === 'string' ? call.args.query : '';
    // the first valid call runs: a call to a tool not offered, or with an empty query, is refused without using up the round's snippet
    if (ran || !tool || !query) {
      const reason = !tool ? 'not a tool offered this round' : !query ? 'empty query' : 'one snippet per round';
      refused.push({ name: call.name, reason });
      toolMessages.push(
        new ToolMessage({
          tool_call_id: id,
          content: reason === 'one snippet per round' ? 'Refused: one snippet per round.' : `Refused: unknown tool or empty query (${call.name}).`,
        }),
      );
      continue;
    }
    ran = true;
    const { hits, k, skipped } = await newSnippet(tool, query, shownIds(o), o.signal);
    const results = [];
    let cut: number | undefined;
    let fromSnippet = false;
    for (const h of hits) {
      const p = await o.getPassage(h.id);
      const text = p?.text ?? h.snippet ?? '';
      if (p?.text === undefined) fromSnippet = true; // no doc-store text: the search snippet stands in (counted as cut)
      added.push({ id: h.id, text, query, ...(p?.text === undefined ? { fromSnippet: true as const } : {}) });
      cut ??= cutFrom(text, o.passageChars); // counted in report.md's MAD section (report-section.ts poolCuts)
      results.push({ id: passageHandles().handle(h.id), text: shownText(text, o.passageChars) });
    }
    request = {
      tool: call.name,
      query,
      ids: hits.map((h) => h.id),
      rule: SNIPPET_RULE_ID,
      k,
      ...(skipped ? { skipped } : {}),
      passageChars: o.passageChars,
      ...(cut !== undefined ? { cutFrom: cut } : {}),
      ...(fromSnippet ? { fromSnippet: true as const } : {}),
    };
    toolMessages.push(new ToolMessage({ tool_call_id: id, content: JSON.stringify(hits.length ? { results } : { results, note: NO_NEW_SNIPPET }) }));
  }
  return { toolMessages, request, added, refused };
}

export async function debaterTurn(o: DebaterTurnOptions): Promise<DebaterTurn> {
  try {
    return await turn(o);
  } finally {
    o.order?.done(); // a turn that requested nothing, or failed, lets the later ones go on
  }
}

async function turn(o: DebaterTurnOptions): Promise<DebaterTurn> {
  const opening = o.round === 1 || !o.own;
  const evidence = [...o.pool, ...o.extra];
  const cited = opening ? [] : (o.cited ?? []);
  const canRequest = !opening && o.tools.length > 0;
  const prompt = opening
    ? openingPrompt(o.q, o.letter, evidence, o.passageChars)
    : rebuttalPrompt(o.q, o.letter, o.round, o.rounds, evidence, o.own!, o.seen, o.passageChars, canRequest, cited);
  let messages: BaseMessage[] = [new SystemMessage(debaterSystem(o.letter)), new HumanMessage(prompt)];
  const base: Omit<Brief, 'argument' | 'claims' | 'citations'> = {
    letter: o.letter,
    round: o.round,
    kind: opening ? 'opening' : 'rebuttal',
    saw: o.seen.map((b) => b.letter),
  };
  const what = `debater ${o.letter} round ${o.round}`;
  let added: PoolPassage[] = [];
  // the closed set of citable passages: the handles of what this debater was shown
  const shown = () => [...evidence, ...cited, ...added].map((p) => passageHandles().handle(p.id));
  // a first reply that is no brief stays cached when the structured call recovers the turn (a rerun repeats it)
  let unparsed: AIMessage | undefined;
  try {
    let r: StructuredResult<BriefReply> | undefined;
    let model: BaseChatModel = o.llm;
    if (canRequest && typeof o.llm.bindTools === 'function') {
      // The snippet request is a free tool choice; the brief itself is then a structured call.
      const first = (await o.llm.bindTools(o.tools).invoke(messages, { signal: o.signal })) as AIMessage;
      // A snippet request with malformed arguments never runs; it is kept in the brief.
      if (first.invalid_tool_calls?.length) base.invalidToolCalls = first.invalid_tool_calls.map((c) => ({ name: c.name, args: c.args, error: c.error }));
      if (first.tool_calls?.length) {
        // handles in letter order, not in the order the replies arrived (a replay must see the same prompts)
        await o.order?.before;
        const req = await requestSnippet(first, o);
        o.order?.done();
        added = req.added;
        base.request = req.request;
        if (req.refused.length) base.refused = req.refused;
        messages = [...messages, first, ...req.toolMessages];
        // the brief itself: tools still declared (the conversation has tool calls) but not callable
        model = o.llm.bindTools(o.tools, { tool_choice: 'none' }) as BaseChatModel;
      } else {
        const asText = textToolCall(messageText(first));
        if (asText) base.refused = [{ name: asText, reason: TEXT_TOOL_CALL_HINT }];
        const parsed = briefSchema(shown(), opening ? 'opening' : 'rebuttal').safeParse(tryJson(messageText(first)));
        if (parsed.success) r = { value: parsed.data, raw: [messageText(first)], attempts: 1 };
        else unparsed = first; // the structured call below writes the brief
      }
    }
    r ??= await invokeStructured(model, messages, briefSchema(shown(), opening ? 'opening' : 'rebuttal'), { what, signal: o.signal });
    const claims = citedClaims(r.value.claims); // the accepted brief's citations, read (and counted) once
    const seenIds = new Set([...evidence, ...cited, ...added].map((p) => p.id));
    const citations = await checkCitations(claims, seenIds, o.getPassage, o.passageChars);
    return {
      brief: {
        ...base,
        argument: r.value.argument,
        rebuttal: opening ? undefined : r.value.rebuttal,
        claims,
        citations,
        ...(r.attempts > 1 ? { raw: r.raw } : {}),
        ...(r.invalidToolCalls ? { invalidToolCalls: [...(base.invalidToolCalls ?? []), ...r.invalidToolCalls] } : {}),
      },
      added,
    };
  } catch (e) {
    if (!isLexcaseError(e) || e.code !== 'LLM_OUTPUT_INVALID') throw e;
    rejectReply(unparsed); // the round is forfeited: a rerun asks again
    const f = structuredFailure(e);
    return {
      brief: {
        ...base,
        argument: '',
        claims: [],
        citations: [],
        error: e.message,
        raw: f.raw,
        ...(f.invalidToolCalls.length || base.invalidToolCalls ? { invalidToolCalls: [...(base.invalidToolCalls ?? []), ...f.invalidToolCalls] } : {}),
      },
      added,
    };
  }
}
