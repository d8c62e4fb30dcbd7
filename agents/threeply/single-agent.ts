/**
 * Single-agent baselines (§3.4.1–2): one model writes the whole 3-ply argument in one turn, with
 * the paper's core prompt (SA) or with chain-of-thought instructions on grounding, abstention and
 * factor utilization (SA-EP, whose reply carries its steps in a `reasoning` field before the plies:
 * kept in the trace, never a ply, so never distilled). The reply is an abstention when it (or one
 * of its plies) is TERMINATE; the plies it argued stay in the result (the paper's TERMINATE is per ply).
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { errors } from '../../core/errors.js';
import { rejectReply } from '../../core/llm/cache-validation.js';
import { structuredRequest } from '../../core/llm/structured.js';
import { isTerminate, PLIES, PLY_LABEL, type PlyKey } from './format.js';
import { ENHANCED_SINGLE_AGENT_SYSTEM, SINGLE_AGENT_SYSTEM } from './prompts.js';
import { enhancedThreePlySchema, threePlySchema } from './schemas.js';
import type { ArgumentResult, TraceStep } from './types.js';

export async function runSingleAgent(model: BaseChatModel, triple: string, opts: { enhanced: boolean; signal?: AbortSignal }): Promise<ArgumentResult> {
  const role = opts.enhanced ? 'single-agent-enhanced' : 'single-agent';
  const messages: BaseMessage[] = [new SystemMessage(opts.enhanced ? ENHANCED_SINGLE_AGENT_SYSTEM : SINGLE_AGENT_SYSTEM), new HumanMessage(triple)];
  const steps: TraceStep[] = [];
  let convo = messages;
  let lastError = '';
  // The endpoint's structured output (core/llm/structured.ts); TERMINATE may come as plain text
  // (prompt mode) or inside a ply (structured modes), both read as an abstention.
  const schema = opts.enhanced ? enhancedThreePlySchema : threePlySchema;
  const req = structuredRequest(model, schema, role, opts.signal);
  // SA's re-ask is as it was; SA-EP's names its reasoning key too
  const keys = opts.enhanced ? 'the key "reasoning" and the three ply keys' : 'the three keys';
  const replies: BaseMessage[] = [];
  for (let attempt = 1; attempt <= 2; attempt++) {
    const reply = await req.invoke(convo);
    const got = req.read(reply);
    replies.push(reply);
    const text = got.text;
    steps.push({ role, round: attempt - 1, output: text });
    const parsed: Record<string, unknown> | undefined = got.value;
    if (got.error) lastError = got.error;
    const ply = (p: PlyKey): string | undefined => {
      const v = parsed?.[PLY_LABEL[p]];
      return typeof v === 'string' && v.trim() ? v : undefined;
    };
    if (isTerminate(text) && !(parsed && PLIES.every((p) => ply(p) && !isTerminate(ply(p))))) {
      return { abstained: true, terminatedAt: 'plaintiff', reason: text.trim().split(/\r?\n/).pop(), plies: {}, steps };
    }
    if (parsed) {
      const plies: Partial<Record<PlyKey, string>> = {};
      for (const p of PLIES) {
        const v = ply(p);
        if (v) plies[p] = v;
      }
      const terminated = PLIES.find((p) => isTerminate(plies[p]));
      // the plies after a TERMINATE are no part of the argument (the paper stops there): before 2026-12-05 they were
      // distilled and scored (an abstaining triple with N_h 3)
      if (terminated)
        return {
          abstained: true,
          terminatedAt: terminated,
          reason: plies[terminated],
          plies: Object.fromEntries(PLIES.slice(0, PLIES.indexOf(terminated) + 1).flatMap((p) => (plies[p] ? [[p, plies[p]]] : []))),
          steps,
        };
      if (Object.keys(plies).length) return { abstained: false, plies, steps };
      lastError = 'none of the three plies is present';
    }
    convo = [
      ...messages,
      new AIMessage(text),
      new HumanMessage(`Your reply could not be parsed (${lastError}). Reply again with only the JSON object with ${keys}, or TERMINATE.`),
    ];
  }
  // the step failed: its replies leave the response cache (a rerun asks again); a reply read as an
  // abstention, or one a retry recovered, stays cached so a rerun repeats this run
  for (const r of replies) rejectReply(r);
  throw errors.llmOutputInvalid(role, lastError);
}
