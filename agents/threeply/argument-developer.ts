/**
 * Writes one ply of the 3-ply argument (the reflective system's Argument Developer, or a debater of
 * the multi-agent baseline), and revises it once from consolidated feedback. A reasoning model's
 * `<think>` block (or Harmony analysis channel) is not part of the ply (withoutReasoning); a reply
 * with no text besides (cut off at the token limit inside its reasoning, or content null beside a
 * `reasoning_content`) is no ply: the step fails (LLM_OUTPUT_INVALID), never an empty argument.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { errors } from '../../core/errors.js';
import { rejectReply } from '../../core/llm/cache-validation.js';
import { messageText, refusalOf, refusalText, withoutReasoning } from '../../core/llm/structured.js';
import type { PlyKey } from './format.js';
import { developerSystem, plyRequest, revisionRequest } from './prompts.js';

/** The ply a reply writes: its text without the reasoning; throws where nothing is left. */
function plyText(reply: BaseMessage, ply: PlyKey): string {
  const text = withoutReasoning(messageText(reply)).trim();
  const refusal = refusalOf(reply);
  // no ply: the step fails, and the reply leaves the response cache (a resume asks again)
  if (!text) rejectReply(reply);
  if (!text && refusal) throw errors.llmOutputInvalid(`the ${ply} ply`, refusalText(refusal));
  if (!text) throw errors.llmOutputInvalid(`the ${ply} ply`, 'the reply holds no text besides any reasoning (cut off at the token limit inside it?)');
  return text;
}

export type DeveloperRole = 'developer' | 'plaintiff' | 'defendant';

export async function draftPly(model: BaseChatModel, role: DeveloperRole, ply: PlyKey, triple: string, earlier: string, signal?: AbortSignal): Promise<string> {
  const reply = await model.invoke([new SystemMessage(developerSystem(role)), new HumanMessage(plyRequest(ply, triple, earlier))], { signal });
  return plyText(reply, ply);
}

export async function revisePly(
  model: BaseChatModel,
  ply: PlyKey,
  triple: string,
  earlier: string,
  draft: string,
  feedback: string,
  signal?: AbortSignal,
): Promise<string> {
  const reply = await model.invoke(
    [new SystemMessage(developerSystem('developer')), new HumanMessage(revisionRequest(ply, triple, earlier, draft, feedback))],
    {
      signal,
    },
  );
  return plyText(reply, ply);
}
