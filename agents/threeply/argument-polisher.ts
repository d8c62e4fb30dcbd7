/**
 * Argument Polisher: assesses factor utilization, accuracy and strength of one ply, says whether a
 * revision is needed (with instructions for the developer) and returns the polished text.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { invokeStructured } from '../../core/llm/structured.js';
import type { PlyKey } from './format.js';
import { ARGUMENT_POLISHER_SYSTEM, polisherRequest } from './prompts.js';
import { polisherReportSchema, type PolisherReport } from './schemas.js';

/**
 * How a reflective run reads the Polisher's reply, recorded in its config.json (`polisherReading`):
 * `revision_needed` is required (a reply that leaves it out is refused, asked again once, then the
 * step fails), and an empty `polished_argument` keeps the draft, counted (metrics unpolishedPlies).
 * A lexcase before 2026-12-01 read a missing decision as no revision and kept the draft uncounted;
 * a run dir it started resumes with a warning naming the field (eval/resume-unrecorded.ts).
 */
export const POLISHER_READING =
  'revision_needed required (left out: refused, asked again once, then the step fails); an empty polished_argument keeps the draft, counted in unpolishedPlies';

export async function polishPly(
  model: BaseChatModel,
  ply: PlyKey,
  triple: string,
  segment: string,
  analystReport: string,
  signal?: AbortSignal,
): Promise<PolisherReport> {
  const { value } = await invokeStructured(
    model,
    [new SystemMessage(ARGUMENT_POLISHER_SYSTEM), new HumanMessage(polisherRequest(ply, triple, segment, analystReport))],
    polisherReportSchema,
    { what: `Argument Polisher (${ply})`, signal },
  );
  return value;
}
