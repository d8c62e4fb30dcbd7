/**
 * TREC run and qrels files, the lingua franca of IR tools (trec_eval, ir_measures, Pyserini):
 *   run:   <qid> Q0 <docid> <rank> <score> <tag>
 *   qrels: <qid> 0 <docid> 1
 * Ids must not contain whitespace (the format is whitespace-separated).
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { errors } from '../core/errors.js';
import type { Hit } from '../retrieval/types.js';
import type { Question } from '../corpora/types.js';

function checkId(kind: string, id: string): string {
  if (/\s/.test(id) || id === '') throw errors.invalidInput(kind, `"${id}" is empty or contains whitespace; TREC files are whitespace-separated`);
  return id;
}

export function trecRunLines(qid: string, hits: readonly Hit[], tag: string): string {
  checkId('query id', qid);
  checkId('run tag', tag);
  return hits.map((h) => `${qid} Q0 ${checkId('passage id', h.id)} ${h.rank} ${Number.isFinite(h.score) ? h.score.toFixed(6) : h.score} ${tag}\n`).join('');
}

export function trecQrelsLines(questions: readonly Question[]): string {
  return questions.flatMap((q) => q.goldPassageIds.map((g) => `${checkId('query id', q.id)} 0 ${checkId('passage id', g)} 1\n`)).join('');
}

/** A streaming run-file writer: `add(qid, hits)` per query, then `close()`. */
export class TrecRunWriter {
  private out?: WriteStream;
  constructor(
    readonly file: string,
    readonly tag: string,
  ) {
    checkId('run tag', tag);
  }
  async add(qid: string, hits: readonly Hit[]): Promise<void> {
    if (!this.out) {
      await mkdir(dirname(this.file), { recursive: true });
      this.out = createWriteStream(this.file);
    }
    const text = trecRunLines(qid, hits, this.tag);
    const out = this.out;
    if (!out.write(text)) await new Promise<void>((r) => out.once('drain', () => r()));
  }
  async close(): Promise<void> {
    if (!this.out) {
      await mkdir(dirname(this.file), { recursive: true });
      this.out = createWriteStream(this.file);
    }
    const out = this.out;
    await new Promise<void>((res, rej) => out.end((e?: Error | null) => (e ? rej(e) : res())));
  }
}
