import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { formatFromPath, loadPassageFile } from './load-passages.js';
import type { Passage } from './types.js';

async function collect(it: AsyncIterable<Passage>): Promise<Passage[]> {
  const out: Passage[] = [];
  for await (const p of it) out.push(p);
  return out;
}

describe('loadPassageFile', () => {
  it('tells the format from the extension, .gz included', () => {
    expect(formatFromPath('a/pool.jsonl.gz')).toBe('jsonl');
    expect(formatFromPath('pool.NDJSON')).toBe('jsonl');
    expect(formatFromPath('pool.tsv.gz')).toBe('tsv');
    expect(formatFromPath('pool.csv')).toBe('csv');
    expect(formatFromPath('pool.parquet')).toBe('parquet');
    expect(formatFromPath('pool.txt')).toBeUndefined();
  });

  it('reads a folder holding passages.jsonl.gz (the bundled/shared data layout)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-lp-'));
    await mkdir(join(dir, 'data'));
    await writeFile(join(dir, 'data', 'passages.jsonl.gz'), gzipSync('{"id":"a","text":"x"}\n'));
    expect(await collect(loadPassageFile(join(dir, 'data')))).toEqual([{ id: 'a', text: 'x', source: 'passages.jsonl.gz' }]);
  });

  it('an unknown extension needs --format; with it the file loads', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-lp-'));
    const f = join(dir, 'pool.txt');
    await writeFile(f, 'id\ttext\n1\tone\n');
    await expect(collect(loadPassageFile(f))).rejects.toMatchObject({ code: 'USAGE', message: expect.stringContaining('--format jsonl|csv|tsv|parquet') });
    expect(await collect(loadPassageFile(f, { format: 'tsv' }))).toEqual([{ id: '1', text: 'one', source: 'pool.txt' }]);
  });

  it('a folder with several passages files is refused naming them all, not read from the first one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-lp-'));
    const f1 = join(dir, 'f1');
    await mkdir(f1);
    await writeFile(join(f1, 'passages.jsonl'), '{"id":"j1","text":"a"}\n{"id":"j2","text":"b"}\n');
    await writeFile(join(f1, 'passages.csv'), 'id,text\nc1,a\nc2,b\nc3,c\n');
    await writeFile(join(f1, 'passages.tsv'), 'id\ttext\nt1\ta\n');
    await expect(collect(loadPassageFile(f1))).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringContaining(`${f1} is a folder with 3 passages files (passages.jsonl, passages.csv, passages.tsv)`),
    });
    await expect(collect(loadPassageFile(f1))).rejects.toThrow(`hint: pass the file to index, e.g. ${join(f1, 'passages.jsonl')}`);
  });

  it('a missing file is CORPUS_NOT_FOUND', async () => {
    await expect(collect(loadPassageFile('/no/such/pool.jsonl'))).rejects.toMatchObject({ code: 'CORPUS_NOT_FOUND' });
  });
});
