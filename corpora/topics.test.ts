/** Topics files (TSV, JSONL, TREC SGML, MS MARCO): formats, aliases, auto-detection and line-numbered errors. */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '../core/log.js';
import { loadTopics, topicsFormatOf, parseTopicsFormat, parseTopicFields } from './topics.js';

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
    const p = await file('queries.dev.tsv', "1048585\twhat is paula deen's brother\r\n\r\n2\tAndrogen receptor define\r\n");
    expect(await loadTopics(p)).toEqual([
      { id: '1048585', text: "what is paula deen's brother" },
      { id: '2', text: 'Androgen receptor define' },
    ]);
  });

  it('a qid with bytes that are not UTF-8 is refused naming file:line (qids "q\\xff" and "q\\xfe" read as one); such bytes in a query\'s text are kept as U+FFFD', async () => {
    const p = await file(
      'latin1.tsv',
      Buffer.concat([Buffer.from('q1\tcaf'), Buffer.from([0xe9]), Buffer.from('\nq'), Buffer.from([0xff]), Buffer.from('\tx\n')]),
    );
    await expect(loadTopics(p)).rejects.toThrow(`${p}:2: qid "q\uFFFD" holds U+FFFD`);
    const ok = await file('latin1-text.tsv', Buffer.concat([Buffer.from('q1\tcaf'), Buffer.from([0xe9]), Buffer.from('\n')]));
    expect(await loadTopics(ok)).toEqual([{ id: 'q1', text: 'caf\uFFFD' }]);
  });

  it('reads JSONL with id/text, numeric ids and the qid/query aliases; .gz is transparent', async () => {
    const body = '{"id": "a1", "text": "hearsay rule"}\n{"qid": 7, "query": "adverse possession"}\n';
    expect(await loadTopics(await file('t.jsonl', body))).toEqual([
      { id: 'a1', text: 'hearsay rule' },
      { id: '7', text: 'adverse possession' },
    ]);
    expect(await loadTopics(await file('t.jsonl.gz', gzipSync(body)))).toHaveLength(2);
  });

  it('JSONL: a numeric qid whose text would change (1.0, 1e1, beyond 2^53) is refused naming file:line, not read as another qid', async () => {
    // tnum.jsonl of the audit: read as "1", "10" and "12345678901234567000" before.
    const cases: Array<[string, RegExp]> = [
      [
        '{"id":1.0,"text":"adverse possession"}',
        /n\.jsonl:2: qid \(field "id"\) is the JSON number 1\.0, which is read as 1: .*write it as a string, e\.g\. "1\.0"/,
      ],
      ['{"id":1e1,"text":"hearsay"}', /n\.jsonl:2: qid \(field "id"\) is the JSON number 1e1, which is read as 10/],
      [
        '{"qid": 12345678901234567890, "query":"contract"}',
        /n\.jsonl:2: qid \(field "qid"\) is the JSON number 12345678901234567890, which is read as 12345678901234567000/,
      ],
    ];
    for (const [rec, msg] of cases) {
      await expect(loadTopics(await file('n.jsonl', `{"id":"q0","text":"easement"}\n${rec}\n`))).rejects.toMatchObject({
        code: 'FILE_PARSE',
        message: expect.stringMatching(msg),
      });
    }
    expect(await loadTopics(await file('ok.jsonl', '{"id":42,"text":"easement"}\n{"qid":-3,"query":"x"}\n'))).toEqual([
      { id: '42', text: 'easement' },
      { id: '-3', text: 'x' },
    ]);
  });

  it('a qid starting with "#" is refused naming file:line: its run and qrels lines would be comments, its judgements dropped', async () => {
    // before: topic "#1" was searched and written to the run, while its qrels line "#1 0 d10 1" was
    // skipped as a comment: `eval retrieval` said "Skipped: 1 run topic without judgements (#1)"
    await expect(loadTopics(await file('hash.tsv', 'q1\tcontract breach\n#1\tcontract breach damages\n'))).rejects.toThrow(
      /hash\.tsv:2: qid "#1" starts with "#": a TREC run or qrels line that starts with # is a comment/,
    );
    await expect(loadTopics(await file('hash.jsonl', '{"id": "#7", "text": "x"}\n'))).rejects.toThrow(/hash\.jsonl:1: qid "#7" starts with "#"/);
    // a "#" further in is an ordinary character
    expect(await loadTopics(await file('mid.tsv', 'q#1\tcontract\n'))).toEqual([{ id: 'q#1', text: 'contract' }]);
  });

  it('names file and line for malformed input', async () => {
    await expect(loadTopics(await file('a.tsv', 'q1\tok\nq2\ta\tb\n'))).rejects.toThrow(/a\.tsv:2: expected 2 tab-separated columns \(qid, text\), found 3/);
    await expect(loadTopics(await file('b.tsv', 'q 1\ttext\n'))).rejects.toThrow(/b\.tsv:1: qid "q 1" contains whitespace/);
    await expect(loadTopics(await file('c.jsonl', '{"id": "q1", "text": 5}\n'))).rejects.toThrow(/c\.jsonl:1: field "text": expected a string, got number/);
    await expect(loadTopics(await file('d.jsonl', '{"id": "q1", "text": "x"}\n{"id": "q1"\n'))).rejects.toThrow(/d\.jsonl:2: malformed JSON/);
    // a second file's byte-order mark, joined on with cat, is named (its JSON.parse message quoted it invisibly)
    await expect(loadTopics(await file('bom.jsonl', '{"id": "q1", "text": "x"}\n\ufeff{"id": "q2", "text": "y"}\n'))).rejects.toThrow(
      /bom\.jsonl:2: malformed JSON: the line starts with a byte-order mark \(U\+FEFF/,
    );
    await expect(loadTopics(await file('e.tsv', '\n\n'))).rejects.toThrow(/e\.tsv: no topics in the file/);
    await expect(loadTopics(join(dir, 'missing.tsv'))).rejects.toThrow(/topics file not found: .*missing\.tsv/);
  });

  it('format: from the extension, or explicit', async () => {
    expect(topicsFormatOf('x/queries.TSV')).toBe('tsv');
    expect(topicsFormatOf('topics.jsonl.gz')).toBe('jsonl');
    expect(topicsFormatOf('topics.dat')).toBeUndefined();
    expect(topicsFormatOf('topics.301-450.txt')).toBeUndefined(); // .txt: TREC topics and TSV alike, told apart by their first line
    expect(parseTopicsFormat('auto')).toBeUndefined();
    expect(parseTopicsFormat('TREC')).toBe('trec');
    expect(() => parseTopicsFormat('csv')).toThrow(/invalid --topics-format: expected auto, tsv, jsonl, trec, msmarco, got "csv"/);
    expect(await loadTopics(await file('q.dat', 'q1\thearsay\n'), { format: 'tsv' })).toEqual([{ id: 'q1', text: 'hearsay' }]);
  });
});

// Two topics in the layout NIST distributes (robust04 style: fields run to the next tag, labels,
// a multi-line title), a third in the TREC 2018 Core / FIRE style (closing tags, attributes).
const TREC = `<top>
<num> Number: 301
<title> Hearsay exceptions for
statements against interest

<desc> Description:
When may a statement against the declarant's interest be admitted
although the declarant is unavailable?

<narr> Narrative:
A relevant passage states the rule or applies it.
</top>


<top>
<num> Number: 302
<title> Topic: adverse possession
<desc> Description:
What must a trespasser show to acquire title by adverse possession?
<narr> Narrative:
Relevant passages name the elements.
</top>
<top lang='en'>
<num>303</num>
<title>Rule against perpetuities</title>
<desc>Which interests are void under the rule?</desc>
<narr>Any statement of the rule.</narr>
</top>
`;

describe('TREC SGML topics', () => {
  it('reads <top> topics: the title by default, other fields or several joined on request; labels dropped, lines joined', async () => {
    const p = await file('topics.301-303.txt', TREC);
    expect(await loadTopics(p)).toEqual([
      { id: '301', text: 'Hearsay exceptions for statements against interest' },
      { id: '302', text: 'adverse possession' },
      { id: '303', text: 'Rule against perpetuities' },
    ]);
    expect((await loadTopics(p, { fields: ['description'] })).map((t) => t.text)).toEqual([
      "When may a statement against the declarant's interest be admitted although the declarant is unavailable?",
      'What must a trespasser show to acquire title by adverse possession?',
      'Which interests are void under the rule?',
    ]);
    expect((await loadTopics(p, { format: 'trec', fields: parseTopicFields('title+narr') }))[1].text).toBe(
      'adverse possession Relevant passages name the elements.',
    );
    expect(await loadTopics(await file('t.gz', gzipSync(TREC)), { format: 'trec' })).toHaveLength(3);
    expect(() => parseTopicFields('summary')).toThrow(
      /--topic-field: expected title, description, narrative or several joined by \+ \(e\.g\. title\+description\), got "summary"/,
    );
  });

  it('names file and line for a broken topic, text outside topics and an empty chosen field', async () => {
    await expect(loadTopics(await file('a.txt', '<top>\n<num> Number: 1\n<title> x\n'))).rejects.toThrow(
      /a\.txt:1: the topic opened here has no <\/top> \(the file ends on line 3\)/,
    );
    await expect(loadTopics(await file('b.txt', '<top>\n<title> x\n</top>\n'))).rejects.toThrow(
      /b\.txt:1: the topic opened here has no <num> \(closed on line 3\)/,
    );
    await expect(loadTopics(await file('c.txt', '<top>\n<num> Number: 1\n<title> x\n<top>\n'))).rejects.toThrow(
      /c\.txt:4: <top> inside the topic opened on line 1 \(missing <\/top>\)/,
    );
    await expect(loadTopics(await file('d.txt', '<top>\n<num> Number: 1\n<title> x\n</top>\nstray words\n'), { format: 'trec' })).rejects.toThrow(
      /d\.txt:5: text outside a <top> … <\/top> topic: "stray words"/,
    );
    await expect(loadTopics(await file('e.txt', '<top>\n<num> Number: 7\n<title>\n<desc> d\n</top>\n'))).rejects.toThrow(
      /e\.txt:1: topic 7 has no <title> text/,
    );
    await expect(loadTopics(await file('f.txt', TREC + TREC.slice(0, TREC.indexOf('<top>', 10))))).rejects.toThrow(
      /f\.txt:\d+: duplicate qid "301" \(first on line 1\)/,
    );
    // A TREC file read as TSV: the error says which formats there are.
    await expect(loadTopics(await file('g.tsv', TREC))).rejects.toThrow(/g\.tsv:1: expected "qid<TAB>text", found no tab/);
    await expect(loadTopics(await file('g2.tsv', TREC))).rejects.toThrow(/hint: .*--topics-format jsonl\|trec\|msmarco/);
    await expect(loadTopics(await file('h.tsv', 'q1\tx\n'), { fields: ['description'] })).rejects.toThrow(
      /--topic-field picks a field of TREC SGML topics; .*h\.tsv is read as tsv/,
    );
  });
});

describe('MS MARCO queries and auto-detection', () => {
  it('msmarco: integer qids, exactly two columns; anything else names file:line', async () => {
    const p = await file('queries.dev.small.tsv', "1048585\twhat is paula deen's brother\n2\tAndrogen receptor define\n");
    expect(await loadTopics(p, { format: 'msmarco' })).toEqual([
      { id: '1048585', text: "what is paula deen's brother" },
      { id: '2', text: 'Androgen receptor define' },
    ]);
    await expect(loadTopics(await file('m1.tsv', '12\tok\nq13\tnot a number\n'), { format: 'msmarco' })).rejects.toThrow(
      /m1\.tsv:2: MS MARCO qids are integers, got "q13"/,
    );
    await expect(loadTopics(await file('m2.tsv', '12\ta\tb\n'), { format: 'msmarco' })).rejects.toThrow(
      /m2\.tsv:1: expected "qid<TAB>query" \(MS MARCO queries\), found 3 tab-separated columns/,
    );
  });

  it('auto: the first non-blank line tells TREC SGML, JSONL and TSV apart where the extension does not', async () => {
    expect(await loadTopics(await file('q1.dat', '\n  {"id": "a", "text": "hearsay"}\n'))).toEqual([{ id: 'a', text: 'hearsay' }]);
    expect(await loadTopics(await file('q2.txt', 'a\thearsay\n'))).toEqual([{ id: 'a', text: 'hearsay' }]);
    expect(await loadTopics(await file('q3', TREC))).toHaveLength(3);
    await expect(loadTopics(await file('q4.dat', '\nhearsay exceptions\n'))).rejects.toThrow(
      /q4\.dat:2: cannot tell the topics format: the first line is neither TREC SGML \(<top>\), JSONL \(\{…\}\) nor "qid<TAB>text"/,
    );
    await expect(loadTopics(await file('q5.dat', '\n\n'))).rejects.toThrow(/q5\.dat: no topics in the file/);
  });
});

describe('loadTopics notes invisible format characters inside a query word', () => {
  afterEach(() => vi.restoreAllMocks());

  it('warns naming file:line, the topic and the word escaped, and keeps the text as the file holds it', async () => {
    // A query pasted from a PDF: "con\u00adtract" is analysed as "con" + "tract", so the topic searched
    // other terms than it shows, and nothing said so.
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => undefined);
    const f = await file(
      'shy.tsv',
      'q1\tIs an oral contract for land enforceable?\nq2\tBreach of con\u00adtract damages\nq3\tde\u200bfendant negligence\nq4\tสัญญา\u200bซื้อขาย\n',
    );
    const topics = await loadTopics(f);
    expect(topics[1].text).toBe('Breach of con\u00adtract damages');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0][0])).toContain(
      `2 of 4 topics have an invisible format character inside a word (soft hyphen U+00AD, zero-width space U+200B, word joiner U+2060, U+FEFF or a bidirectional control; the first: ${f}:2: topic "q2", the word "con\\u00adtract")`,
    );
    warn.mockClear();
    await loadTopics(await file('clean.tsv', 'q1\tIs an oral contract for land enforceable?\n'));
    expect(warn).not.toHaveBeenCalled();
  });
});
