/**
 * Files a user brings, for the CLI process tests: passages (the Bar Exam QA gold passages plus part
 * of the bundled public-domain legal corpus, so Bar Exam QA retrieval has its gold in the index),
 * topics (the val questions) and TREC qrels (their gold passages). Written from the bundled data;
 * sharedUserIndex builds their index once per slow-tier run for the files that read the same one.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPassages, loadQuestions } from '../../corpora/registry.js';
import { sharedOnce } from '../support/shared-once.js';
import { lexcase } from '../support/spawn-cli.js';

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

export interface UserIndex {
  files: UserFiles;
  /** `lexcase -q index build <files.passages> --out <idx>`, built by the built CLI. */
  idx: string;
}

async function buildUserIndex(dir: string, extra: number): Promise<UserIndex> {
  const files = await writeUserFiles(join(dir, 'mine'), { extra });
  const idx = join(dir, 'idx');
  const b = await lexcase(['-q', 'index', 'build', files.passages, '--out', idx]);
  if (b.code !== 0) throw new Error(b.stderr);
  return { files, idx };
}

/**
 * The user files and their index (`lexcase -q index build` with the built CLI), built once per run
 * of the slow tier for each `extra` and shared read-only by the CLI test files that use the same
 * input and flags (run, eval, paper-schemas, reproduce): the first caller builds it in the run's shared dir
 * (tests/support/shared-once.ts) under a lock dir, the others wait and reuse it. Outside a run
 * of the slow tier (no shared dir) it is built in `own`. A file whose point is the build builds its own.
 */
export async function sharedUserIndex(own: string, o: { extra: number }): Promise<UserIndex> {
  return (await sharedOnce(`cli-user-index-${o.extra}`, (dir) => buildUserIndex(dir, o.extra))) ?? buildUserIndex(own, o.extra);
}
