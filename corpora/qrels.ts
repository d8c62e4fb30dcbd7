/**
 * TREC qrels: `qid iter docid rel` one judgement a line, whitespace-separated (trec_eval's
 * get_qrels.c): the second column is ignored (0 or Q0 alike), rel is an integer grade — ≥ 1 (or
 * ≥ the relevance level) is relevant, 0 judged non-relevant, negative "in the pool but unjudged"
 * (counted as neither, as trec_eval does). Fields are split on ASCII whitespace, as trec_eval splits
 * them (named-lines.ts, trecFields). Blank and `#` lines are skipped. A line with other than four
 * fields, a non-integer grade, or a second judgement of the same (qid, docid) is an error naming
 * file:line (trec_eval refuses duplicate judgements too).
 */
import { errors } from '../core/errors.js';
import { isSkippable, readNamedLines, refuseInvalidUtf8, trecFields } from './named-lines.js';

/** qid → docid → graded relevance. */
export type Qrels = Map<string, Map<string, number>>;

export function parseQrelsLine(file: string, line: number, text: string): { qid: string; docid: string; rel: number } {
  const f = trecFields(text);
  if (f.length !== 4) throw errors.fileParse(file, line, `expected 4 whitespace-separated fields "qid 0 docid rel", found ${f.length}`);
  const [qid, , docid, relText] = f;
  if (!/^[+-]?\d+$/.test(relText)) throw errors.fileParse(file, line, `relevance "${relText}" is not an integer grade (0 = non-relevant, 1, 2, … = relevant)`);
  return { qid, docid, rel: Number(relText) };
}

export async function loadQrels(file: string): Promise<Qrels> {
  const qrels: Qrels = new Map();
  const lineOf = new Map<string, number>();
  for await (const l of readNamedLines('qrels file', file)) {
    const { line, text } = l;
    refuseInvalidUtf8(file, l);
    if (isSkippable(text)) continue;
    const { qid, docid, rel } = parseQrelsLine(file, line, text);
    let judged = qrels.get(qid);
    if (!judged) qrels.set(qid, (judged = new Map()));
    const key = `${qid}\u0000${docid}`;
    if (judged.has(docid))
      throw errors.fileParse(file, line, `duplicate judgement of document "${docid}" for topic "${qid}" (first on line ${lineOf.get(key)})`);
    judged.set(docid, rel);
    lineOf.set(key, line);
  }
  if (qrels.size === 0) throw errors.fileParse(file, undefined, 'no judgements in the qrels file');
  return qrels;
}

/** Number of documents judged relevant (rel ≥ level) for a topic. */
export function numRelevant(judged: ReadonlyMap<string, number> | undefined, level = 1): number {
  let n = 0;
  if (judged) for (const r of judged.values()) if (r >= level) n++;
  return n;
}
