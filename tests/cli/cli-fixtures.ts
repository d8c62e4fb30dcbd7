/**
 * Files a user brings, for the CLI process tests: passages (the Bar Exam QA gold passages plus part
 * of the bundled public-domain legal corpus, so Bar Exam QA retrieval has its gold in the index),
 * topics (the val questions) and TREC qrels (their gold passages). Written from the bundled data.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPassages, loadQuestions } from '../../corpora/registry.js';

export interface UserFiles {
  passages: string;
  topics: string;
  qrels: string;
  /** val question ids, in split order. */
  valIds: string[];
}

export async function writeUserFiles(dir: string, o: { extra?: number } = {}): Promise<UserFiles> {
  mkdirSync(dir, { recursive: true });
  const rows: string[] = [];
  for await (const p of loadPassages('barexam')) rows.push(JSON.stringify({ id: p.id, text: p.text }));
  let n = 0;
  for await (const p of loadPassages('legal_corpus')) {
    if (n++ >= (o.extra ?? 300)) break;
    rows.push(JSON.stringify({ id: p.id, text: p.text }));
  }
  const passages = join(dir, 'passages.jsonl');
  writeFileSync(passages, rows.join('\n') + '\n');
  const val = await loadQuestions('barexam', 'val');
  const topics = join(dir, 'queries.tsv');
  writeFileSync(topics, val.map((q) => `${q.id}\t${`${q.prompt ?? ''} ${q.question}`.replace(/\s+/g, ' ').trim()}`).join('\n') + '\n');
  const qrels = join(dir, 'qrels.txt');
  writeFileSync(qrels, val.flatMap((q) => q.goldPassageIds.map((g) => `${q.id} 0 ${g} 1`)).join('\n') + '\n');
  return { passages, topics, qrels, valIds: val.map((q) => q.id) };
}
