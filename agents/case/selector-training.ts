/**
 * The questions the committed learned evidence selectors were trained on (train-evidence-selector.ts:
 * Bar Exam QA, train split, split seed 13), and the refusal of an offline CASE run that would use
 * the selector on any of them: its figures would be measured on the selector's own training
 * questions. Another split seed, --split train or --split all draws such questions (split seed 7's
 * val holds 94 of them); `--evidence plan` (the query plan, trained on nothing) runs there.
 */
import type { Question, Split } from '../../corpora/types.js';
import { errors } from '../../core/errors.js';
import type { Retriever } from '../../retrieval/types.js';
import { createHash } from 'node:crypto';
import { learnedApplies, type EvidenceMode } from './case-offline-system.js';
import { SELECTOR_TRAINING, selectorTrainingIds } from './selector-training-set.js';
import type { SelectorModel } from './evidence-selector.js';

export { SELECTOR_TRAINING };

/** What an offline run's config.json records of the learned selector that chose its evidence. */
export interface SelectorRecord {
  features: number;
  keep: number;
  trainedOn: string;
  /** sha256 (first 16 hex digits) of the weights, standardisation, keep and signals: another fit is another digest. */
  weights: string;
}

export function selectorRecord(m: SelectorModel): SelectorRecord {
  const fit = JSON.stringify({ features: m.features, keep: m.keep, mean: m.mean, std: m.std, w: m.w, signals: m.signals ?? null });
  return { features: m.features, keep: m.keep, trainedOn: m.trainedOn, weights: createHash('sha256').update(fit).digest('hex').slice(0, 16) };
}

/** Ids of `questions` that are in the selector's training questions. */
export async function selectorTrainingOverlap(questions: readonly Question[]): Promise<string[]> {
  const trained = await selectorTrainingIds();
  return questions.filter((q) => trained.has(q.id)).map((q) => q.id);
}

/** Refuses an offline run whose evidence comes from the learned selector on questions it was trained on. */
export async function assertSelectorHeldOut(o: {
  offline: boolean;
  evidence?: EvidenceMode;
  tools?: string[];
  retrievers: Partial<Record<string, Retriever>>;
  questions: readonly Question[];
  /** Where the questions came from, for the message; absent: "of the N questions given". */
  dataset?: string;
  split?: Split;
  splitSeed?: number;
  /** The way out on this surface (default: the CLI's flags). */
  hint?: string;
}): Promise<void> {
  if (!o.offline || !learnedApplies({ evidence: o.evidence }, o.tools, o.retrievers)) return;
  const overlap = await selectorTrainingOverlap(o.questions);
  if (!overlap.length) return;
  const t = SELECTOR_TRAINING;
  const of =
    o.dataset && o.split
      ? `the ${o.questions.length} questions of ${o.dataset} ${o.split} (split seed ${o.splitSeed ?? 13})`
      : `the ${o.questions.length} questions given`;
  throw errors.usage(
    `--evidence learned (the default): ${overlap.length} of ${of} are questions the learned evidence selector was trained on (${t.dataset} ${t.split}, split seed ${t.splitSeed}; e.g. ${overlap.slice(0, 3).join(', ')}): its figures would be measured on its own training data`,
    o.hint ?? `pass --evidence plan (the query plan, trained on nothing), or evaluate the selector on --split val or test with --split-seed ${t.splitSeed}`,
  );
}
