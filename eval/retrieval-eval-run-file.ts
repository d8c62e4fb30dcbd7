/**
 * TREC run and qrels files, the lingua franca of IR tools (trec_eval, ir_measures, Pyserini):
 *   run:   <qid> Q0 <docid> <rank> <score> <tag>
 *   qrels: <qid> 0 <docid> 1
 * Ids must not contain whitespace (the format is whitespace-separated).
 */
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { processAlive } from '../core/owned-dir.js';
import { createGzip, gzipSync } from 'node:zlib';
import { errors } from '../core/errors.js';
import { COMMENT_QID } from '../corpora/topics.js';
import type { Hit } from '../retrieval/types.js';
import type { Question } from '../corpora/types.js';
import { writeAtomic } from './run-dir.js';
import { trecOrder } from './trec/order.js';
import { runDocsOfHits } from './trec/run.js';
import { scoreText } from '../retrieval/top-k.js';

/** `where`: the topic and file the id was to be written to, so the error names them. */
function checkId(kind: string, id: string, where = ''): string {
  if (/\s/.test(id) || id === '')
    throw errors.invalidInput(kind, `"${id}"${where} is empty or contains whitespace; TREC files are whitespace-separated, so it would read as other fields`);
  return id;
}

/** A qid begins its run and qrels lines: one starting with "#" would make them comments (corpora/topics.ts). */
function checkQid(id: string): string {
  checkId('query id', id);
  if (id.startsWith('#')) throw errors.invalidInput('query id', `"${id}" starts with "#": ${COMMENT_QID}`);
  return id;
}

/**
 * One topic's lines, in the order trec_eval ranks them and with that rank in the rank column: the
 * scores are written with 6 decimals (`digits`, a hybrid's Retriever.scoreDigits: that many
 * significant digits where 6 decimals keep fewer; retrieval/top-k.ts scoreText), rounding can tie
 * two hits the retriever told apart, and
 * trec_eval breaks a tie by docid (eval/trec/order.ts). Writing the retriever's own rank there gave a
 * column that disagreed with every figure computed from the file (rank 26 for what `eval run` and the
 * report count as rank 25); now line i has rank i, as the file is evaluated.
 */
export function trecRunLines(qid: string, hits: readonly Hit[], tag: string, file?: string, digits?: number): string {
  checkQid(qid);
  checkId('run tag', tag);
  // a passage id, or with --aggregate a document id (the index's doc_id field or --doc-id-pattern)
  for (const h of hits) checkId('docid', h.id, ` (topic "${qid}"${file ? `, run file ${file}` : ''})`);
  return trecOrder(runDocsOfHits(hits, digits))
    .map((d, i) => `${qid} Q0 ${d.docid} ${i + 1} ${scoreText(d.score, digits)} ${tag}\n`)
    .join('');
}

export function trecQrelsLines(questions: readonly Question[]): string {
  return questions.flatMap((q) => q.goldPassageIds.map((g) => `${checkQid(q.id)} 0 ${checkId('passage id', g)} 1\n`)).join('');
}

/** A TREC file named `*.gz` is written gzipped, as every reader here (and trec_eval users' tools) reads it. */
export const isGzName = (file: string): boolean => file.endsWith('.gz');

/** The temp name a TREC file is written under before it is renamed into place. */
const tempName = (file: string): string => `${file}.tmp-${process.pid}`;

/** Remove `<file>.tmp-<pid>` files a killed writer of `file` left (its process gone). */
async function removeStaleTemps(file: string): Promise<void> {
  const prefix = `${basename(file)}.tmp-`;
  const names = await readdir(dirname(file)).catch(() => [] as string[]);
  for (const name of names) {
    const pid = name.startsWith(prefix) ? Number(name.slice(prefix.length)) : NaN;
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !processAlive(pid)) await rm(join(dirname(file), name), { force: true });
  }
}

/** Write a whole TREC file (the qrels), gzipped when its name ends in .gz: a temp file renamed into place, so a reader never sees part of it. */
export async function writeTrecFile(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await removeStaleTemps(file);
  await writeAtomic(file, isGzName(file) ? gzipSync(text) : text);
}

/**
 * A streaming run-file writer: `add(qid, hits)` per query, then `close()`. The file is opened with
 * fs/promises, so a path that cannot be written (a directory, a file in the way) rejects the first
 * `add` / `close` with OUT_FILE_REFUSED instead of an unhandled stream 'error' event; a later write
 * error rejects the next call. A name ending in .gz is written gzipped (before, it was plain text
 * under a .gz name, which `eval run` then failed to read: "incorrect header check").
 *
 * The lines go to `<file>.tmp-<pid>`, renamed to `file` by `close()` once every topic is written;
 * `discard()` (a search stopped by an error or a signal) removes it, and the next writer of `file`
 * removes one a killed process left. Before, the file was written in
 * place: `eval retrieval --run-file F` killed midway left F with the topics searched so far (990 of
 * 1,195, ending on a whole line), which `eval run F` and trec_eval evaluate as a run of those
 * topics, exit 0, and an earlier complete F was gone.
 */
export class TrecRunWriter {
  private out?: Writable;
  private readonly tmp: string;
  private file$?: Writable;
  private failed?: Error;
  /** The id `add` refused (trecRunLines); with nothing written yet, `close` makes no file and rejects with it. */
  private refused?: Error;
  constructor(
    readonly file: string,
    readonly tag: string,
    /** The retriever's scoreDigits (hybrid): significant digits its scores keep (trecRunLines). */
    readonly digits?: number,
  ) {
    checkId('run tag', tag);
    this.tmp = tempName(file);
  }
  private async stream(): Promise<Writable> {
    if (this.failed) throw this.failed;
    if (this.out) return this.out;
    try {
      await mkdir(dirname(this.file), { recursive: true });
      if ((await stat(this.file).catch(() => undefined))?.isDirectory()) throw Object.assign(new Error(`${this.file} is a directory`), { code: 'EISDIR' });
      await removeStaleTemps(this.file);
      const handle = await open(this.tmp, 'w');
      this.file$ = handle.createWriteStream();
      this.out = this.file$;
      if (isGzName(this.file)) {
        const gz = createGzip();
        gz.pipe(this.file$);
        gz.on('error', (e) => (this.failed = e));
        this.out = gz;
      }
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      const why =
        err.code === 'EISDIR'
          ? 'is a directory; give a file path'
          : err.code === 'EEXIST' || err.code === 'ENOTDIR'
            ? 'a file stands where a folder of its path should be'
            : err.message;
      throw (this.failed = errors.outFileRefused('run file', this.file, why));
    }
    this.file$!.on('error', (e) => (this.failed = e));
    return this.out!;
  }
  async add(qid: string, hits: readonly Hit[]): Promise<void> {
    // the lines first: an id the format cannot hold is refused before the file is created
    let text: string;
    try {
      text = trecRunLines(qid, hits, this.tag, this.file, this.digits);
    } catch (e) {
      throw (this.refused ??= e as Error);
    }
    const out = await this.stream();
    if (!out.write(text)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  /** Finish the file: every line written, then renamed from its temp name into place (a failed write removes the temp file). */
  async close(): Promise<void> {
    // refused before a line was written: no empty run file is left to be evaluated
    if (this.refused && !this.out) throw this.refused;
    const out = await this.stream();
    await this.end(out).catch((e: Error) => (this.failed ??= e));
    if (this.failed) {
      await rm(this.tmp, { force: true });
      throw this.failed;
    }
    await rename(this.tmp, this.file);
  }
  /** Stop without a file: the temp file is removed and `file` (an earlier run file there) is left as it was. */
  async discard(): Promise<void> {
    if (this.out) await this.end(this.out).catch(() => undefined);
    this.failed ??= new Error('run file discarded');
    await rm(this.tmp, { force: true });
  }
  private async end(out: Writable): Promise<void> {
    await new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res())));
    // gzipped: the file is complete when the gzip stream's last bytes are flushed into it
    if (this.file$ !== out) await finished(this.file$!);
  }
}
