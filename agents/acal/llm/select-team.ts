/**
 * Adaptive agent selection (ACAL eq. 3.1): an LLM matches the ten role profiles against the case
 * and picks a support team A⁺ and an attack team A⁻ of 2 to `maxAgents` (default 3) agents. The
 * schema holds it to that size (minItems/maxItems; a reply outside it is refused and re-asked
 * once). The paper does not order the pool: each side's list of roles is shown in a seeded order
 * (the item's seed and the side; a "team roles" presentation record), so no role is always first.
 * Each pick writes its reason before its role (reasoning before the decision, docs/acal.md).
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { z } from 'zod';
import { invokeStructured } from '../../../core/llm/structured.js';
import { seededOrder, type PresentationRecord } from '../../common/presentation-order.js';
import { SELECT_TEAM_SYSTEM, selectTeamPrompt } from '../prompts.js';
import { LEGAL_ROLES, ROLE_NAMES } from '../roles.js';
import { msgs, type CaseInput } from './common.js';

export interface TeamMember {
  role: string;
  reason: string;
}

/** The fewest agents a team has (docs/acal.md: 2–3 per team). */
export const MIN_TEAM = 2;

/** 2 to `max` members (`max` below 2: exactly `max`). */
export function teamSchema(max: number) {
  const min = Math.min(MIN_TEAM, max);
  return z.object({
    selected: z
      .array(z.object({ reason: z.string().default(''), role: z.enum(ROLE_NAMES) }))
      .min(min)
      .max(max),
  });
}

export async function selectTeam(
  llm: BaseChatModel,
  c: CaseInput,
  side: 'support' | 'attack',
  opts: { maxAgents?: number; signal?: AbortSignal; seed: number },
): Promise<{ team: TeamMember[]; raw: string[]; presentation: PresentationRecord; repeated: number }> {
  const max = opts.maxAgents ?? 3;
  const roles = seededOrder(LEGAL_ROLES, (r) => r.role, { seed: opts.seed, kind: 'team roles', at: side });
  const r = await invokeStructured(llm, msgs(SELECT_TEAM_SYSTEM, selectTeamPrompt(c, side, max, roles.items)), teamSchema(max), {
    what: `${side} team selection`,
    signal: opts.signal,
  });
  // a role named twice is one agent (the team is a set of roles; JSON Schema's strict subset cannot
  // say "distinct"), so the team is one short: counted as `repeated` (trace, ACAL report section)
  const seen = new Set<string>();
  const team = r.value.selected.filter((m) => !seen.has(m.role) && seen.add(m.role));
  return { team, raw: r.raw, presentation: roles.record, repeated: r.value.selected.length - team.length };
}
