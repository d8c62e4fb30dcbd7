/**
 * Arena debating round (ACAL §3.2.5, Fig. 2): for each clash an LLM acting as a legal reasoning
 * expert says which of the two arguments is stronger on the case facts and legal standard.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { z } from 'zod';
import { invokeStructured } from '../../../core/llm/structured.js';
import type { ClashPair } from '../graph/clash.js';
import type { AcalArgument, ClashOutcome } from '../graph/types.js';
import { CLASH_SYSTEM, clashPrompt } from '../prompts.js';
import { msgs, type CaseInput } from './common.js';

const schema = z.object({ winner: z.enum(['A', 'B']), reason: z.string().default('') });

export async function resolveClashes(
  llm: BaseChatModel,
  c: CaseInput,
  pairs: ClashPair[],
  args: AcalArgument[],
  opts: { signal?: AbortSignal } = {},
): Promise<{ outcomes: ClashOutcome[]; raw: string[] }> {
  const byId = new Map(args.map((a) => [a.id, a]));
  const raw: string[] = [];
  const outcomes = await Promise.all(
    pairs.map(async (p) => {
      const s = byId.get(p.support)!;
      const a = byId.get(p.attack)!;
      const r = await invokeStructured(llm, msgs(CLASH_SYSTEM, clashPrompt(c, s.text, a.text)), schema, {
        what: `clash ${p.support} vs ${p.attack}`,
        signal: opts.signal,
      });
      raw.push(...r.raw);
      return { support: p.support, attack: p.attack, winner: r.value.winner === 'A' ? p.support : p.attack, reason: r.value.reason };
    }),
  );
  return { outcomes, raw };
}
