/**
 * Uncertainty-aware escalation (ACAL §3.4): when σ(claim) falls in the uncertainty band the
 * Final Judge performs an independent analysis of the case, seeing the argument graph (arguments,
 * strengths, relations) and the evidence, and gives a binding Yes/No.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { z } from 'zod';
import { invokeStructured } from '../../../core/llm/structured.js';
import type { AcalGraph, Verdict } from '../graph/types.js';
import { caseHeader, msgs, type CaseInput } from './common.js';
import { passageHandles } from '../../common/passage-handles.js';

const schema = z.object({ decision: z.enum(['Yes', 'No']), reasoning: z.string().default('') });

export function describeGraphForJudge(g: AcalGraph): string {
  const r = g.result!;
  const lines = g.arguments
    .filter((a) => a.status !== 'rejected')
    .map(
      (a) =>
        `(${a.id}) [${a.side === 'support' ? 'SUPPORTS' : 'ATTACKS'}; ${a.agent}; base ${r.effectiveBase[a.id].toFixed(2)}, final ${r.strengths[a.id].toFixed(2)}] ${a.text}` +
        (a.citedPassageIds.length ? ` (cites ${a.citedPassageIds.map((id) => passageHandles().handle(id)).join(', ')})` : ''),
    );
  const rels = g.relations.filter((x) => x.from < x.to).map((x) => `${x.from} ${x.kind}s ${x.to}`);
  return `${lines.join('\n')}\nRELATIONS: ${rels.length ? rels.join('; ') : 'none'}\nCLAIM STRENGTH σ = ${r.claimStrength.toFixed(3)} (threshold ${g.settings.threshold})`;
}

export async function judge(
  llm: BaseChatModel,
  c: CaseInput,
  graph: AcalGraph,
  opts: { signal?: AbortSignal } = {},
): Promise<{ decision: Verdict; reasoning: string; raw: string[] }> {
  const user = [
    'TASK: final judgment on a borderline case. The argumentation graph ended in a near-tie; you must decide.',
    caseHeader(c),
    `ARGUMENT GRAPH:\n${describeGraphForJudge(graph)}`,
    'Perform an independent legal analysis: re-evaluate the evidence and the legal standard, resolve the key conflicts, and decide whether the claim holds. You must answer Yes or No.',
    'Reply with JSON only: {"decision": "Yes" | "No", "reasoning": "<2-3 sentences naming the decisive rule or fact>"}',
  ].join('\n\n');
  const r = await invokeStructured(llm, msgs('You are a senior judge giving a final, binding decision.', user), schema, {
    what: 'final judge decision',
    signal: opts.signal,
  });
  return { decision: r.value.decision, reasoning: r.value.reasoning, raw: r.raw };
}
