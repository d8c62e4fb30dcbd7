import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { asyncBufferFromFile, parquetMetadataAsync } from 'hyparquet';
import { describe, expect, it } from 'vitest';
import { loadParquetPassages } from './parquet.js';
import { loadPassages } from './registry.js';
import type { Passage } from './types.js';

async function collect(it: AsyncIterable<Passage>): Promise<Passage[]> {
  const out: Passage[] = [];
  for await (const p of it) out.push(p);
  return out;
}

async function writeParquet(file: string, columns: Record<string, string[]>, rowGroupSize: number): Promise<void> {
  const buf = parquetWriteBuffer({
    columnData: Object.entries(columns).map(([name, data]) => ({ name, data, type: 'STRING' as const })),
    rowGroupSize,
  });
  await writeFile(file, Buffer.from(buf));
}

describe('Parquet passage loader', () => {
  it('streams every row across several row groups, in order, with mapped fields', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-pq-'));
    const f = join(dir, 'pool.parquet');
    const n = 2500;
    const ids = Array.from({ length: n }, (_, i) => `p${i}`);
    await writeParquet(f, { pid: ids, contents: ids.map((id) => `text of ${id}`), extra: ids.map(() => 'x') }, 1000);
    const meta = await parquetMetadataAsync(await asyncBufferFromFile(f));
    expect(meta.row_groups.length).toBe(3);
    const got = await collect(loadParquetPassages(f, { fields: { id: 'pid' } }));
    expect(got.length).toBe(n);
    expect(got[0]).toEqual({ id: 'p0', text: 'text of p0', source: 'pool.parquet' });
    expect(got[n - 1]).toEqual({ id: `p${n - 1}`, text: `text of p${n - 1}`, source: 'pool.parquet' });
    expect(got.map((p) => p.id)).toEqual(ids);
  });

  it('--keep-fields: the named columns are read (only the mapped ones are) and kept in meta', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-pq-'));
    const f = join(dir, 'kept.parquet');
    await writeParquet(f, { id: ['a', 'b'], text: ['one', 'two'], court: ['ark', 'scotus'], extra: ['x', 'y'] }, 10);
    const got = await collect(loadParquetPassages(f, { fields: { keep: ['court', 'missing'] } }));
    expect(got.map((p) => p.meta)).toEqual([{ court: 'ark' }, { court: 'scotus' }]);
  });

  it('is reachable through loadPassages(path) by extension', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-pq-'));
    const f = join(dir, 'p.parquet');
    await writeParquet(f, { id: ['a', 'b'], text: ['one', ''] }, 10);
    expect((await collect(loadPassages(f))).map((p) => [p.id, p.text])).toEqual([
      ['a', 'one'],
      ['b', ''],
    ]);
  });

  it('names an unknown id column and lists the available ones', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-pq-'));
    const f = join(dir, 'p.parquet');
    await writeParquet(f, { id: ['a'], text: ['one'] }, 10);
    await expect(collect(loadParquetPassages(f, { fields: { id: 'passage_id' } }))).rejects.toThrow(
      /field "passage_id": no such Parquet column \(--id-field\); columns: id, text/,
    );
  });

  it('a row whose id is null is refused naming its row, not indexed under another id column (pid)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-pq-'));
    const f = join(dir, 'nullid.parquet');
    const buf = parquetWriteBuffer({
      columnData: [
        { name: 'id', data: ['a', null, 'c'], type: 'STRING' as const },
        { name: 'pid', data: ['pa', 'pb', 'pc'], type: 'STRING' as const },
        { name: 'text', data: ['one', 'two', 'three'], type: 'STRING' as const },
      ],
    });
    await writeFile(f, Buffer.from(buf));
    await expect(collect(loadParquetPassages(f))).rejects.toMatchObject({
      code: 'CORPUS_PARSE',
      message: expect.stringMatching(/nullid\.parquet:2: missing passage id \(field "id"\) \(the id field, chosen from the Parquet schema\)/),
    });
  });

  it('rejects a file that is not Parquet with a clear CORPUS_PARSE error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-pq-'));
    const f = join(dir, 'fake.parquet');
    await writeFile(f, 'id,text\na,b\n');
    await expect(collect(loadParquetPassages(f))).rejects.toMatchObject({
      code: 'CORPUS_PARSE',
      message: expect.stringContaining('not a readable Parquet file'),
    });
  });
});
