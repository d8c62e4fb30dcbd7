/**
 * A duplicate passage id in a corpus file is named by the file and the line a user can open, as
 * every other bad-input error is (docs/corpora.md). Before, the index build named the passage's
 * ordinal as if it were the line: a CSV's header put every duplicate one line early (`dup.csv:3`
 * for the repeat on line 4, line 3 holding another passage), blank JSONL lines and multi-line CSV
 * records put it further off, and the message used the corpus name (the file's base name) rather
 * than the path given.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadPassages } from '../corpora/registry.js';
import { buildIndex } from './build.js';
import { tempDir } from './build-test-helpers.js';

const tmp = tempDir('lexcase-dup-line-');
afterAll(() => tmp.cleanup());

const errorOf = (file: string, out: string) =>
  buildIndex(loadPassages(file), { out: join(tmp.dir, out), corpusName: 'mine', workers: 0 }).then(
    () => undefined,
    (e: { code?: string; message: string; details?: { file?: string; line?: number } }) => e,
  );

describe('index build: a duplicate id names the file and line of both passages', () => {
  it('CSV: the header and a record spanning lines do not shift the line named', async () => {
    const f = join(tmp.dir, 'dup.csv');
    // line 1 header; c1 on line 2; c2 on lines 3-4 (a quoted newline); c3 line 5; c1 again on line 6
    writeFileSync(f, 'id,text\nc1,alpha\nc2,"beta\ngamma"\nc3,delta\nc1,epsilon\n');
    const e = await errorOf(f, 'csv-idx');
    expect(e?.code).toBe('DUPLICATE_ID');
    expect(e?.message).toBe(`${f}:6: duplicate passage id "c1" (first seen on line 2)`);
    expect(e).toMatchObject({ details: { file: f, line: 6 } });
  });

  it('JSONL with blank lines: the line of the repeat, not its passage number', async () => {
    const f = join(tmp.dir, 'dup.jsonl');
    const line = (id: string, text: string) => JSON.stringify({ id, text });
    writeFileSync(f, [line('x1', 'alpha'), '', '', line('x2', 'beta'), line('x1', 'gamma')].join('\n') + '\n');
    const e = await errorOf(f, 'jsonl-idx');
    expect(e?.message).toBe(`${f}:5: duplicate passage id "x1" (first seen on line 1)`);
  });

  it('NFC/NFD twins name both lines', async () => {
    const f = join(tmp.dir, 'nfc.jsonl');
    writeFileSync(
      f,
      ['{"id":"p0","text":"a"}', '', JSON.stringify({ id: 'caf\u00e9', text: 'b' }), JSON.stringify({ id: 'cafe\u0301', text: 'c' })].join('\n') + '\n',
    );
    const e = await errorOf(f, 'nfc-idx');
    expect(e?.message).toMatch(
      new RegExp(
        `^${f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4: passage id "cafe\\\\u0301" \\(field "id"\\) is the id "caf\\\\u00e9" of the passage on line 3 in another Unicode form`,
      ),
    );
  });

  it('passages built in code (no file) are still named by their position', async () => {
    const e = await buildIndex(
      [
        { id: 'a', text: 'x' },
        { id: 'a', text: 'y' },
      ],
      { out: join(tmp.dir, 'lib-idx'), corpusName: 'lib', workers: 0 },
    ).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(e?.message).toBe('lib:2: duplicate passage id "a" (first seen as passage #1)');
  });
});
