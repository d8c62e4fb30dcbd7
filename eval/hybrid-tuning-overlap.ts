/**
 * The warning for a default hybrid evaluated on the questions its defaults were tuned on
 * (retrieval/hybrid-defaults.ts HYBRID_TUNED_ON: Bar Exam QA train, split seed 13): its figures
 * would be measured on its own tuning data, as the learned CASE selector's would
 * (agents/case/selector-training.ts, which refuses; a retrieval figure is warned about instead).
 * `eval retrieval` says it in its report; a run that searches the default hybrid (`run baseline --mode
 * hybrid-rag`, CASE's hybrid search tool, `run mad --method hybrid`) on such questions says it on stderr
 * and records it in config.json (`hybridTuningOverlap`: hybridTuningOverlapConfig). Before, such a
 * run's accuracy and gold-evidence figures (Bar Exam QA train, split seed 13) carried no trace of it.
 */
import { loadQuestions } from '../corpora/registry.js';
import type { Question } from '../corpora/types.js';
import { HYBRID_TUNED_ON, isDefaultHybrid } from '../retrieval/hybrid-defaults.js';
import { log } from '../core/log.js';

const EVAL_REMEDY = 'evaluate it on val or test (a split seed whose val/test share no tuning question), or give your own --weights/--rrf-k/--depth';
const RUN_REMEDY = 'run it on val or test of split seed 13, or search with another method';

/** The warning, or undefined when the retriever is not a default hybrid or no question is a tuning question. */
export async function hybridTuningOverlapWarning(
  retriever: { method: string; config?: Record<string, unknown> },
  questions: readonly Question[],
  remedy = EVAL_REMEDY,
): Promise<string | undefined> {
  if (retriever.method !== 'hybrid' || !isDefaultHybrid(retriever.config)) return undefined;
  const t = HYBRID_TUNED_ON;
  const tuned = new Set((await loadQuestions(t.dataset, t.split, { seed: t.splitSeed })).map((q) => q.id));
  const overlap = questions.filter((q) => tuned.has(q.id)).length;
  if (!overlap) return undefined;
  return `${overlap} of the ${questions.length} questions are ones the default hybrid settings were tuned on (${t.dataset} ${t.split}, split seed ${t.splitSeed}): its figures on them are measured on its own tuning data; ${remedy}`;
}

/**
 * What a run records when it searches the default hybrid over questions it was tuned on: config.json's
 * `hybridTuningOverlap` (the warning, also on stderr), else nothing. `methods`: the methods the run
 * searches; `questions`: every item of the run (before a shard's cut, so every shard records the same).
 * The field describes the item selection, so a run that grows (eval/run-grow.ts) records it anew.
 */
export async function hybridTuningOverlapConfig(
  retrievers: Partial<Record<string, { method: string; config?: Record<string, unknown> }>>,
  methods: readonly string[],
  questions: readonly Question[],
): Promise<{ hybridTuningOverlap?: string }> {
  const hybrid = methods.includes('hybrid') ? retrievers.hybrid : undefined;
  const warning = hybrid ? await hybridTuningOverlapWarning(hybrid, questions, RUN_REMEDY) : undefined;
  if (!warning) return {};
  log.warn(`hybrid: ${warning}`);
  return { hybridTuningOverlap: warning };
}
