/**
 * Adaptive agent selection (ACAL eq. 3.1): an LLM matches the ten role profiles against the case
 * and picks a support team A⁺ and an attack team A⁻.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { z } from 'zod';
import { invokeStructured } from '../../../core/llm/structured.js';
import { describeRole, LEGAL_ROLES, ROLE_NAMES } from '../roles.js';
import { caseHeader, msgs, type CaseInput } from './common.js';

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
  const goal = side === 'support' ? 'SUPPORTING arguments (the claim is true)' : 'ATTACKING arguments (the claim is false)';
  const user = [
    `TASK: select the ${side} team — the legal agents best suited to construct ${goal} for this case.`,
    caseHeader(c, false),
    `AVAILABLE AGENTS:\n${LEGAL_ROLES.map((r) => `- ${describeRole(r)}`).join('\n')}`,
    `Choose 2 to ${max} agents whose expertise fits the legal issues of this case. Use the role names exactly as listed.`,
    'Reply with JSON only: {"selected": [{"role": "<role name>", "reason": "<why this expert>"}]}',
  ].join('\n\n');
  const r = await invokeStructured(llm, msgs('You assemble expert legal teams.', user), schema, {
    what: `${side} team selection`,
    signal: opts.signal,
  });
  const seen = new Set<string>();
  const team = r.value.selected.filter((m) => !seen.has(m.role) && seen.add(m.role)).slice(0, max);
  return { team, raw: r.raw };
}
