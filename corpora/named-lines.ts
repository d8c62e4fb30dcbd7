/**
 * Lines of a user-supplied file (topics, qrels, TREC run), with a "not found" error that names what
 * the file was meant to be ("qrels file not found: x.txt") rather than calling it a corpus.
 */
import { stat } from 'node:fs/promises';
import { errors } from '../core/errors.js';
import { readLines, type Line } from './read-lines.js';

export async function* readNamedLines(what: string, file: string): AsyncGenerator<Line> {
  const s = await stat(file).catch(() => undefined);
  if (!s) throw errors.fileNotFound(what, file);
  if (!s.isFile()) throw errors.notAFile(what, file, s.isDirectory() ? 'a directory' : 'not a regular file');
  yield* readLines(file);
}

/** Blank lines and `#` comment lines (skipped in runs and qrels; trec_eval 10.0 skips `#` lines too, 9.0.8 rejects them). */
export const isSkippable = (text: string): boolean => text.trim() === '' || text.trimStart().startsWith('#');
