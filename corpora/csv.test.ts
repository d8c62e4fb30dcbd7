import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadCsvPassages } from './csv.js';
import { loadPassageFile } from './load-passages.js';
import type { Passage } from './types.js';

async function collect(it: AsyncIterable<Passage>): Promise<Passage[]> {
  const out: Passage[] = [];
  for await (const p of it) out.push(p);
  return out;
}

describe('CSV/TSV passage loader', () => {
  it('parses quoted fields with commas, quotes and newlines', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-csv-'));
    const f = join(dir, 'p.csv');
    await writeFile(f, 'idx,text,title\nmbe_1,"A rule, with a comma and ""quotes""\nand a second line",Rule\nmbe_2,,\n');
    expect(await collect(loadCsvPassages(f))).toEqual([
      { id: 'mbe_1', text: 'A rule, with a comma and "quotes"\nand a second line', title: 'Rule', source: 'p.csv' },
      { id: 'mbe_2', text: '', source: 'p.csv' },
    ]);
  });

  it('reads TSV by extension and maps custom columns', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-csv-'));
    const f = join(dir, 'pool.tsv');
    await writeFile(f, 'pid\tpassage\tcase\n1\tthe "first" passage\tc1\n2\tsecond\tc1\n');
    expect(await collect(loadPassageFile(f, { fields: { id: 'pid', text: 'passage', docId: 'case' } }))).toEqual([
      { id: '1', text: 'the "first" passage', docId: 'c1', source: 'pool.tsv' },
      { id: '2', text: 'second', docId: 'c1', source: 'pool.tsv' },
    ]);
  });

  it('reports a row with the wrong number of columns with file and line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-csv-'));
    const f = join(dir, 'bad.csv');
    await writeFile(f, 'id,text\na,one\nb,two,extra\n');
    await expect(collect(loadCsvPassages(f))).rejects.toMatchObject({ code: 'CORPUS_PARSE', message: expect.stringMatching(/bad\.csv:3: malformed CSV/) });
  });

  it('names an unknown --text-field column and lists the header', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-csv-'));
    const f = join(dir, 'p.csv');
    await writeFile(f, 'id,body\na,one\n');
    await expect(collect(loadCsvPassages(f, { fields: { text: 'contents' } }))).rejects.toThrow(
      /field "contents": no such column \(--text-field\); header: id, body/,
    );
  });

  it('a consumer that stops early does not hang the reader (large file, break after one row)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-csv-'));
    const f = join(dir, 'big.csv');
    const rows = Array.from({ length: 50_000 }, (_, i) => `p${i},"passage number ${i}, with a comma"`);
    await writeFile(f, `id,text\n${rows.join('\n')}\n`);
    const got: Passage[] = [];
    for await (const p of loadCsvPassages(f)) {
      got.push(p);
      if (got.length === 1) break;
    }
    expect(got).toEqual([{ id: 'p0', text: 'passage number 0, with a comma', source: 'big.csv' }]);
  });

  it('names file, line and field of a row without an id', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-csv-'));
    const f = join(dir, 'p.csv');
    await writeFile(f, 'id,text\na,one\n,two\n');
    await expect(collect(loadCsvPassages(f))).rejects.toThrow(/p\.csv:3: missing passage id \(field "id"\)/);
  });
});
