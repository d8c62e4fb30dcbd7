/**
 * Writes one ply of the 3-ply argument (the reflective system's Argument Developer, or a debater of
 * the multi-agent baseline), and revises it once from consolidated feedback. A reasoning model's
 * `<think>` block is not part of the ply (withoutReasoning).
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { messageText, withoutReasoning } from '../../core/llm/structured.js';
import type { PlyKey } from './format.js';
import { developerSystem, plyRequest, revisionRequest } from './prompts.js';

export type DeveloperRole = 'developer' | 'plaintiff' | 'defendant';

export async function draftPly(model: BaseChatModel, role: DeveloperRole, ply: PlyKey, triple: string, earlier: string, signal?: AbortSignal): Promise<string> {
  const reply = await model.invoke([new SystemMessage(developerSystem(role)), new HumanMessage(plyRequest(ply, triple, earlier))], { signal });
  return withoutReasoning(messageText(reply)).trim();
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
  return withoutReasoning(messageText(reply)).trim();
}
