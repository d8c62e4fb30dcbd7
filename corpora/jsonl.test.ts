import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadJsonlPassages } from './jsonl.js';
import type { Passage } from './types.js';

async function collect(it: AsyncIterable<Passage>): Promise<Passage[]> {
  const out: Passage[] = [];
  for await (const p of it) out.push(p);
  return out;
}

describe('JSONL passage loader', () => {
  it('streams passages with default field names, skipping blank lines and accepting CRLF', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-jsonl-'));
    const f = join(dir, 'p.jsonl');
    await writeFile(f, '{"id":"a","contents":"Alpha text","title":"T"}\r\n\n{"id":7,"contents":"seven","doc_id":"d1"}\n');
    expect(await collect(loadJsonlPassages(f))).toEqual([
      { id: 'a', text: 'Alpha text', title: 'T', source: 'p.jsonl' },
      { id: '7', text: 'seven', docId: 'd1', source: 'p.jsonl' },
    ]);
  });

  it('keeps the fields named in keep (JSON values as they are) in meta; absent ones are left out, and without keep nothing is kept', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-jsonl-'));
    const f = join(dir, 'p.jsonl');
    await writeFile(f, '{"id":"a","text":"Alpha","court":"ark","year":1855,"cites":["b"]}\n{"id":"b","text":"Beta","year":1856}\n{"id":"c","text":"Gamma"}\n');
    const kept = await collect(loadJsonlPassages(f, { fields: { keep: ['court', 'year', 'cites'] } }));
    expect(kept.map((p) => p.meta)).toEqual([{ court: 'ark', year: 1855, cites: ['b'] }, { year: 1856 }, undefined]);
    expect((await collect(loadJsonlPassages(f))).every((p) => p.meta === undefined)).toBe(true);
  });

  it('refuses an explicit title, doc id, source or kept field that no record has, naming it and its flag, as a CSV header without the column is (before: a misspelt --title-field built an index with no titles, exit 0)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-jsonl-'));
    const f = join(dir, 'p.jsonl');
    await writeFile(f, '{"id":"a","text":"Alpha","heading":"H","document":"D1"}\n{"id":"b","text":"Beta","document":"D1"}\n');
    for (const [fields, field, flag] of [
      [{ title: 'headng' }, 'headng', '--title-field'],
      [{ docId: 'documnet' }, 'documnet', '--doc-id-field'],
      [{ source: 'srce' }, 'srce', '--source-field'],
      [{ keep: ['court'] as string[] }, 'court', '--keep-fields'],
    ] as const)
      await expect(collect(loadJsonlPassages(f, { fields }))).rejects.toThrow(`${f}: field "${field}": no record has this field (${flag})`);
    // held by one record only: read where it is
    const read = await collect(loadJsonlPassages(f, { fields: { title: 'heading', docId: 'document' } }));
    expect(read.map((p) => [p.title, p.docId])).toEqual([
      ['H', 'D1'],
      [undefined, 'D1'],
    ]);
  });

  it('refuses a kept field whose JSON number is an integer beyond 2^53 (it would be kept rounded), naming file, line, passage and field', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-jsonl-'));
    const f = join(dir, 'p.jsonl');
    await writeFile(f, '{"id":"a","text":"Alpha","case_no":7,"score":1e21}\n{"id":"b","text":"Beta","case_no":12345678901234567890}\n');
    // before: meta {case_no: 12345678901234567000} for passage b, exit 0
    await expect(collect(loadJsonlPassages(f, { fields: { keep: ['case_no', 'score'] } }))).rejects.toThrow(
      `${f}:2: passage "b": kept field "case_no" is the JSON number 12345678901234567890, beyond 2^53, which is read as 12345678901234567168: the metadata would not keep the number the file holds; write it as a string, e.g. "12345678901234567890"`,
    );
    // the largest safe integer, a float written in exponent form and the digits as a string are kept as they are
    await writeFile(f, '{"id":"a","text":"Alpha","case_no":9007199254740991,"score":1e21}\n{"id":"b","text":"Beta","case_no":"12345678901234567890"}\n');
    const kept = await collect(loadJsonlPassages(f, { fields: { keep: ['case_no', 'score'] } }));
    expect(kept.map((p) => p.meta)).toEqual([{ case_no: 9007199254740991, score: 1e21 }, { case_no: '12345678901234567890' }]);
  });

  it('reads .jsonl.gz the same as plain JSONL', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-jsonl-'));
    const body = '{"id":"x","text":"one"}\n{"id":"y","text":"two"}\n';
    await writeFile(join(dir, 'p.jsonl'), body);
    await writeFile(join(dir, 'p.jsonl.gz'), gzipSync(body));
    const plain = await collect(loadJsonlPassages(join(dir, 'p.jsonl'), { source: 's' }));
    const gz = await collect(loadJsonlPassages(join(dir, 'p.jsonl.gz'), { source: 's' }));
    expect(gz).toEqual(plain);
    expect(gz.map((p) => p.id)).toEqual(['x', 'y']);
  });

  it('names file and line of a malformed line', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-jsonl-'));
    const f = join(dir, 'bad.jsonl');
    await writeFile(f, '{"id":"a","text":"ok"}\n{"id":"b","text":\n{"id":"c","text":"ok"}\n');
    await expect(collect(loadJsonlPassages(f))).rejects.toMatchObject({ code: 'CORPUS_PARSE', message: expect.stringContaining(`${f}:2: malformed JSON`) });
  });

  it('says a line starting with a byte-order mark (two files joined with cat) is why it is not JSON, not "Unexpected token \'\'"', async () => {
    // The BOM of the file's first line is dropped; the second file's BOM, now inside the file, is not.
    // Before, the message quoted the invisible mark: `bad.jsonl:3: malformed JSON: Unexpected token '\ufeff', …`.
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-jsonl-'));
    const f = join(dir, 'joined.jsonl');
    await writeFile(f, '\ufeff{"id":"a","text":"Alpha"}\n{"id":"b","text":"Beta"}\n\ufeff{"id":"c","text":"Gamma"}\n');
    const err = await collect(loadJsonlPassages(f)).catch((e: Error) => e);
    expect(err).toMatchObject({ code: 'CORPUS_PARSE' });
    expect((err as Error).message).toContain(`${f}:3: malformed JSON: the line starts with a byte-order mark (U+FEFF, bytes EF BB BF)`);
    expect((err as Error).message).not.toContain('\ufeff');
  });

  it('rejects a missing id naming file, line and field, and allows empty text', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-jsonl-'));
    const f = join(dir, 'noid.jsonl');
    await writeFile(f, '{"id":"a","text":""}\n{"text":"no id here"}\n');
    await expect(collect(loadJsonlPassages(f))).rejects.toThrow(/noid\.jsonl:2: missing passage id \(field "id"\)/);
    const g = join(dir, 'custom.jsonl');
    await writeFile(g, '{"pid":"a","body":"","name":"N"}\n{"name":"N2","body":"b"}\n');
    await expect(collect(loadJsonlPassages(g, { fields: { id: 'name', text: 'body' } }))).resolves.toEqual([
      { id: 'N', text: '', source: 'custom.jsonl' },
      { id: 'N2', text: 'b', source: 'custom.jsonl' },
    ]);
  });

  it('a record without the id field of the first record is refused naming file:line, not indexed under its doc_id', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-jsonl-'));
    const f = join(dir, 'a.jsonl');
    await writeFile(f, '{"id":"p1","text":"alpha beta"}\n{"doc_id":"D2","text":"gamma delta"}\n{"id":"p3","text":"eps"}\n');
    await expect(collect(loadJsonlPassages(f))).rejects.toMatchObject({
      code: 'CORPUS_PARSE',
      message: expect.stringMatching(
        /a\.jsonl:2: missing passage id \(field "id"\) \(the id field, chosen from the first record \(line 1\)\); set --id-field to one of: doc_id, text/,
      ),
    });
  });

  it('reads every record from the text field of the first record: a second text-like field is not read, a record without it is refused', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-jsonl-'));
    // mix.jsonl of the audit: line 2 has "contents" (the file's text field) and "text".
    const mix = join(dir, 'mix.jsonl');
    await writeFile(mix, '{"id":"p1","contents":"firstcontents"}\n{"id":"p2","contents":"secondcontents","text":"secondtext"}\n');
    expect((await collect(loadJsonlPassages(mix))).map((p) => p.text)).toEqual(['firstcontents', 'secondcontents']);
    const lacking = join(dir, 'lacking.jsonl');
    await writeFile(lacking, '{"id":"p1","contents":"firstcontents"}\n{"id":"p2","text":"secondtext"}\n');
    await expect(collect(loadJsonlPassages(lacking))).rejects.toMatchObject({
      code: 'CORPUS_PARSE',
      message: expect.stringMatching(
        /lacking\.jsonl:2: passage "p2" has no text \(field "contents"\) \(the text field, chosen from the first record \(line 1\)\); set --text-field to one of: id, text/,
      ),
    });
  });

  it('reads the doc id from the first name a record has for it: a later record with only another doc-id name is refused, not left without one', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-jsonl-'));
    const f = join(dir, 'd.jsonl');
    await writeFile(
      f,
      '{"id":"p1","text":"a"}\n{"id":"p2","text":"b","docId":"D1"}\n{"id":"p3","text":"c","docId":"D1","doc_id":"X"}\n{"id":"p4","text":"d"}\n',
    );
    expect((await collect(loadJsonlPassages(f))).map((p) => p.docId)).toEqual([undefined, 'D1', 'D1', undefined]);
    const g = join(dir, 'g.jsonl');
    await writeFile(g, '{"id":"p1","text":"a","docId":"D1"}\n{"id":"p2","text":"b","document_id":"D2"}\n');
    await expect(collect(loadJsonlPassages(g))).rejects.toMatchObject({
      code: 'CORPUS_PARSE',
      message: expect.stringMatching(
        /g\.jsonl:2: field "document_id" is not read: the doc-id field of this file is "docId" \(chosen from the first record \(line 1\)\); use one name per file or set --doc-id-field/,
      ),
    });
    expect((await collect(loadJsonlPassages(g, { fields: { docId: 'document_id' } }))).map((p) => p.docId)).toEqual([undefined, 'D2']);
  });

  it('decodes invalid UTF-8 bytes as replacement characters instead of failing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-jsonl-'));
    const f = join(dir, 'latin1.jsonl');
    await writeFile(f, Buffer.concat([Buffer.from('{"id":"a","text":"caf'), Buffer.from([0xe9, 0xff]), Buffer.from(' ok"}\n')]));
    const [p] = await collect(loadJsonlPassages(f));
    expect(p.text).toBe('caf\uFFFD\uFFFD ok');
  });

  it('keeps multi-byte characters split across read chunks intact', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-jsonl-'));
    const f = join(dir, 'big.jsonl');
    const text = '§ Straße — “quoted” '.repeat(5000); // > 64 KiB read chunks
    await writeFile(f, JSON.stringify({ id: 'u', text }) + '\n');
    const [p] = await collect(loadJsonlPassages(f));
    expect(p.text).toBe(text);
  });
});

describe('a JSON file where JSONL is read', () => {
  it('a JSON array on one line and a pretty-printed JSON file are refused saying it is JSON, not JSONL, and how to convert it', async () => {
    const { loadQuestions } = await import('./registry.js');
    const dir = await mkdtemp(join(tmpdir(), 'lexcase-jsondoc-'));
    const rows = [
      { id: 'p1', text: 'a contract' },
      { id: 'p2', text: 'a tort' },
    ];
    const arr = join(dir, 'pool.json');
    await writeFile(arr, JSON.stringify(rows));
    const load = async (f: string) => {
      for await (const _ of loadJsonlPassages(f));
    };
    // before: pool.json:1: expected an object per line/row
    await expect(load(arr)).rejects.toThrow(/pool\.json:1: expected an object per line\/row, got an array: this reads JSONL, one JSON object a line; .*jq -c/);
    await writeFile(arr, JSON.stringify(rows, null, 2));
    // before: pool.json:1: malformed JSON: Unexpected end of JSON input
    await expect(load(arr)).rejects.toThrow(/pool\.json:1: malformed JSON: the line is "\[" alone: this reads JSONL, one JSON object a line/);
    const qa = join(dir, 'qa.json');
    await writeFile(qa, JSON.stringify([{ id: 'q1', prompt: '', question: 'Q', choices: ['a', 'b'], answer: 'A', gold_idx: 'p1' }]));
    await expect(loadQuestions('barexam', 'all', { file: qa })).rejects.toThrow(/qa\.json:1: expected an object, got an array: this reads JSONL/);
  });
});
