/**
 * Factor Analyst: checks one ply against the factor lists, flags hallucinated or misattributed
 * factors (REQUIRES_CORRECTION) and mandates abstention (REQUIRES_ABSTENTION → TERMINATE) when
 * the primary precedent shares no factor with c1 or was won by the other side.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { extractJson, invokeStructured } from '../../core/llm/structured.js';
import type { PlyKey } from './format.js';
import { analystRequest, FACTOR_ANALYST_SYSTEM } from './prompts.js';
import { analystReportSchema, type AnalystReport } from './schemas.js';

/**
 * The Analyst's report; when the outcome was written otherwise than its canonical form ("requires
 * correction"), the report keeps the text as written in `analysis_outcome_as_written` (for the trace).
 */
export async function analyzePly(model: BaseChatModel, ply: PlyKey, triple: string, segment: string, signal?: AbortSignal): Promise<AnalystReport> {
  const { value, raw } = await invokeStructured(
    model,
    [new SystemMessage(FACTOR_ANALYST_SYSTEM), new HumanMessage(analystRequest(ply, triple, segment))],
    analystReportSchema,
    { what: `Factor Analyst (${ply})`, signal },
  );
  const written = writtenOutcome(raw.at(-1));
  return written !== undefined && written !== value.analysis_outcome ? { ...value, analysis_outcome_as_written: written } : value;
}

function writtenOutcome(reply: string | undefined): string | undefined {
  let json: unknown;
  try {
    json = reply === undefined ? undefined : extractJson(reply);
  } catch {
    return undefined;
  }
  const outcome = json && typeof json === 'object' ? (json as Record<string, unknown>).analysis_outcome : undefined;
  return typeof outcome === 'string' ? outcome : undefined;
}

/** The report as the Polisher and the Developer read it. */
export function reportText(r: AnalystReport): string {
  const parts = [`Outcome: ${r.analysis_outcome}`, r.summary ? `Summary: ${r.summary}` : ''];
  const c = r.correction_details;
  if (c?.fabricated_or_misrepresented_factors?.length) parts.push(`Fabricated or misrepresented factors: ${c.fabricated_or_misrepresented_factors.join('; ')}`);
  const outcome = c?.misrepresented_precedent_outcome ?? c?.misrepresented_tsc_outcome;
  if (outcome) parts.push(`Misrepresented outcome: ${outcome}`);
  if (c?.other_issues_for_correction) parts.push(`Other issues: ${c.other_issues_for_correction}`);
  if (r.utilized_factors?.length) parts.push(`Factors used correctly: ${r.utilized_factors.join(', ')}`);
  return parts.filter(Boolean).join('\n');
}
