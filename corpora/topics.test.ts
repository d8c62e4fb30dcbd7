/** Topics files (TSV and JSONL, Pyserini / MS MARCO style): formats, aliases and line-numbered errors. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadTopics, topicsFormatOf, parseTopicsFormat } from './topics.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-topics-'));
});

const file = async (name: string, text: string | Buffer) => {
  const p = join(dir, name);
  await writeFile(p, text);
  return p;
};

describe('loadTopics', () => {
  it('reads MS MARCO-style TSV (numeric qids, CRLF, blank lines) in file order', async () => {
    const p = await file('queries.dev.tsv', '1048585\twhat is paula deen\'s brother\r\n\r\n2\tAndrogen receptor define\r\n');
    expect(await loadTopics(p)).toEqual([
      { id: '1048585', text: "what is paula deen's brother" },
      { id: '2', text: 'Androgen receptor define' },
    ]);
  });

  it('reads JSONL with id/text, numeric ids and the qid/query aliases; .gz is transparent', async () => {
    const body = '{"id": "a1", "text": "hearsay rule"}\n{"qid": 7, "query": "adverse possession"}\n';
    expect(await loadTopics(await file('t.jsonl', body))).toEqual([
      { id: 'a1', text: 'hearsay rule' },
      { id: '7', text: 'adverse possession' },
    ]);
    expect(await loadTopics(await file('t.jsonl.gz', gzipSync(body)))).toHaveLength(2);
  });

  it('names file and line for malformed input', async () => {
    await expect(loadTopics(await file('a.tsv', 'q1\tok\nq2\ta\tb\n'))).rejects.toThrow(/a\.tsv:2: expected 2 tab-separated columns \(qid, text\), found 3/);
    await expect(loadTopics(await file('b.tsv', 'q 1\ttext\n'))).rejects.toThrow(/b\.tsv:1: qid "q 1" contains whitespace/);
    await expect(loadTopics(await file('c.jsonl', '{"id": "q1", "text": 5}\n'))).rejects.toThrow(/c\.jsonl:1: field "text": expected a string, got number/);
    await expect(loadTopics(await file('d.jsonl', '{"id": "q1", "text": "x"}\n{"id": "q1"\n'))).rejects.toThrow(/d\.jsonl:2: malformed JSON/);
    await expect(loadTopics(await file('e.tsv', '\n\n'))).rejects.toThrow(/e\.tsv: no topics in the file/);
    await expect(loadTopics(join(dir, 'missing.tsv'))).rejects.toThrow(/topics file not found: .*missing\.tsv/);
  });

  it('format: from the extension, or explicit', async () => {
    expect(topicsFormatOf('x/queries.TSV')).toBe('tsv');
    expect(topicsFormatOf('topics.jsonl.gz')).toBe('jsonl');
    expect(topicsFormatOf('topics.dat')).toBeUndefined();
    expect(() => parseTopicsFormat('csv')).toThrow(/invalid --topics-format: expected tsv or jsonl, got "csv"/);
    expect(await loadTopics(await file('q.dat', 'q1\thearsay\n'), { format: 'tsv' })).toEqual([{ id: 'q1', text: 'hearsay' }]);
  });
});
