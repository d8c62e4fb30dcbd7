/**
 * Lines of a user-supplied file (topics, qrels, TREC run), with a "not found" error that names what
 * the file was meant to be ("qrels file not found: x.txt") rather than calling it a corpus.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { errors } from '../core/errors.js';
import { readLines, type Line } from './read-lines.js';

export async function* readNamedLines(what: string, file: string): AsyncGenerator<Line> {
  const s = await stat(file).catch(() => undefined);
  if (!s) throw errors.fileNotFound(what, file);
  if (!s.isFile()) throw errors.notAFile(what, file, s.isDirectory() ? 'a directory' : 'not a regular file');
  yield* readLines(file);
}

/**
 * A run's or qrels' line whose bytes are not all UTF-8, refused naming file:line: read as U+FFFD, ids that
 * differ only there ("d\xff", "d\xfe") were one id — a run's document matched another's judgement, which
 * trec_eval, comparing bytes, keeps apart.
 */
export function refuseInvalidUtf8(file: string, l: Line): void {
  if (l.invalidUtf8)
    throw errors.fileParse(
      file,
      l.line,
      `the line holds bytes that are not UTF-8 (read as U+FFFD: "${l.text.length > 80 ? `${l.text.slice(0, 79)}…` : l.text}"), so ids that differ only in them would read as one`,
      `convert the file to UTF-8 (e.g. iconv -f latin1 -t utf-8 ${basename(file)} > utf8-${basename(file)}), as the collection's ids are written`,
    );
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
