/**
 * Arena debating round (ACAL §3.2.5, Fig. 2): for each clash an LLM acting as a legal reasoning
 * expert says which of the two arguments is stronger on the case facts and legal standard. The
 * paper does not say which argument is shown first: each clash shows the two as "A" and "B" in a
 * seeded order (the item's seed and the pair; recorded as a "clash sides" presentation record), so
 * a model that favours "A" favours neither side. The reply gives its reason before its winner,
 * read as "A" or "B" however marked ("a", "B.", "(A)", "Argument B": ../clash-winner.ts).
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { z } from 'zod';
import { invokeStructured } from '../../../core/llm/structured.js';
import { seededOrder, type PresentationRecord } from '../../common/presentation-order.js';
import type { ClashPair } from '../graph/clash.js';
import type { AcalArgument, ClashOutcome } from '../graph/types.js';
import { CLASH_SYSTEM, clashPrompt } from '../prompts.js';
import { msgs, type CaseInput } from './common.js';
import { inCallBranches } from '../../../core/llm/record-replay.js';
import { clashWinnerSchema } from '../clash-winner.js';

/** Reason first: a schema-following server writes keys in schema order, so the expert reasons before it names the winner. */
export const clashSchema = z.object({ reason: z.string().default(''), winner: clashWinnerSchema() });

export async function resolveClashes(
  llm: BaseChatModel,
  c: CaseInput,
  pairs: ClashPair[],
  args: AcalArgument[],
  opts: { signal?: AbortSignal; seed: number },
): Promise<{ outcomes: ClashOutcome[]; raw: string[]; presentation: PresentationRecord[] }> {
  const byId = new Map(args.map((a) => [a.id, a]));
  const raw: string[] = [];
  const presentation: PresentationRecord[] = [];
  const outcomes = await inCallBranches(pairs, async (p) => {
    const sides = seededOrder([byId.get(p.support)!, byId.get(p.attack)!], (a) => a.side, {
      seed: opts.seed,
      kind: 'clash sides',
      at: `${p.support}~${p.attack}`,
    });
    presentation.push(sides.record);
    const [a, b] = sides.items;
    const r = await invokeStructured(llm, msgs(CLASH_SYSTEM, clashPrompt(c, a, b)), clashSchema, {
      what: `clash ${p.support} vs ${p.attack}`,
      signal: opts.signal,
    });
    raw.push(...r.raw);
    return { support: p.support, attack: p.attack, winner: (r.value.winner === 'A' ? a : b).id, reason: r.value.reason };
  });
  return { outcomes, raw, presentation: presentation.sort((x, y) => String(x.at).localeCompare(String(y.at), 'en')) };
}
