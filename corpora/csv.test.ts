import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { log } from '../core/log.js';
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

  it('TSV fields a CSV writer quoted (Python csv, pandas: "He said ""no""") are kept as text, and said once with the count and first line; raw quotes are not warned about', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-csv-'));
    const f = join(dir, 'quoted.tsv');
    await writeFile(f, 'id\ttext\np1\tplain\np2\t"He said ""no"" twice"\np3\t"""Hearsay"" is defined"\n');
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
    try {
      const ps = await collect(loadPassageFile(f));
      expect(ps.map((p) => p.text)).toEqual(['plain', '"He said ""no"" twice"', '"""Hearsay"" is defined"']); // unquoted, as documented
      expect(warn.mock.calls.map((c) => String(c[0]))).toEqual([
        `${f}: 2 TSV fields look CSV-quoted (the first on line 3: "…""…"): TSV is read unquoted, so the wrapping and doubled quotes are kept as text; write the file without quoting (Python csv.QUOTE_NONE) or as CSV`,
      ]);
      warn.mockClear();
      const raw = join(dir, 'raw.tsv');
      await writeFile(raw, 'pid\tpassage\n1\tthe "first" passage\n2\t"quoted whole"\n');
      await collect(loadPassageFile(raw, { fields: { id: 'pid', text: 'passage' } }));
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
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

  it('--keep-fields keeps the named header columns in meta; a column the header lacks is refused naming it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-csv-'));
    const f = join(dir, 'k.csv');
    await writeFile(f, 'id,text,court\na,one,ark\nb,two,scotus\n');
    expect((await collect(loadCsvPassages(f, { fields: { keep: ['court'] } }))).map((p) => p.meta)).toEqual([{ court: 'ark' }, { court: 'scotus' }]);
    await expect(collect(loadCsvPassages(f, { fields: { keep: ['court', 'year'] } }))).rejects.toThrow(
      /field "year": no such column \(--keep-fields\); header: id, text, court/,
    );
  });

  it('a header naming a column twice is refused naming the column (not the last one silently used)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-csv-'));
    const f = join(dir, 'dup.csv');
    await writeFile(f, 'id,text,text\na,one,two\n');
    await expect(collect(loadCsvPassages(f))).rejects.toMatchObject({
      code: 'CORPUS_PARSE',
      message: expect.stringContaining('dup.csv: field "text": the header names this column twice (columns 2 and 3)'),
    });
  });

  it('a row without an id after multi-line quoted records is named by the line it starts on (LF and CRLF files)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-csv-'));
    const f = join(dir, 'ml.csv');
    // line 1 header, record a on lines 2-4, record b on lines 5-6, the id-less record on lines 7-8
    await writeFile(f, 'id,text\na,"one\ntwo\nthree"\nb,"four\nfive"\n,"six\nseven"\n');
    await expect(collect(loadCsvPassages(f))).rejects.toThrow(/ml\.csv:7: missing passage id \(field "id"\)/);
    const g = join(dir, 'crlf.csv');
    await writeFile(g, 'id,text\r\na,"one\r\ntwo"\r\nb,"x\ry"\r\n,"six\r\nseven"\r\n');
    await expect(collect(loadCsvPassages(g))).rejects.toThrow(/crlf\.csv:5: missing passage id \(field "id"\)/);
  });

  it('names file, line and field of a row without an id', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-csv-'));
    const f = join(dir, 'p.csv');
    await writeFile(f, 'id,text\na,one\n,two\n');
    await expect(collect(loadCsvPassages(f))).rejects.toThrow(/p\.csv:3: missing passage id \(field "id"\)/);
  });
});
