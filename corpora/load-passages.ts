/**
 * Load passages from a file of any size, by format: JSONL, CSV, TSV (each optionally .gz) or
 * Parquet. The format comes from `format` or the file extension. A directory is accepted when it
 * holds one of passages.{jsonl,jsonl.gz,csv,tsv,parquet} (the Bar Exam QA / lexcase data layout).
 */
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { errors } from '../core/errors.js';
import { loadJsonlPassages, type PassageLoadOptions } from './jsonl.js';
import type { Passage } from './types.js';
import { PASSAGE_FORMATS, type PassageFormat } from './passage-formats.js';

export { PASSAGE_FORMATS, type PassageFormat };

export interface FileLoadOptions extends PassageLoadOptions {
  format?: PassageFormat;
  /** CSV delimiter override. */
  delimiter?: string;
}

export function formatFromPath(file: string): PassageFormat | undefined {
  const f = file.toLowerCase().replace(/\.gz$/, '');
  if (f.endsWith('.jsonl') || f.endsWith('.ndjson') || f.endsWith('.json')) return 'jsonl';
  if (f.endsWith('.csv')) return 'csv';
  if (f.endsWith('.tsv') || f.endsWith('.tab')) return 'tsv';
  if (f.endsWith('.parquet') || f.endsWith('.pq')) return 'parquet';
  return undefined;
}

async function kind(path: string): Promise<'file' | 'dir' | undefined> {
  try {
    const s = await stat(path);
    return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : undefined;
  } catch {
    return undefined;
  }
}

const FOLDER_FILES = ['passages.jsonl', 'passages.jsonl.gz', 'passages.csv', 'passages.tsv', 'passages.parquet'];

/**
 * Resolve a directory to its passages file; undefined when there is none. A folder holding more than
 * one (passages.jsonl and passages.csv) is refused naming them: they are not merged, and picking one
 * would drop the others' rows silently.
 */
export async function resolvePassageFile(path: string): Promise<string | undefined> {
  const k = await kind(path);
  if (k === 'file') return path;
  if (k !== 'dir') return undefined;
  const found: string[] = [];
  for (const name of FOLDER_FILES) if ((await kind(join(path, name))) === 'file') found.push(name);
  if (found.length > 1) throw errors.corpusFolderAmbiguous(path, found);
  return found.length ? join(path, found[0]) : undefined;
}

/** The error for a path `resolvePassageFile` found nothing at: a folder without a passages file says so; anything else is CORPUS_NOT_FOUND. */
export async function noPassageFile(path: string, known: string[] = []): Promise<Error> {
  return (await kind(path)) === 'dir' ? errors.corpusFolderEmpty(path, FOLDER_FILES) : errors.corpusNotFound(path, known);
}

export async function* loadPassageFile(path: string, opts: FileLoadOptions = {}): AsyncGenerator<Passage> {
  const file = await resolvePassageFile(path);
  if (!file) throw await noPassageFile(path);
  const format = opts.format ?? formatFromPath(file);
  if (!format) {
    throw errors.usage(`cannot tell the format of ${file} from its extension`, `pass --format ${PASSAGE_FORMATS.join('|')}`);
  }
  // the CSV and Parquet readers are loaded for their formats only: a JSONL corpus starts without them
  if (format === 'jsonl') yield* loadJsonlPassages(file, opts);
  else if (format === 'parquet') yield* (await import('./parquet.js')).loadParquetPassages(file, opts);
  else yield* (await import('./csv.js')).loadCsvPassages(file, { ...opts, delimiter: opts.delimiter ?? (format === 'tsv' ? '\t' : ',') });
}
