/**
 * The questions the committed learned evidence selectors were trained on (train-evidence-selector.ts:
 * Bar Exam QA, train split, split seed 13), as a set of ids loaded once. Both the run-level refusal
 * (selector-training.ts assertSelectorHeldOut: `run case --offline`, evalCaseOffline) and the
 * per-item one of createCaseOfflineSystem (a library caller's own question list) read it.
 */
import { loadQuestions } from '../../corpora/registry.js';
import type { Split } from '../../corpora/types.js';

export const SELECTOR_TRAINING = { dataset: 'barexam', split: 'train', splitSeed: 13 } as const satisfies { dataset: string; split: Split; splitSeed: number };

let trained: Promise<ReadonlySet<string>> | undefined;

/** Ids of the selector's training questions (loaded on first use; a failed load is retried next time). */
export function selectorTrainingIds(): Promise<ReadonlySet<string>> {
  if (!trained) {
    const t = SELECTOR_TRAINING;
    trained = loadQuestions(t.dataset, t.split, { seed: t.splitSeed }).then((qs) => new Set(qs.map((q) => q.id)));
    trained.catch(() => (trained = undefined));
  }
  return trained;
}
