/**
 * Turning lexcase's datasets into EMAR cases. The paper's benchmark (LFPBench, 756 Chinese civil
 * cases with evidence lists and claims) is not available here, so EMAR runs on multiple-choice
 * questions (Bar Exam QA: the fact pattern is the evidence) and on LegalBench-style classification
 * tasks (the text is the evidence; the task's labels become the options).
 */
import type { Question, TaskExample } from '../../corpora/types.js';
import { LETTERS } from '../../corpora/types.js';
import { errors } from '../../core/errors.js';
import type { EmarCase } from './types.js';

export function questionToCase(q: Question): EmarCase {
  return { id: q.id, evidence: q.prompt, question: q.question, choices: q.choices };
}

export interface TaskFraming {
  /** The question put to the parties, e.g. "Is there hearsay?". */
  question: string;
  /** The task's labels, in option order, e.g. ["Yes", "No"]. */
  labels: string[];
}

/** Framings for the LegalBench tasks EMAR is run on. */
export const TASK_FRAMINGS: Record<string, TaskFraming> = {
  hearsay: {
    question:
      'Under the Federal Rules of Evidence, is the evidence described above hearsay (an out-of-court statement offered to prove the truth of the matter asserted)?',
    labels: ['Yes', 'No'],
  },
};

/** Bar Exam QA's questions have four options (corpora/barexam.ts): their letters are the labels of a run that recorded none. */
const BAREXAM_LABELS = LETTERS.slice(0, 4);

/**
 * The label set of a run's items, recorded in its config.json as `labels`: for questions the letters
 * of every option any item has (the union: a file whose questions have five options adds E; the
 * bundled Bar Exam QA, four each, A–D), for a LegalBench task its framing's labels (hearsay Yes/No).
 */
export function itemLabels(items: readonly ({ kind: 'question'; choices: readonly string[] } | { kind: 'task' })[], framing: TaskFraming): string[] {
  // an option with no text is never offered (caseLetters) nor gold (the loader refuses it): not a label, which
  // would put a class no item can have into macro-F1's average (80% at 100% accuracy)
  const offered = new Set(items.flatMap((it) => (it.kind === 'question' ? it.choices.flatMap((c, i) => (c.trim() ? [i] : [])) : [])));
  return [...LETTERS.filter((_, i) => offered.has(i)), ...(items.some((it) => it.kind === 'task') ? framing.labels : [])];
}

/**
 * The label set of an EMAR run, which its macro-F1 averages over on every surface
 * (eval/metrics/macro.ts): the `labels` its config.json records (itemLabels: the options its items
 * have); for a run that records none (an older lexcase) its dataset's — Bar Exam the option letters
 * A–D, a LegalBench task its framing's labels (hearsay Yes/No); undefined for another dataset (then
 * the labels of the whole sample).
 */
export function emarLabels(dataset: unknown, recorded?: unknown): readonly string[] | undefined {
  if (Array.isArray(recorded) && recorded.length && recorded.every((l) => typeof l === 'string')) return recorded as string[];
  if (dataset === 'barexam') return BAREXAM_LABELS;
  return typeof dataset === 'string' && Object.hasOwn(TASK_FRAMINGS, dataset) ? TASK_FRAMINGS[dataset].labels : undefined;
}

export function taskExampleToCase(ex: TaskExample, framing: TaskFraming): EmarCase {
  return { id: ex.id, evidence: ex.text, question: framing.question, choices: framing.labels };
}

/** The label of an option letter (for classification tasks). */
export function letterToLabel(letter: string, framing: TaskFraming): string {
  const i = LETTERS.indexOf(letter);
  if (i < 0 || i >= framing.labels.length) throw errors.invalidInput('answer', `"${letter}" is not an option of ${framing.labels.join('/')}`);
  return framing.labels[i];
}
