/**
 * RM3 topics that gained no feedback term, as a user meets them: the built `lexcase` in a child
 * process over a 34-passage corpus (tests/support/rm3-filler-corpus.ts) in which four "filler" passages hold only terms in more than 10 %
 * of the documents (Anserini's rule keeps no such term). Before, `search --topics --rm3` and
 * `eval retrieval --topics --rm3` gave the topic that found only them the bm25 figures with no word,
 * exit 0; now the batch (on 2 threads), its --json summary, the evaluation's report and one query's
 * search each say it, and a topic that gained terms is not named.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, lexcase } from '../support/spawn-cli.js';
import { FILLER_TOPICS, fillerJsonl } from '../support/rm3-filler-corpus.js';

let dir: string;
const NOTE = /1 of 3 topics gained no RM3 feedback term \(e\.g\. t-filler\): every term of the feedback documents is in more than 10% of the documents/;

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-cli-rm3-nofb-'));
  writeFileSync(join(dir, 'p.jsonl'), fillerJsonl());
  writeFileSync(join(dir, 't.tsv'), FILLER_TOPICS.map((t) => `${t.id}\t${t.text}\n`).join(''));
  writeFileSync(join(dir, 'q.txt'), 't-uniq 0 p03 1\nt-filler 0 f0 1\nt-shared 0 p00 1\n');
  const b = await lexcase(['-q', 'index', 'build', 'p.jsonl', '--out', 'idx'], { cwd: dir });
  expect(b.code, b.stderr).toBe(0);
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lexcase --rm3 on topics that gain no feedback term', () => {
  it('search --topics --rm3 --threads 2: said on stderr and in the --json summary; plain bm25 says nothing', async () => {
    const r = await lexcase(['--json', 'search', '--topics', 't.tsv', '--index', 'idx', '--rm3', '--threads', '2', '--run-file', 'r.run'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.threads).toBe(2);
    expect(j.rm3NoFeedback).toMatch(NOTE);
    expect(r.stderr).toMatch(new RegExp(`search bm25\\+rm3: ${NOTE.source}`));
    const plain = await lexcase(['--json', 'search', '--topics', 't.tsv', '--index', 'idx', '--threads', '2', '--run-file', 'b.run'], { cwd: dir });
    expect(plain.code, plain.stderr).toBe(0);
    expect(JSON.parse(plain.stdout).rm3NoFeedback).toBeUndefined();
    expect(plain.stderr).not.toMatch(/RM3 feedback/);
  });

  it('eval retrieval --topics --rm3: a warning in the report (text and JSON)', async () => {
    const r = await lexcase(['eval', 'retrieval', '--index', 'idx', '--topics', 't.tsv', '--qrels', 'q.txt', '--rm3', '--out', 'e.json'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`\\*\\*Warning:\\*\\* bm25\\+rm3: ${NOTE.source}`));
    expect(JSON.stringify(JSON.parse(readFileSync(join(dir, 'e.json'), 'utf8')))).toMatch(NOTE);
  });

  it('search one query --rm3: said on stderr and in --json (rm3NoFeedback)', async () => {
    const r = await lexcase(['--json', 'search', 'filler', '--index', 'idx', '--rm3', '-k', '3'], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).rm3NoFeedback).toMatch(/^the query gained no RM3 feedback term: /);
    expect(r.stderr).toMatch(/search bm25\+rm3: the query gained no RM3 feedback term/);
    const gained = await lexcase(['--json', 'search', 'shared even', '--index', 'idx', '--rm3', '-k', '3'], { cwd: dir });
    expect(JSON.parse(gained.stdout).rm3NoFeedback).toBeUndefined();
  });
});
