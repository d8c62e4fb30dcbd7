/**
 * Adaptive agent selection (ACAL eq. 3.1): an LLM matches the ten role profiles against the case
 * and picks a support team A⁺ and an attack team A⁻.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { z } from 'zod';
import { invokeStructured } from '../../../core/llm/structured.js';
import { SELECT_TEAM_SYSTEM, selectTeamPrompt } from '../prompts.js';
import { ROLE_NAMES } from '../roles.js';
import { msgs, type CaseInput } from './common.js';

export interface TeamMember {
  role: string;
  reason: string;
}

const schema = z.object({
  selected: z
    .array(z.object({ role: z.enum(ROLE_NAMES), reason: z.string().default('') }))
    .min(1)
    .max(10), // more than asked for are cut to maxAgents below rather than failing the item
});

export async function selectTeam(
  llm: BaseChatModel,
  c: CaseInput,
  side: 'support' | 'attack',
  opts: { maxAgents?: number; signal?: AbortSignal } = {},
): Promise<{ team: TeamMember[]; raw: string[] }> {
  const max = opts.maxAgents ?? 3;
  const r = await invokeStructured(llm, msgs(SELECT_TEAM_SYSTEM, selectTeamPrompt(c, side, max)), schema, {
    what: `${side} team selection`,
    signal: opts.signal,
  });
  const seen = new Set<string>();
  const team = r.value.selected.filter((m) => !seen.has(m.role) && seen.add(m.role)).slice(0, max);
  return { team, raw: r.raw };
}
