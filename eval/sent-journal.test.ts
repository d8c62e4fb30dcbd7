/**
 * The request journal (eval/sent-journal.ts) costs one append per request sent: its dir is made when the
 * append finds it missing, not before every append (before: a mkdir and an append per request). No
 * request goes unrecorded: each is a line on disk when noteSentRequest returns (a kill right after keeps
 * it), also after the dir was removed between two requests (a signal's handler, the end of a run).
 */
import fs, { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { dropSentJournals, killedAttempts, noteSentRequest, SENT_DIR } from './sent-journal.js';

// every mkdirSync of the process counted: node:fs's own function replaced, and its ESM exports (what
// sent-journal.ts imports) made to follow (node:module syncBuiltinESMExports), put back after each test
const realMkdir = fs.mkdirSync;
const made: string[] = [];
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-sent-journal-'));
  made.length = 0;
  fs.mkdirSync = ((path: fs.PathLike, o?: fs.MakeDirectoryOptions) => {
    made.push(String(path));
    return realMkdir(path, o);
  }) as typeof fs.mkdirSync;
  syncBuiltinESMExports();
});
afterEach(() => {
  fs.mkdirSync = realMkdir;
  syncBuiltinESMExports();
  rmSync(dir, { recursive: true, force: true });
});

const lines = (id: string) =>
  readFileSync(join(dir, SENT_DIR, `${id}.sent`), 'utf8')
    .split('\n')
    .filter(Boolean).length;

it('makes its dir once for a run of requests, not once per request, and every request is a line on disk at once', () => {
  for (let i = 0; i < 5; i++) {
    noteSentRequest(dir, 'a');
    expect(lines('a')).toBe(i + 1);
  }
  noteSentRequest(dir, 'b');
  expect(made).toEqual([join(dir, SENT_DIR)]); // before: 6 mkdirs
  expect(killedAttempts(dir)).toMatchObject({ items: 2, requests: 6 });
});

it('makes it again when it was removed between two requests: the request is still recorded', () => {
  noteSentRequest(dir, 'a');
  dropSentJournals(dir);
  noteSentRequest(dir, 'a');
  expect(lines('a')).toBe(1);
  expect(made).toHaveLength(2);
});
