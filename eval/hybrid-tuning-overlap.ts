/**
 * The warning for a default hybrid evaluated on the questions its defaults were tuned on
 * (retrieval/hybrid-defaults.ts HYBRID_TUNED_ON: Bar Exam QA train, split seed 13): its figures
 * would be measured on its own tuning data, as the learned CASE selector's would
 * (agents/case/selector-training.ts, which refuses; a retrieval figure is warned about instead).
 */
import { loadQuestions } from '../corpora/registry.js';
import type { Question } from '../corpora/types.js';
import { HYBRID_TUNED_ON, isDefaultHybrid } from '../retrieval/hybrid-defaults.js';

/** The warning, or undefined when the retriever is not a default hybrid or no question is a tuning question. */
export async function hybridTuningOverlapWarning(
  retriever: { method: string; config?: Record<string, unknown> },
  questions: readonly Question[],
): Promise<string | undefined> {
  if (retriever.method !== 'hybrid' || !isDefaultHybrid(retriever.config)) return undefined;
  const t = HYBRID_TUNED_ON;
  const tuned = new Set((await loadQuestions(t.dataset, t.split, { seed: t.splitSeed })).map((q) => q.id));
  const overlap = questions.filter((q) => tuned.has(q.id)).length;
  if (!overlap) return undefined;
  return `${overlap} of the ${questions.length} questions are ones the default hybrid settings were tuned on (${t.dataset} ${t.split}, split seed ${t.splitSeed}): its figures on them are measured on its own tuning data; evaluate it on val or test (a split seed whose val/test share no tuning question), or give your own --weights/--rrf-k/--depth`;
}
