/**
 * readLines is linear in the line length (a 20 MB JSON line used to take 4–5 s, 80 MB 48–81 s,
 * from re-scanning one growing string) and refuses a line over the limit with CORPUS_PARSE naming
 * the file and line, for JSONL and CSV alike; the limit comes from an option or LEXCASE_MAX_LINE_MB.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readLines } from './read-lines.js';
import { loadJsonlPassages } from './jsonl.js';
import { loadCsvPassages } from './csv.js';
import { collect } from '../tests/support/collect.js';

describe('readLines', () => {
  it('reads a 20 MB JSON line looking at each byte a bounded number of times (the quadratic reader re-scanned the growing line)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-lines-'));
    const f = join(dir, 'big.jsonl');
    const text = 'the tenant holds over after the lease ends; § 1983 “quoted” '.repeat(340_000).slice(0, 20_000_000);
    const body = JSON.stringify({ id: 'big', text }) + '\n' + JSON.stringify({ id: 'next', text: 'short' }) + '\n';
    await writeFile(f, body);
    // the work, counted instead of timed: bytes (or chars) every newline search and every join looks at
    let looked = 0;
    const bufIndexOf = Buffer.prototype.indexOf;
    const strIndexOf = String.prototype.indexOf;
    const concat = Buffer.concat;
    Buffer.prototype.indexOf = function (this: Buffer, v: never, from?: never, enc?: never) {
      looked += this.length - (typeof from === 'number' ? from : 0);
      return bufIndexOf.call(this, v, from, enc);
    } as typeof Buffer.prototype.indexOf;
    String.prototype.indexOf = function (this: string, v: string, from?: number) {
      if (this.length > 1_000_000) looked += this.length - (from ?? 0);
      return strIndexOf.call(this, v, from);
    };
    Buffer.concat = ((list: readonly Uint8Array[], total?: number) => {
      looked += total ?? list.reduce((a, b) => a + b.length, 0);
      return concat(list, total);
    }) as typeof Buffer.concat;
    let ps: Awaited<ReturnType<typeof collect<Awaited<ReturnType<typeof loadJsonlPassages>> extends AsyncIterable<infer P> ? P : never>>>;
    try {
      ps = await collect(loadJsonlPassages(f));
    } finally {
      Buffer.prototype.indexOf = bufIndexOf;
      String.prototype.indexOf = strIndexOf;
      Buffer.concat = concat;
    }
    expect(ps.map((p) => p.id)).toEqual(['big', 'next']);
    expect(ps[0].text).toBe(text);
    // linear: a few passes over the file's bytes (one search, one join); the quadratic reader looked ~ n² / chunk
    expect(looked).toBeLessThan(4 * Buffer.byteLength(body));
  });

  it('keeps line numbers, drops a BOM and \\r, decodes multi-byte characters split across chunks, reads .gz', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-lines-'));
    const long = 'é€😀'.repeat(50_000);
    const body = `\uFEFFfirst\r\n\n${long}\nlast`;
    await writeFile(join(dir, 'a.txt'), body);
    await writeFile(join(dir, 'a.txt.gz'), gzipSync(Buffer.from(body)));
    for (const name of ['a.txt', 'a.txt.gz']) {
      expect(await collect(readLines(join(dir, name)))).toEqual([
        { line: 1, text: 'first' },
        { line: 2, text: '' },
        { line: 3, text: long },
        { line: 4, text: 'last' },
      ]);
    }
  });

  it('a line over the limit is CORPUS_PARSE naming file and line (option, env, JSONL, CSV, last line)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-lines-'));
    const f = join(dir, 'p.jsonl');
    const big = JSON.stringify({ id: 'b', text: 'x'.repeat(5000) });
    await writeFile(f, `{"id":"a","text":"ok"}\n\n${big}\n{"id":"c","text":"ok"}\n`);
    await expect(collect(loadJsonlPassages(f, { maxLineBytes: 4096 }))).rejects.toMatchObject({
      code: 'CORPUS_PARSE',
      message: expect.stringMatching(/p\.jsonl:3: line is longer than the limit of 4,096 bytes/),
    });
    await expect(collect(loadJsonlPassages(f, { maxLineBytes: 6000 }))).resolves.toHaveLength(3);
    const last = join(dir, 'last.jsonl');
    await writeFile(last, `{"id":"a","text":"ok"}\n${big}`);
    await expect(collect(readLines(last, { maxLineBytes: 4096 }))).rejects.toThrow(/last\.jsonl:2: line is longer/);
    process.env.LEXCASE_MAX_LINE_MB = '0.001';
    try {
      await expect(collect(loadJsonlPassages(f))).rejects.toThrow(/p\.jsonl:3: line is longer than the limit of 1,048 bytes/);
      const csv = join(dir, 'p.csv');
      await writeFile(csv, `id,text\na,short\nb,${'y'.repeat(2000)}\n`);
      await expect(collect(loadCsvPassages(csv))).rejects.toThrow(/p\.csv:3: line is longer than the limit/);
    } finally {
      delete process.env.LEXCASE_MAX_LINE_MB;
    }
  });
});

describe('a file that is not UTF-8 text', () => {
  it('a UTF-16 file and a gzip file without .gz are refused at line 1 saying so (JSONL, CSV), not with the parser quoting their bytes', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-enc-'));
    const rows = '{"id":"p1","text":"a contract"}\n{"id":"p2","text":"a tort"}\n';
    const utf16 = join(dir, 'pool.jsonl');
    await writeFile(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(rows, 'utf16le')]));
    // before: pool.jsonl:1: malformed JSON: Unexpected token '�', "��{\u0000"\u0000i\u0000d\u0000"... is not valid JSON
    await expect(collect(loadJsonlPassages(utf16))).rejects.toThrow(
      /pool\.jsonl:1: the file is UTF-16 \(it starts with the byte-order mark FF FE\) and lexcase reads UTF-8: convert it/,
    );
    const csv16 = join(dir, 'pool.csv');
    await writeFile(csv16, Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('id,text\np1,a contract\n', 'utf16le').swap16()]));
    await expect(collect(loadCsvPassages(csv16))).rejects.toThrow(
      /pool\.csv:1: the file is UTF-16 \(it starts with the byte-order mark FE FF\).*, or save it from the spreadsheet as "CSV UTF-8"$/,
    );
    const gz = join(dir, 'export.jsonl');
    await writeFile(gz, gzipSync(rows));
    // before: export.jsonl:1: malformed JSON: Unexpected token '\u001f', "\u001f�\u0008\u0000…" is not valid JSON
    await expect(collect(loadJsonlPassages(gz))).rejects.toThrow(
      /export\.jsonl:1: the file is gzip-compressed \(it starts with the bytes 1F 8B\) but its name does not end in \.gz/,
    );
    // the same gzip bytes named .gz, and UTF-8 with its byte-order mark, are read
    await writeFile(`${gz}.gz`, gzipSync(rows));
    expect((await collect(loadJsonlPassages(`${gz}.gz`))).map((p) => p.id)).toEqual(['p1', 'p2']);
    await writeFile(utf16, `\ufeff${rows}`);
    expect((await collect(loadJsonlPassages(utf16))).map((p) => p.id)).toEqual(['p1', 'p2']);
  });
});
