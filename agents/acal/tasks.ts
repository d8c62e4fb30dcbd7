/**
 * Claims under test for the LegalBench tasks ACAL is evaluated on (paper §4.1). The claim is the
 * central argument φ (τ = 0.5); "Yes" means the claim holds.
 */
import { errors } from '../../core/errors.js';

export interface AcalTask {
  name: string;
  /** One-line description of the legal test, shown to every agent. */
  context: string;
  /** The central claim φ, phrased so that "Yes" (σ(φ) ≥ θ) is the positive label. */
  claim: string;
  /**
   * Search query for the evidence retrieval: the task's terms, then the whole item text (no cut;
   * config.json records `query('{text}')` as `evidenceQuery`). Until this was recorded
   * learned_hands_courts searched with the first 600 characters of the post only.
   */
  query: (text: string) => string;
}

export const ACAL_TASKS: Record<string, AcalTask> = {
  hearsay: {
    name: 'hearsay',
    context:
      'Hearsay under the Federal Rules of Evidence: hearsay is a statement, other than one made by the declarant while testifying at the trial or hearing, offered in evidence to prove the truth of the matter asserted (FRE 801(c)). Non-assertive conduct is not a statement; a statement offered for another purpose (effect on the listener, notice, verbal act) is not hearsay. Decide whether the evidence is hearsay, not whether an exception makes it admissible.',
    claim: 'The evidence described is hearsay: an out-of-court statement offered to prove the truth of the matter asserted (FRE 801(c)).',
    query: (text) => `hearsay out-of-court statement truth of the matter asserted ${text}`,
  },
  learned_hands_courts: {
    name: 'learned_hands_courts',
    context:
      'Learned Hands "courts" category: does the post discuss the logistics of how a person can interact with a lawyer or the court system — procedure, court rules, how to file a lawsuit, how to hire a lawyer, how to represent oneself, and other practical matters of dealing with these systems?',
    claim: 'The post discusses the logistics of interacting with a lawyer or the court system (procedure, filing, hiring a lawyer, self-representation).',
    query: (text) => `court procedure filing lawsuit hiring a lawyer ${text}`,
  },
};

export function acalTask(name: string): AcalTask {
  const t = ACAL_TASKS[name];
  if (!t) throw errors.datasetUnknown(name, Object.keys(ACAL_TASKS));
  return t;
}
