/**
 * LegalBench binary classification tasks used by ACAL: `hearsay` (bundled, CC BY 4.0) and
 * `learned_hands_courts` (CC BY-NC-SA 4.0: NOT bundled — load it from a directory you supply).
 *
 * A directory may hold `<task>.<split>.jsonl` (lexcase layout, fields {index, text, answer, ...})
 * or `<task>/<split>.tsv` / `<task>/<split>.jsonl` (LegalBench repository layout).
 * Lookup order: opts.dir, $LEXCASE_LEGALBENCH_DIR, the bundled copy (hearsay only); a run records
 * which file it read and its sha256 (`legalBenchFileRecord`, config.json `dataFiles`).
 */
import { createHash } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { readFile } from 'node:fs/promises';
import { errors } from '../core/errors.js';
import { PACKAGE_ROOT } from '../core/version.js';
import { readLines } from './read-lines.js';
import { readLegalBenchTsv } from './legalbench-tsv.js';
import type { TaskExample } from './types.js';

export interface LegalBenchTaskInfo {
  name: string;
  labels: readonly ['Yes', 'No'];
  licence: string;
  bundled: boolean;
}

export const LEGALBENCH_TASKS: Record<string, LegalBenchTaskInfo> = {
  hearsay: { name: 'hearsay', labels: ['Yes', 'No'], licence: 'CC BY 4.0', bundled: true },
  learned_hands_courts: { name: 'learned_hands_courts', labels: ['Yes', 'No'], licence: 'CC BY-NC-SA 4.0', bundled: false },
};

export const BUNDLED_LEGALBENCH_DIR = join(PACKAGE_ROOT, 'corpora', 'data', 'legalbench');

export interface LoadLegalBenchOptions {
  split?: 'train' | 'test';
  dir?: string;
  env?: NodeJS.ProcessEnv;
}

function candidates(dir: string, task: string, split: string): string[] {
  return [join(dir, `${task}.${split}.jsonl`), join(dir, task, `${split}.jsonl`), join(dir, task, `${split}.tsv`)];
}

const layouts = (task: string, split: string): string => `${task}.${split}.jsonl, ${task}/${split}.jsonl or ${task}/${split}.tsv`;

/** Where a task's file was found: the --data dir, $LEXCASE_LEGALBENCH_DIR, or lexcase's bundled copy. */
export type LegalBenchSource = '--data' | 'LEXCASE_LEGALBENCH_DIR' | 'bundled';

/**
 * The LegalBench file a run read, as config.json records it (`dataFiles.<split>`): where it was
 * found, its path (relative to lexcase's package for the bundled copy, absolute otherwise) and the
 * sha256 (hex) of its bytes. $LEXCASE_LEGALBENCH_DIR is looked in before the bundled copy, so two
 * runs of the same command can read different files: this says which.
 */
export interface LegalBenchFileRecord {
  task: string;
  split: string;
  source: LegalBenchSource;
  file: string;
  sha256: string;
}

/** The file a task/split would be read from and where it was found, or a clear error saying where to get it. */
export function locateLegalBenchFile(task: string, opts: LoadLegalBenchOptions = {}): { file: string; source: LegalBenchSource } {
  const info = LEGALBENCH_TASKS[task];
  if (!info) throw errors.datasetUnknown(task, Object.keys(LEGALBENCH_TASKS));
  const split = opts.split ?? 'test';
  const env = opts.env ?? process.env;
  const dirs = (
    [
      [opts.dir, '--data'],
      [env.LEXCASE_LEGALBENCH_DIR, 'LEXCASE_LEGALBENCH_DIR'],
      [info.bundled ? BUNDLED_LEGALBENCH_DIR : undefined, 'bundled'],
    ] as const
  ).filter((d): d is readonly [string, LegalBenchSource] => !!d[0]);
  // a --data (or $LEXCASE_LEGALBENCH_DIR) that names a file or nothing: before, its files were not found there and
  // the bundled hearsay ran in their place, exit 0 (`--data test.tsv` ran 94 bundled items, the file unread)
  for (const [d, source] of dirs) {
    if (source === 'bundled') continue;
    const what = source === '--data' ? '--data' : '$LEXCASE_LEGALBENCH_DIR';
    if (!existsSync(d)) throw errors.usage(`${what} ${d}: no such directory`, `${what} takes the directory that holds ${layouts(task, split)}`);
    if (!statSync(d).isDirectory())
      throw errors.usage(`${what} ${d} is a file, not a directory`, `${what} takes the directory that holds ${layouts(task, split)}`);
  }
  for (const [d, source] of dirs) for (const file of candidates(d, task, split)) if (existsSync(file)) return { file, source };
  const looked = dirs.flatMap(([d]) => candidates(d, task, split));
  throw errors.usage(
    `LegalBench ${task} ${split} data not found${looked.length ? ` (looked for ${looked.join(', ')})` : ''}`,
    info.bundled ? undefined : `${task} is licensed ${info.licence} and is not bundled; pass --data DIR (or set LEXCASE_LEGALBENCH_DIR) pointing at your copy`,
  );
}

/** The file a task/split would be read from, or a clear error saying where to get it. */
export function resolveLegalBenchFile(task: string, opts: LoadLegalBenchOptions = {}): string {
  return locateLegalBenchFile(task, opts).file;
}

/** The record of the file a task/split is read from (config.json `dataFiles`): its source, path and sha256. */
export async function legalBenchFileRecord(task: string, opts: LoadLegalBenchOptions = {}): Promise<LegalBenchFileRecord> {
  const { file, source } = locateLegalBenchFile(task, opts);
  const sha256 = createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
  return { task, split: opts.split ?? 'test', source, file: source === 'bundled' ? relative(PACKAGE_ROOT, file).split(sep).join('/') : resolve(file), sha256 };
}

function toExample(task: string, split: string, row: Record<string, unknown>, file: string, line: number): TaskExample {
  const index = row.index;
  const text = row.text;
  const answer = row.answer;
  if ((typeof index !== 'string' && typeof index !== 'number') || String(index) === '') throw errors.corpusParse(file, line, 'field "index" is missing');
  if (typeof text !== 'string' || !text.trim()) throw errors.corpusParse(file, line, 'field "text" is missing or empty');
  if (answer !== 'Yes' && answer !== 'No') throw errors.corpusParse(file, line, `field "answer" must be "Yes" or "No", got ${JSON.stringify(answer)}`);
  const meta: Record<string, unknown> = { index: String(index), task, split };
  for (const [k, v] of Object.entries(row)) if (!['index', 'text', 'answer'].includes(k)) meta[k] = v;
  return { id: `${task}-${split}-${index}`, text, label: answer, meta };
}

/** An item's text as two are compared (a twin under another answer here, a few-shot example that is an item in ACAL): case and runs of white space aside. */
export const itemTextKey = (text: string): string => text.trim().replace(/\s+/g, ' ').toLowerCase();

export async function loadLegalBenchTask(task: string, opts: LoadLegalBenchOptions = {}): Promise<TaskExample[]> {
  const split = opts.split ?? 'test';
  const file = resolveLegalBenchFile(task, opts);
  const out: { ex: TaskExample; line: number }[] = [];
  if (file.endsWith('.tsv')) {
    for (const { line, row } of await readLegalBenchTsv(file)) out.push({ ex: toExample(task, split, row, file, line), line });
  } else {
    for await (const { text, line } of readLines(file)) {
      if (!text.trim()) continue;
      let row: unknown;
      try {
        row = JSON.parse(text);
      } catch (e) {
        throw errors.corpusParse(file, line, `invalid JSON: ${(e as Error).message}`, e);
      }
      if (!row || typeof row !== 'object') throw errors.corpusParse(file, line, 'expected a JSON object');
      out.push({ ex: toExample(task, split, row as Record<string, unknown>, file, line), line });
    }
  }
  const seen = new Map<string, number>();
  // the same text (up to case and white space) under two answers: whatever a model answers, one of the two is wrong
  const byText = new Map<string, { ex: TaskExample; line: number }>();
  for (const { ex, line } of out) {
    const first = seen.get(ex.id);
    if (first !== undefined) throw errors.corpusParse(file, line, `duplicate index "${ex.meta?.index}" (first on line ${first})`);
    seen.set(ex.id, line);
    const key = itemTextKey(ex.text);
    const twin = byText.get(key);
    if (twin && twin.ex.label !== ex.label)
      throw errors.corpusParse(
        file,
        line,
        `field "text" is the text of line ${twin.line} (index "${twin.ex.meta?.index}", answer "${twin.ex.label}") with answer "${ex.label}": no answer to that text can be right for both; correct the label of one, or remove one`,
      );
    if (!twin) byText.set(key, { ex, line });
  }
  return out.map((o) => o.ex);
}
