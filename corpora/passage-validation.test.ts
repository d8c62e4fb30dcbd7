/**
 * Corpora that used to be accepted silently are refused with file and line, in every loader
 * (JSONL, CSV/TSV, Parquet, the library's array input): a number or object as text (it was indexed
 * as "12345" / JSON), no text field or column (empty passages), ids with a newline, tab or NUL (they
 * break run files later), and an empty corpus (it built an empty index and exited 0).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../indexer/build.js';
import { fromArray } from '../indexer/build-test-helpers.js';
import { runCli } from '../tests/support/run-cli.js';
import { indexCorpus } from '../indexer/index-corpus.js';
import { loadPassageFile } from './load-passages.js';
import type { Passage } from './types.js';

async function collect(it: AsyncIterable<Passage>): Promise<Passage[]> {
  const out: Passage[] = [];
  for await (const p of it) out.push(p);
  return out;
}

async function file(name: string, body: string | Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'lexcase-valid-'));
  const f = join(dir, name);
  await writeFile(f, body);
  return f;
}

const jsonl = (...recs: unknown[]) => recs.map((r) => JSON.stringify(r)).join('\n') + '\n';
const ok = { id: 'p1', text: 'An easement by necessity.' };

describe('text must be a string that is there', () => {
  it('JSONL: a number, an object, a list, a missing text field are refused naming file:line and field', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ id: 'p9', text: 12345 }, /bad\.jsonl:2: passage "p9": text \(field "text"\) must be a string, got a number/],
      [{ id: 'p9', text: { en: 'x' } }, /bad\.jsonl:2: passage "p9": text \(field "text"\) must be a string, got an object/],
      [{ id: 'p9', text: ['a', 'b'] }, /bad\.jsonl:2: passage "p9": text \(field "text"\) must be a string, got an array/],
      [
        { id: 'p9', body_text: 'x' },
        /bad\.jsonl:2: passage "p9" has no text \(field "text"\) \(the text field, chosen from the first record \(line 1\)\); set --text-field to one of: id, body_text/,
      ],
      [{ id: 'p9', text: null }, /bad\.jsonl:2: passage "p9" has no text/],
    ];
    for (const [rec, msg] of cases) {
      const f = await file('bad.jsonl', jsonl(ok, rec));
      await expect(collect(loadPassageFile(f))).rejects.toMatchObject({ code: 'CORPUS_PARSE', message: expect.stringMatching(msg) });
    }
    // An empty string is still a passage (indexed with no terms).
    await expect(collect(loadPassageFile(await file('e.jsonl', jsonl(ok, { id: 'p2', text: '' }))))).resolves.toHaveLength(2);
  });

  it('CSV/TSV without a text column is refused at its first row', async () => {
    const f = await file('p.csv', 'id,summary\np1,An easement\n');
    await expect(collect(loadPassageFile(f))).rejects.toThrow(
      /p\.csv:2: passage "p1" has no text \(field "text"\) \(the text field, chosen from the header\); set --text-field to one of: id, summary/,
    );
    const t = await file('p.tsv', 'id\ttext\np1\tAn easement\n');
    await expect(collect(loadPassageFile(t))).resolves.toEqual([{ id: 'p1', text: 'An easement', source: 'p.tsv' }]);
  });

  it('Parquet without a text column is refused before any row, naming the columns', async () => {
    const buf = parquetWriteBuffer({
      columnData: [
        { name: 'id', data: ['p1', 'p2'], type: 'STRING' },
        { name: 'label', data: ['a', 'b'], type: 'STRING' },
      ],
    });
    const f = await file('pool.parquet', Buffer.from(buf));
    await expect(collect(loadPassageFile(f))).rejects.toMatchObject({
      code: 'CORPUS_PARSE',
      message: expect.stringMatching(/pool\.parquet: field "text": no text column .*; set --text-field to one of: id, label/),
    });
  });
});

describe('ids without control characters', () => {
  it('JSONL ids with a newline, tab or NUL are refused naming file:line', async () => {
    for (const [id, shown] of [
      ['p\n1', 'a newline (U+000A)'],
      ['p\t1', 'a tab (U+0009)'],
      ['p\u00001', 'NUL (U+0000)'],
    ]) {
      const f = await file('ids.jsonl', jsonl(ok, { id, text: 'x' }));
      const err = await collect(loadPassageFile(f)).catch((e: Error) => e);
      expect(err).toMatchObject({ code: 'CORPUS_PARSE' });
      expect((err as Error).message).toContain(
        `ids.jsonl:2: passage id ${JSON.stringify(id)} (field "id") contains a control character: ${shown} at position 1`,
      );
    }
  });

  it('a quoted CSV id spanning two lines is refused naming the line the record starts on', async () => {
    const f = await file('ids.csv', 'id,text\np1,fine\n"p\n2",broken\n');
    await expect(collect(loadPassageFile(f))).rejects.toThrow(/ids\.csv:3: passage id "p\\n2" \(field "id"\) contains a control character/);
  });

  it('the library array input obeys the same rules', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-valid-'));
    const out = join(dir, 'idx');
    await expect(buildIndex(fromArray([{ id: 'a\tb', text: 'x', source: 's' }]), { out, corpusName: 'mine', workers: 0 })).rejects.toThrow(
      /mine:1: passage id "a\\tb" contains a control character/,
    );
    const numeric = [ok, { id: 'p9', text: 12345 }] as unknown as Passage[];
    await expect(buildIndex(fromArray(numeric), { out, corpusName: 'mine', workers: 0 })).rejects.toThrow(
      /mine:2: passage "p9": field "text" must be a string, got a number/,
    );
    expect(existsSync(out)).toBe(false);
  });
});

describe('an empty corpus', () => {
  it('is CORPUS_EMPTY for files and the CLI exits 1 writing nothing', async () => {
    const f = await file('empty.jsonl', '\n\n');
    const out = join(f, '..', 'idx');
    await expect(indexCorpus(f, { out, workers: 0 })).rejects.toMatchObject({
      code: 'CORPUS_EMPTY',
      message: expect.stringMatching(/empty\.jsonl: the corpus holds no passages/),
    });
    const r = await runCli(['index', 'build', f, '--out', out, '--workers', '0']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/the corpus holds no passages; nothing to index/);
    expect(existsSync(out)).toBe(false);
  });
});
