/**
 * The few-shot examples of ACAL's SP and CoT baselines: the task's train rows, shown to the items
 * of the test split. Refused where they would tilt the figures: on --split train (each item would
 * see its own row and gold label among the examples), and without a readable train file (the run
 * would be zero-shot beside the paper's few-shot baselines). A malformed train file is the loader's
 * error naming its file, line and field. A run records what it showed in config.json (`fewShot`).
 */
import { loadLegalBenchTask, resolveLegalBenchFile } from '../../corpora/legalbench.js';
import type { TaskExample } from '../../corpora/types.js';
import { errors, isLexcaseError } from '../../core/errors.js';
import type { AcalSystemName } from './system-names.js';

/** The systems that show few-shot examples. */
export const usesFewShot = (system: AcalSystemName | string): boolean => system === 'sp' || system === 'cot';

/** What config.json records of a few-shot run's examples. */
export interface FewShotRecord {
  split: 'train';
  count: number;
  ids: string[];
}

/**
 * The train file the examples of `system` come from (undefined for the systems without examples);
 * refuses --split train and a missing train file. Cheap: the CLI calls it before any LLM is set up.
 */
export function fewShotFile(task: string, system: AcalSystemName | string, split: string, dir?: string): string | undefined {
  if (!usesFewShot(system)) return undefined;
  if (split === 'train')
    throw errors.usage(
      `--system ${system} on --split train would show each item its own row and gold label: its few-shot examples are the task's train rows`,
      `evaluate ${system} on --split test (the default), or run --system acal or rag, which show no examples`,
    );
  try {
    return resolveLegalBenchFile(task, { split: 'train', dir });
  } catch (e) {
    if (!isLexcaseError(e) || e.code !== 'USAGE') throw e;
    throw errors.usage(
      `--system ${system} shows the task's train rows as few-shot examples, but ${e.message.split('\n')[0]}`,
      `${e.details.hint ? `${e.details.hint}; ` : ''}put ${task}.train.jsonl (or ${task}/train.tsv) beside the test file, or run --system acal or rag, which show no examples`,
    );
  }
}

/** The examples of `system` (none for acal/rag) and their record for config.json. */
export async function loadFewShot(
  task: string,
  system: AcalSystemName,
  split: string,
  dir?: string,
): Promise<{ examples: TaskExample[]; record?: FewShotRecord }> {
  const file = fewShotFile(task, system, split, dir);
  if (!file) return { examples: [] };
  const examples = await loadLegalBenchTask(task, { split: 'train', dir }); // a malformed row: CORPUS_PARSE naming file, line and field
  if (!examples.length)
    throw errors.usage(`--system ${system}: the train file ${file} holds no rows, so there are no few-shot examples`, "add the task's train rows to it");
  return { examples, record: { split: 'train', count: examples.length, ids: examples.map((e) => e.id) } };
}
