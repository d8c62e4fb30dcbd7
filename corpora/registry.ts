/**
 * Bundled corpora and question datasets (files under corpora/data/, shipped with the package), and
 * the two entry points everything else uses: `loadPassages(nameOrPath)` and
 * `loadQuestions(dataset, split)`. The product reads only its own bundled copies (corpora/data) at run time.
 *
 * Corpora:   barexam (1,149 gold passages) · legal_corpus (4,993 public-domain passages) ·
 *            default (= barexam + legal_corpus, 6,142 passages; the demo's corpus)
 * Datasets:  barexam (1,195 MBE questions, one gold passage each) · mmlu_pro_law (1,101 questions)
 */
import { createHash } from 'node:crypto';
import { lstat } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import { errors } from '../core/errors.js';
import { PACKAGE_ROOT } from '../core/version.js';
import { openBytes, assertReadableFile } from './read-lines.js';
import { loadJsonlPassages, readJsonl } from './jsonl.js';
import { loadPassageFile, noPassageFile, resolvePassageFile, type FileLoadOptions } from './load-passages.js';
import { CORPORA, DATA_DIR, DATASETS, corpusNames, datasetNames, isBundledCorpus, type DatasetInfo } from './catalog.js';
import { DEFAULT_SPLIT_SEED, selectSplit, splitSizes } from './splits.js';
import { formatFromPath } from './load-passages.js';
import { jsonMemberText } from './json-member-text.js';
import { rawNumberIdProblem } from './passage-rules.js';
import type { Passage, Question, Split } from './types.js';

export { CORPORA, DATA_DIR, DATASETS, corpusNames, datasetNames, isBundledCorpus, type CorpusInfo, type DatasetInfo } from './catalog.js';

export interface LoadPassagesOptions extends FileLoadOptions {
  onProgress?: (passagesDone: number) => void;
}

/**
 * For a corpus argument a user typed (`lexcase index build barexam`): a bundled corpus name that is
 * also a file or folder in the current directory is refused (USAGE, saying both exist and how to
 * choose: ./barexam for the folder), rather than either being picked silently.
 */
export async function assertBundledNameUnshadowed(nameOrPath: string): Promise<void> {
  if (isBundledCorpus(nameOrPath) && (await lstat(nameOrPath).catch(() => undefined))) throw errors.corpusNameShadowed(nameOrPath);
}

/**
 * Stream passages from a bundled corpus name or from a path (JSONL/CSV/TSV/Parquet, or a folder with
 * passages.*). Unknown name that is not a file either → CORPUS_NOT_FOUND listing the bundled names.
 * A bundled name always means the bundled corpus here (the product's own loads: the default index,
 * the demo); `lexcase index build` refuses one that is also a path (assertBundledNameUnshadowed).
 */
export async function* loadPassages(nameOrPath: string, opts: LoadPassagesOptions = {}): AsyncGenerator<Passage> {
  let n = 0;
  const tick = (p: Passage) => {
    n++;
    if (opts.onProgress && n % 1000 === 0) opts.onProgress(n);
    return p;
  };
  if (isBundledCorpus(nameOrPath)) {
    for (const part of CORPORA[nameOrPath].parts) {
      for await (const p of loadJsonlPassages(join(DATA_DIR, part.file), { source: part.source })) yield tick(p);
    }
  } else {
    if (!(await resolvePassageFile(nameOrPath))) throw await noPassageFile(nameOrPath, corpusNames());
    for await (const p of loadPassageFile(nameOrPath, opts)) yield tick(p);
  }
  opts.onProgress?.(n);
}

export interface LoadQuestionsOptions {
  /** Split seed (default 13). */
  seed?: number;
  /** Read the dataset's records from this file (JSONL or CSV, same format) instead of the bundled copy. */
  file?: string;
}

function datasetInfo(name: string): DatasetInfo {
  if (!Object.hasOwn(DATASETS, name)) throw errors.datasetUnknown(name, datasetNames());
  return DATASETS[name];
}

async function* readRecords(file: string): AsyncGenerator<{ line: number; value: unknown; text?: string }> {
  const fmt = formatFromPath(file);
  if (fmt === 'csv' || fmt === 'tsv') {
    for await (const { line, row } of (await import('./csv.js')).readCsvRows(file)) yield { line, value: row };
  } else yield* readJsonl(file);
}

/**
 * A JSONL record's id fields that are JSON numbers must keep the text the file holds, as a passage id
 * and a qid must (passage-rules.ts): `"gold_idx": 12345678901234567890` read as 12345678901234567000
 * named no passage, and the question counted as a miss "not in this index".
 */
function numericIdCheck(info: DatasetInfo, value: unknown, file: string, line: number, text: string): void {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return;
  for (const field of info.idFields) {
    const v = (value as Record<string, unknown>)[field];
    if (typeof v !== 'number') continue;
    const raw = jsonMemberText(text, field);
    const bad = raw === undefined ? undefined : rawNumberIdProblem(v, raw);
    if (bad) throw errors.corpusParse(file, line, `field "${field}" ${bad}`);
  }
}

/** Questions of a dataset split (seeded; see corpora/splits.ts). */
export async function loadQuestions(dataset: string, split: Split = 'all', opts: LoadQuestionsOptions = {}): Promise<Question[]> {
  const info = datasetInfo(dataset);
  const file = opts.file ?? join(DATA_DIR, info.file);
  await assertReadableFile(file);
  const all: Question[] = [];
  const seen = new Map<string, number>();
  for await (const { line, value, text } of readRecords(file)) {
    if (text !== undefined) numericIdCheck(info, value, file, line, text);
    const q = info.parse(value, file, line);
    if (seen.has(q.id)) throw errors.corpusParse(file, line, `duplicate question id "${q.id}" (first on line ${seen.get(q.id)})`);
    seen.set(q.id, line);
    all.push(q);
  }
  const selected = selectSplit(all, split, opts.seed ?? DEFAULT_SPLIT_SEED);
  if (selected.length === 0) throw emptySplit(dataset, file, split, all.length);
  return selected;
}

/** An empty dataset or split is an error (an evaluation over 0 questions would print a table of zeros). */
function emptySplit(dataset: string, file: string, split: Split, total: number) {
  if (total === 0) return errors.nothingToEvaluate(`${file}: dataset "${dataset}" has no questions`);
  const s = splitSizes(total);
  return errors.nothingToEvaluate(
    `${file}: split "${split}" of dataset "${dataset}" is empty (${total} questions: train ${s.train} / val ${s.val} / test ${s.test})`,
    'use --split all (every question), or a split that has questions',
  );
}

/** The first `limit` questions of a split (all when undefined); a non-positive or fractional limit is an error. */
export async function loadQuestionsLimited(dataset: string, split: Split, opts: LoadQuestionsOptions & { limit?: number } = {}): Promise<Question[]> {
  return firstItems(await loadQuestions(dataset, split, opts), opts.limit);
}

/**
 * The first `limit` items (all of them without one), as `--limit N` takes them; a limit that is not a
 * positive integer is refused as the CLI refuses it: `slice` read -1 as "all but the last" and 2.5 as 2.
 */
export function firstItems<T>(items: T[], limit: number | undefined): T[] {
  if (limit === undefined) return items;
  if (!Number.isInteger(limit) || limit < 1) throw errors.invalidInput('limit', `must be a positive integer, got ${limit}`);
  return items.slice(0, limit);
}

/**
 * The dataset part of a default run dir's name: the dataset, and with a user's file (`--dataset-file`)
 * also the file's name without its extensions ("barexam-mine" for mine.jsonl.gz), so a run over a
 * user's questions does not take the bundled run's dir (a resume there is refused by the checksum).
 */
export function datasetRunLabel(dataset: string, file?: string): string {
  if (file === undefined) return dataset;
  const stem = basename(file)
    .replace(/(\.(jsonl|json|csv|tsv|gz))+$/i, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .slice(0, 60);
  return stem ? `${dataset}-${stem}` : dataset;
}

/** sha256 (hex) of a file's content, decompressed when it is .gz (so it matches the plain JSONL). */
export async function fileChecksum(file: string): Promise<string> {
  await assertReadableFile(file);
  const h = createHash('sha256');
  for await (const chunk of openBytes(file)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/** Data files behind a bundled dataset or corpus name (absolute paths). */
export function dataFiles(name: string): string[] {
  if (Object.hasOwn(DATASETS, name)) return [join(DATA_DIR, DATASETS[name].file)];
  if (isBundledCorpus(name)) return CORPORA[name].parts.map((p) => join(DATA_DIR, p.file));
  throw errors.datasetUnknown(name, [...new Set([...datasetNames(), ...corpusNames()])]);
}

/**
 * Checksum recorded by experiments: for one data file, the sha256 of its (decompressed) content;
 * for several, the sha256 of "<sha256>  <file name>\n" lines in order. A path is checksummed as is.
 */
export async function datasetChecksum(nameOrFile: string): Promise<string> {
  const files = Object.hasOwn(DATASETS, nameOrFile) || isBundledCorpus(nameOrFile) ? dataFiles(nameOrFile) : [nameOrFile];
  const sums = await Promise.all(files.map(fileChecksum));
  if (sums.length === 1) return sums[0];
  const h = createHash('sha256');
  files.forEach((f, i) => h.update(`${sums[i]}  ${f.slice(DATA_DIR.length + 1)}\n`));
  return h.digest('hex');
}

/**
 * The file a dataset's questions were read from, as config.json's `dataFiles.<split>` records it
 * (the pattern of corpora/legalbench.ts `legalBenchFileRecord`): the dataset and split, where it was
 * found (`bundled`, or `file` for LoadQuestionsOptions.file), its path (relative to the package for
 * the bundled copy) and the sha256 of its content, decompressed when .gz (corpora/data/SHA256SUMS's).
 * CASE and MAD runs recorded the Bar Exam QA questions only by their item checksums before.
 */
export interface DatasetFileRecord {
  dataset: string;
  split: string;
  source: 'bundled' | 'file';
  file: string;
  sha256: string;
}

export async function datasetFileRecord(dataset: string, split: Split, opts: Pick<LoadQuestionsOptions, 'file'> = {}): Promise<DatasetFileRecord> {
  const info = datasetInfo(dataset);
  const file = opts.file ?? join(DATA_DIR, info.file);
  const source = opts.file ? 'file' : 'bundled';
  return {
    dataset,
    split,
    source,
    file: source === 'bundled' ? relative(PACKAGE_ROOT, file).split(sep).join('/') : resolve(file),
    sha256: await fileChecksum(file),
  };
}
