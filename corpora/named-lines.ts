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

/**
 * The fields of a TREC run or qrels line, split as trec_eval splits them (get_trec_results.c,
 * get_qrels.c: C isspace in the C locale): on ASCII whitespace only — space, tab, \n, \v, \f, \r.
 * A no-break space (U+00A0), an ideographic space (U+3000) or another Unicode space stays inside
 * its field, as trec_eval keeps it. JavaScript's \s splits on those too, which cut a docid such as
 * "d\u00a0x" in two and shifted the rank column into the score: the run was ranked on other scores
 * than trec_eval ranks it on (MRR 0.5000 where trec_eval gives 0.3333), with no error.
 */
export const trecFields = (text: string): string[] => text.split(/[ \t\n\v\f\r]+/).filter((f) => f !== '');
