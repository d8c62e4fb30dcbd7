/**
 * The few-shot examples of ACAL's SP and CoT baselines: the task's train rows, shown to the items
 * of the test split. Refused where they would tilt the figures: on --split train (each item would
 * see its own row and gold label among the examples), and without a readable train file (the run
 * would be zero-shot beside the paper's few-shot baselines). A malformed train file is the loader's
 * error naming its file, line and field. A run records what it showed in config.json (`fewShot`).
 */
import { itemTextKey, loadLegalBenchTask, resolveLegalBenchFile, type LegalBenchFileRecord } from '../../corpora/legalbench.js';
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

/**
 * Refuses examples that are also items of the split run (same text up to case and white space): each
 * such item would be shown its own gold label. `items` is the whole split (a later, larger --limit
 * runs the rest), and `testFile` the file it was read from, named in the refusal.
 */
function refuseItemsAmongExamples(system: string, examples: TaskExample[], items: readonly TaskExample[], trainFile: string, testFile: string): void {
  const byText = new Map(examples.map((e) => [itemTextKey(e.text), e]));
  const both = items.flatMap((it) => {
    const ex = byText.get(itemTextKey(it.text));
    return ex ? [`${it.id} = ${ex.id}`] : [];
  });
  if (!both.length) return;
  const shown = both.slice(0, 5).join(', ') + (both.length > 5 ? `, … (${both.length - 5} more)` : '');
  throw errors.usage(
    `--system ${system}: ${both.length} item${both.length === 1 ? '' : 's'} of ${testFile} ${both.length === 1 ? 'is' : 'are'} also among the few-shot examples of ${trainFile} (${shown}): each would be shown its own gold label`,
    'remove those rows from the train file or from the items, or run --system acal or rag, which show no examples',
  );
}

/**
 * The examples of `system` (none for acal/rag) and their record for config.json. `items`: the items
 * of the split run (from `testFile`); an example that is one of them is refused (refuseItemsAmongExamples).
 */
export async function loadFewShot(
  task: string,
  system: AcalSystemName,
  split: string,
  dir: string | undefined,
  items: readonly TaskExample[],
  testFile: string,
): Promise<{ examples: TaskExample[]; record?: FewShotRecord }> {
  const file = fewShotFile(task, system, split, dir);
  if (!file) return { examples: [] };
  const examples = await loadLegalBenchTask(task, { split: 'train', dir }); // a malformed row: CORPUS_PARSE naming file, line and field
  if (!examples.length)
    throw errors.usage(`--system ${system}: the train file ${file} holds no rows, so there are no few-shot examples`, "add the task's train rows to it");
  refuseItemsAmongExamples(system, examples, items, file, testFile);
  return { examples, record: { split: 'train', count: examples.length, ids: examples.map((e) => e.id) } };
}

/**
 * The line a run prints (stderr at its start, acal-report.md and report.md) when its few-shot examples
 * were read from another place than its items: `--data DIR` without the task's train file falls back
 * to LEXCASE_LEGALBENCH_DIR or the bundled rows, which config.json alone recorded. Undefined when both
 * come from one place, or the run shows no examples. `dataFiles`: config.json's.
 */
export function fewShotSourceNote(dataFiles: unknown, split: string): string | undefined {
  const files = (dataFiles ?? {}) as Partial<Record<string, LegalBenchFileRecord>>;
  const items = files[split];
  const train = files.train;
  if (!items || !train || split === 'train' || items.source === train.source) return undefined;
  const where = (r: LegalBenchFileRecord) => (r.source === 'bundled' ? `the bundled ${r.file}` : `${r.file} (${r.source})`);
  return (
    `the few-shot examples come from ${where(train)}, the items from ${where(items)}: ` +
    `${items.source} holds no ${train.task} train file; put ${train.task}.train.jsonl (or ${train.task}/train.jsonl) beside the items to show your own`
  );
}

/** acal-report.md's and report.md's line on few-shot examples read from another place than the items. */
export function fewShotLines(config: Record<string, unknown>): string[] {
  const note = fewShotSourceNote(config.dataFiles, String(config.split ?? 'test'));
  return note ? ['', `**Note:** ${note}.`] : [];
}
