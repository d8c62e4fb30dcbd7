/**
 * Ids that break TREC files later, or that a JSON reader cannot hold exactly, are refused at build
 * with file:line (issue 26, item 9). They used to be indexed: an id with a space, U+0085 or U+2028
 * made `search --topics … --run-file` die on the first such hit (a partial run file) and `eval run`
 * skip the topic; `{"id":12345678901234567890}` was indexed as "12345678901234567000" and
 * `{"id":true}` as "true". Issue 37 item 11: ids with a zero-width or bidirectional control
 * character, NFC/NFD twins ("café" twice) and numbers whose text JSON.parse changes (`1.0` → "1")
 * were indexed too, and collided later.
 */
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildIndex } from '../indexer/build.js';
import { fromArray } from '../indexer/build-test-helpers.js';
import { cliChild } from '../tests/support/cli-child.js';
import { loadPassageFile } from './load-passages.js';
import type { Passage } from './types.js';

const dir = mkdtempSync(join(tmpdir(), 'lexcase-ids-'));
const ok = { id: 'p1', text: 'An easement by necessity.' };

/** corp.jsonl: a good line, then `line` (written verbatim: a JSON number keeps all its digits in the file). */
function corpus(name: string, line: string): string {
  const f = join(dir, `${name}.jsonl`);
  writeFileSync(f, `${JSON.stringify(ok)}\n${line}\n`);
  return f;
}

async function loadError(file: string): Promise<string> {
  try {
    for await (const _p of loadPassageFile(file)) void _p;
  } catch (e) {
    return (e as Error).message;
  }
  return 'accepted';
}

const CASES: [string, string, RegExp][] = [
  ['space', JSON.stringify({ id: 'p 2', text: 't' }), /space\.jsonl:2: passage id "p 2" \(field "id"\) contains whitespace: a space \(U\+0020\) at position 1/],
  [
    'nel',
    JSON.stringify({ id: 'p\u00852', text: 't' }),
    /nel\.jsonl:2: passage id "p\\u00852" \(field "id"\) contains a control character: NEXT LINE \(U\+0085\)/,
  ],
  [
    'lsep',
    JSON.stringify({ id: 'p\u20282', text: 't' }),
    /lsep\.jsonl:2: passage id "p\\u20282" \(field "id"\) contains whitespace: LINE SEPARATOR \(U\+2028\)/,
  ],
  [
    'nbsp',
    JSON.stringify({ id: 'p\u00a02', text: 't' }),
    /nbsp\.jsonl:2: passage id "p\\u00a02" \(field "id"\) contains whitespace: a no-break space \(U\+00A0\)/,
  ],
  ['tab', JSON.stringify({ id: 'p\t2', text: 't' }), /tab\.jsonl:2: passage id "p\\t2" \(field "id"\) contains a control character: a tab \(U\+0009\)/],
  [
    'bignum',
    '{"id":12345678901234567890,"text":"t"}',
    /bignum\.jsonl:2: passage id \(field "id"\) is a number beyond 2\^53 \(read as 12345678901234567168\), which JSON numbers cannot hold exactly; write the id as a string/,
  ],
  ['bool', '{"id":true,"text":"t"}', /bool\.jsonl:2: passage id \(field "id"\) must be a string or a number, got a boolean \(true\)/],
  ['float', '{"id":1.5,"text":"t"}', /float\.jsonl:2: passage id \(field "id"\) is a non-integer number \(1\.5\); write the id as a string/],
  // issue 37 item 11: ids that look like another id, or lose their text form
  [
    'zwsp',
    JSON.stringify({ id: 'p\u200b1', text: 't' }),
    /zwsp\.jsonl:2: passage id "p\\u200b1" \(field "id"\) contains an invisible format character: U\+200B ZERO WIDTH SPACE at position 1/,
  ],
  [
    'rlo',
    JSON.stringify({ id: '\u202e1p', text: 't' }),
    /rlo\.jsonl:2: passage id "\\u202e1p" \(field "id"\) contains an invisible format character: U\+202E RIGHT-TO-LEFT OVERRIDE at position 0/,
  ],
  [
    'one-point-oh',
    '{"text":"t","id":1.0}',
    /one-point-oh\.jsonl:2: passage id \(field "id"\) is the JSON number 1\.0, which is read as 1: the id would not keep the text the file holds/,
  ],
  ['exponent', '{"id": 1e3 ,"text":"t"}', /exponent\.jsonl:2: passage id \(field "id"\) is the JSON number 1e3, which is read as 1000/],
];

describe('unsafe ids are refused with file:line', () => {
  it.each(CASES)('%s', async (name, line, message) => {
    expect(await loadError(corpus(name, line))).toMatch(message);
  });

  it('ids that are fine: numbers up to 2^53 − 1 (read exactly), dashes, dots, colons, non-ASCII letters', async () => {
    const f = corpus(
      'fine',
      ['{"id":9007199254740991,"text":"t"}', JSON.stringify({ id: 'doc-1.2:§3', text: 't' }), JSON.stringify({ id: 'Müller_v_Oregon', text: 't' })].join('\n'),
    );
    const ids: string[] = [];
    for await (const p of loadPassageFile(f)) ids.push(p.id);
    expect(ids).toEqual(['p1', '9007199254740991', 'doc-1.2:§3', 'Müller_v_Oregon']);
  });

  it('a JSON-number doc id whose text would change (beyond 2^53, 1e2, 1.0) is refused with file:line; exact numbers are kept as their text', async () => {
    // Two documents that differ only past 2^53 were read as one doc id "12345678901234567000", so
    // `search --aggregate maxp` wrote one run line for both, under a docid no qrels line names.
    for (const [name, line, message] of [
      [
        'docid-bignum',
        '{"id":"a#1","doc_id":12345678901234567890,"text":"t"}',
        /docid-bignum\.jsonl:2: passage "a#1": document id \(field "doc_id"\) is the JSON number 12345678901234567890, which is read as 12345678901234567000/,
      ],
      [
        'docid-exponent',
        '{"id":"b#1","doc_id":1e2,"text":"t"}',
        /docid-exponent\.jsonl:2: passage "b#1": document id \(field "doc_id"\) is the JSON number 1e2, which is read as 100/,
      ],
      [
        'docid-point-oh',
        '{"id":"c#1","text":"t","docId":1.0}',
        /docid-point-oh\.jsonl:2: passage "c#1": document id \(field "docId"\) is the JSON number 1\.0/,
      ],
    ] as const)
      expect(await loadError(corpus(name, line))).toMatch(message);
    const f = corpus(
      'docid-fine',
      ['{"id":"d#1","doc_id":9007199254740991,"text":"t"}', '{"id":"e#1","doc_id":-7,"text":"t"}', '{"id":"f#1","doc_id":"D2","text":"t"}'].join('\n'),
    );
    const docIds: (string | undefined)[] = [];
    for await (const p of loadPassageFile(f)) docIds.push(p.docId);
    expect(docIds).toEqual([undefined, '9007199254740991', '-7', 'D2']);
  });

  it('a numeric id keeps its text: the raw token of the top-level "id" member is read, not a nested or quoted look-alike', async () => {
    const f = corpus('raw-token', ['{"meta":{"id":1.0},"text":"say \\"id\\": 2.0","id":-7}', '{"id":1.0,"text":"t","id":42}'].join('\n'));
    const ids: string[] = [];
    for await (const p of loadPassageFile(f)) ids.push(p.id);
    expect(ids).toEqual(['p1', '-7', '42']);
  });

  it('the library input (buildIndex with an array) applies the same rule', async () => {
    const passages: Passage[] = [
      { ...ok, source: 's' },
      { id: 'a\u2028b', text: 't', source: 's' },
    ];
    await expect(buildIndex(fromArray(passages), { out: join(dir, 'lib-idx'), corpusName: 'lib', workers: 0 })).rejects.toThrow(
      /lib:2: passage id "a\\u2028b" contains whitespace: LINE SEPARATOR/,
    );
    expect(existsSync(join(dir, 'lib-idx'))).toBe(false);
  });

  it('through the CLI: `index build` exits 1 with one file:line line and builds nothing', async () => {
    // NFC twins: "café" precomposed (U+00E9) on line 2, decomposed (e + U+0301) on line 3
    writeFileSync(
      join(dir, 'nfc.jsonl'),
      [ok, { id: 'caf\u00e9', text: 'a' }, { id: 'cafe\u0301', text: 'b' }].map((p) => JSON.stringify(p)).join('\n') + '\n',
    );
    for (const [name, pattern] of [
      ['space', /space\.jsonl:2: passage id "p 2"/],
      ['bignum', /bignum\.jsonl:2: passage id \(field "id"\) is a number beyond 2\^53/],
      ['zwsp', /zwsp\.jsonl:2: passage id "p\\u200b1" \(field "id"\) contains an invisible format character/],
      ['rlo', /rlo\.jsonl:2: passage id "\\u202e1p" \(field "id"\) contains an invisible format character/],
      ['one-point-oh', /one-point-oh\.jsonl:2: passage id \(field "id"\) is the JSON number 1\.0/],
      ['nfc', /nfc\.jsonl:3: passage id "cafe\\u0301" \(field "id"\) is the id "caf\\u00e9" of the passage on line 2 in another Unicode form/],
    ] as const) {
      const r = await cliChild(['index', 'build', join(dir, `${name}.jsonl`), '--out', join(dir, `${name}-idx`), '--workers', '0']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(pattern);
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expect(readdirSync(dir).filter((n) => n.startsWith(`${name}-idx`))).toEqual([]);
    }
  }, 120_000);
});
