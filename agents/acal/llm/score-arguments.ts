/**
 * Intrinsic strength attribution (ACAL §3.2.3, Table 2): an evaluator scores each argument on
 * the strict 0.1–1.0 rubric. One call scores one agent's arguments; every id must be scored.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { z } from 'zod';
import { invokeStructured } from '../../../core/llm/structured.js';
import { caseHeader, msgs, type CaseInput } from './common.js';
import { passageHandles } from '../../common/passage-handles.js';

export const RUBRIC = [
  '0.1–0.2: incorrect legal analysis or misidentification of key elements',
  '0.3–0.4: partially correct but missing critical components, or overly generic',
  '0.5–0.6: sound analysis with minor gaps or insufficient case-specific application',
  '0.7–0.8: strong analysis with specific facts and correct legal reasoning',
  '0.9–1.0: exceptional precision with authoritative citations and flawless logic (rare)',
].join('\n');

export async function scoreArguments(
  llm: BaseChatModel,
  c: CaseInput,
  items: { id: string; side: 'support' | 'attack'; text: string; citedPassageIds: string[] }[],
  opts: { signal?: AbortSignal } = {},
): Promise<{ scores: Record<string, { score: number; note: string }>; raw: string[] }> {
  const ids = items.map((i) => i.id);
  const schema = z
    .object({
      scores: z.array(z.object({ id: z.string(), score: z.number().min(0.1).max(1), note: z.string().default('') })),
    })
    .superRefine((v, ctx) => {
      const got = new Set(v.scores.map((s) => s.id));
      const missing = ids.filter((id) => !got.has(id));
      if (missing.length) ctx.addIssue({ code: 'custom', message: `missing scores for ${missing.join(', ')}`, path: ['scores'] });
    });
  const user = [
    'TASK: score each argument\'s intrinsic strength on the rubric.',
    caseHeader(c),
    `SCORING RUBRIC (be strict; penalise generic statements, reward case-specific legal precision):\n${RUBRIC}`,
    `ARGUMENTS:\n${items
      .map((i) => `(${i.id}) [${i.side === 'support' ? 'supports' : 'attacks'} the claim] ${i.text}${i.citedPassageIds.length ? ` (cites ${i.citedPassageIds.map((id) => passageHandles().handle(id)).join(', ')})` : ''}`)
      .join('\n')}`,
    'Reply with JSON only: {"scores": [{"id": "<argument id>", "score": <0.1..1.0>, "note": "<one sentence>"}]}',
  ].join('\n\n');
  const r = await invokeStructured(llm, msgs('You are a strict evaluator of legal arguments.', user), schema, {
    what: 'argument strength scores',
    signal: opts.signal,
  });
  const scores: Record<string, { score: number; note: string }> = {};
  for (const s of r.value.scores) if (ids.includes(s.id) && !(s.id in scores)) scores[s.id] = { score: s.score, note: s.note };
  return { scores, raw: r.raw };
}
