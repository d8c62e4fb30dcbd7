/**
 * Multi-agent debate without reflection (MA, §3.4.3): a Plaintiff agent and a Defendant agent write
 * the plies in turn, each seeing the earlier ones; no Factor Analyst, no Polisher, no revision.
 * A ply that begins with TERMINATE is that ply's output and stops the generation (an abstention; the
 * plies argued before it stay).
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { draftPly } from './argument-developer.js';
import { formatPlies, isTerminate, PLIES, type PlyKey } from './format.js';
import type { ArgumentResult, TraceStep } from './types.js';

export async function runMultiAgent(model: BaseChatModel, triple: string, signal?: AbortSignal): Promise<ArgumentResult> {
  const steps: TraceStep[] = [];
  const plies: Partial<Record<PlyKey, string>> = {};
  for (const ply of PLIES) {
    const role = ply === 'defendant' ? 'defendant' : 'plaintiff';
    const text = await draftPly(model, role, ply, triple, formatPlies(plies), signal);
    steps.push({ ply, role, output: text });
    plies[ply] = text;
    if (isTerminate(text)) return { abstained: true, terminatedAt: ply, reason: text, plies, steps };
  }
  return { abstained: false, plies, steps };
}
