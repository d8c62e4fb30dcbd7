import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUNDLED_LEGALBENCH_DIR, loadLegalBenchTask, resolveLegalBenchFile } from './legalbench.js';
import { fileChecksum } from './registry.js';

/** A user-supplied data directory holding learned_hands_courts (synthetic; see its README). */
const USER_DIR = resolve(import.meta.dirname, '../tests/fixtures/legalbench-user');
const tmp = mkdtempSync(join(tmpdir(), 'legalbench-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('LegalBench loader', () => {
  it('loads the bundled hearsay test set: 94 items, 41 Yes / 53 No, with slices', async () => {
    const xs = await loadLegalBenchTask('hearsay', { env: {} });
    expect(xs).toHaveLength(94);
    expect(xs.filter((x) => x.label === 'Yes')).toHaveLength(41);
    expect(xs[0]).toMatchObject({ id: 'hearsay-test-0', label: 'No', meta: { slice: 'Non-assertive conduct', index: '0' } });
    expect(await loadLegalBenchTask('hearsay', { split: 'train', env: {} })).toHaveLength(5);
  });

  it('bundled hearsay is read from files identical to the upstream ones (sha256 recorded when bundled)', async () => {
    const test = resolveLegalBenchFile('hearsay', { env: {} });
    const train = resolveLegalBenchFile('hearsay', { split: 'train', env: {} });
    expect([test, train]).toEqual([join(BUNDLED_LEGALBENCH_DIR, 'hearsay', 'test.jsonl'), join(BUNDLED_LEGALBENCH_DIR, 'hearsay', 'train.jsonl')]);
    // sha256sum of upstream hearsay.test.jsonl / hearsay.train.jsonl (loc110504/ACAL, see SOURCE.md)
    expect(await fileChecksum(test)).toBe('74c4e2d5fabd18cdab3130d8135c0008a045cf58ee31face5bae2a6800d6d0b6');
    expect(await fileChecksum(train)).toBe('c8bdb2d248a586f2f2f34f4ec21774c10045e6b303c64ad731a6bfd2d71b1a86');
  });

  it('does not ship learned_hands_courts (CC BY-NC-SA): a clear error says to pass --data', () => {
    expect(() => resolveLegalBenchFile('learned_hands_courts', { env: {} })).toThrow(/not found[\s\S]*CC BY-NC-SA 4.0 and is not bundled; pass --data DIR/);
  });

  it('loads learned_hands_courts from a user-supplied directory (--data DIR or LEXCASE_LEGALBENCH_DIR)', async () => {
    const xs = await loadLegalBenchTask('learned_hands_courts', { dir: USER_DIR, env: {} });
    expect(xs).toHaveLength(6);
    expect(xs.map((x) => x.label)).toEqual(['Yes', 'No', 'Yes', 'No', 'Yes', 'No']);
    expect(xs[0]).toMatchObject({ id: 'learned_hands_courts-test-0', meta: { index: '0', task: 'learned_hands_courts', split: 'test' } });
    expect(xs[0].text).toMatch(/^I live in Ohio and was served with papers for a small claims case/);
    const viaEnv = await loadLegalBenchTask('learned_hands_courts', { split: 'train', env: { LEXCASE_LEGALBENCH_DIR: USER_DIR } });
    expect(viaEnv.map((x) => [x.id, x.label])).toEqual([
      ['learned_hands_courts-train-0', 'Yes'],
      ['learned_hands_courts-train-1', 'No'],
    ]);
  });

  it('a --data (or $LEXCASE_LEGALBENCH_DIR) naming a file or no directory is refused, not passed over for the bundled hearsay', async () => {
    const dir = join(tmp, 'given-file', 'hearsay');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, 'test.tsv');
    writeFileSync(file, 'index\ttext\tanswer\n0\tShe said it rained.\tYes\n');
    // before: the file was not looked in (it is no directory) and the 94 bundled items loaded in its place
    await expect(loadLegalBenchTask('hearsay', { dir: file, env: {} })).rejects.toThrow(`--data ${file} is a file, not a directory`);
    await expect(loadLegalBenchTask('hearsay', { dir: join(tmp, 'no-such-dir'), env: {} })).rejects.toThrow(/--data .*no-such-dir: no such directory/);
    expect(() => resolveLegalBenchFile('hearsay', { env: { LEXCASE_LEGALBENCH_DIR: file } })).toThrow(
      `$LEXCASE_LEGALBENCH_DIR ${file} is a file, not a directory`,
    );
    // its directory is read
    expect(await loadLegalBenchTask('hearsay', { dir: join(tmp, 'given-file'), env: {} })).toHaveLength(1);
  });

  it('reads the LegalBench repository TSV layout and names the file and line of a bad row', async () => {
    mkdirSync(join(tmp, 'hearsay'));
    writeFileSync(join(tmp, 'hearsay', 'test.tsv'), 'answer\tindex\ttext\nYes\t0\tShe said it rained.\nMaybe\t1\tHe nodded.\n');
    await expect(loadLegalBenchTask('hearsay', { dir: tmp })).rejects.toThrow(/hearsay[/\\]test.tsv:3: field "answer" must be "Yes" or "No", got "Maybe"/);
    writeFileSync(join(tmp, 'hearsay.test.jsonl'), '{"index":"0","answer":"Yes","text":"a"}\n{oops\n');
    await expect(loadLegalBenchTask('hearsay', { dir: tmp })).rejects.toThrow(/hearsay.test.jsonl:2: invalid JSON/);
  });

  it('a TSV row whose text opens a quote it never closes is refused naming its line, not merged with the rows after it', async () => {
    // Written without quoting (a tab join): row 3's text starts with a quote; the next quote in the file is
    // in row 6's text (the bundled `lyrics of "Viva la Vida"`). csv-parse took rows 4-6 into row 3's text,
    // with row 6's label: 12 rows read as 9 items, and `run acal` scored 9 with exit 0.
    const bundled = (await loadLegalBenchTask('hearsay', { env: {} })).slice(0, 12);
    const rows = bundled.map((x) => [x.label, x.meta?.index, x.text]);
    rows[3][2] = '"I saw the defendant at the bank, testified the witness.';
    const dir = join(tmp, 'unclosed');
    mkdirSync(join(dir, 'hearsay'), { recursive: true });
    writeFileSync(join(dir, 'hearsay', 'test.tsv'), `answer\tindex\ttext\n${rows.map((r) => r.join('\t')).join('\n')}\n`);
    await expect(loadLegalBenchTask('hearsay', { dir })).rejects.toThrow(
      /hearsay[/\\]test\.tsv:5: field "text" opens with a quote \("\) and runs to line 8, taking 3 line break\(s\) and 6 tabs/,
    );
    // the same rows written as pandas writes them (quoted, "" inside, \r\n, a byte-order mark, a multi-line text): all 12 items
    const q = (s: string) => (/["\t\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
    rows[5][2] = 'A text\nover two lines.';
    // a complaint's text as LegalBench's ssla_* tasks quote it: line numbers and paragraph numbers between tabs
    rows[6][2] = ' \n10 \t11. \tPlaintiff Ryan Kelly purchased common stock \n11 \t12. \tDefendant "EA" develops game software.';
    writeFileSync(join(dir, 'hearsay', 'test.tsv'), `\ufeffanswer\tindex\ttext\r\n${rows.map((r) => r.map((c) => q(String(c))).join('\t')).join('\r\n')}\r\n`);
    const xs = await loadLegalBenchTask('hearsay', { dir });
    expect(xs.map((x) => [x.label, x.meta?.index, x.text])).toEqual(rows);
    // a bad row after the multi-line text is named by the line it starts on (before: its row number + 1)
    rows[7][0] = 'Maybe';
    writeFileSync(join(dir, 'hearsay', 'test.tsv'), `answer\tindex\ttext\n${rows.map((r) => r.map((c) => q(String(c))).join('\t')).join('\n')}\n`);
    await expect(loadLegalBenchTask('hearsay', { dir })).rejects.toThrow(/test\.tsv:12: field "answer" must be "Yes" or "No", got "Maybe"/);
  });

  it('a repeated index is refused naming the line of the repeat and of the first', async () => {
    const dir = join(tmp, 'dup');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'hearsay.test.jsonl'),
      '{"index":"0","answer":"Yes","text":"a"}\n\n{"index":"1","answer":"No","text":"b"}\n{"index":0,"answer":"No","text":"c"}\n',
    );
    await expect(loadLegalBenchTask('hearsay', { dir })).rejects.toThrow(/hearsay\.test\.jsonl:4: duplicate index "0" \(first on line 1\)/);
  });

  it('the same text under two answers is refused naming both lines (one of the two items was wrong whatever a model answered); the same text and answer twice loads', async () => {
    const rows = readFileSync(join(BUNDLED_LEGALBENCH_DIR, 'hearsay', 'test.jsonl'), 'utf8')
      .trim()
      .split('\n');
    const r7 = JSON.parse(rows[7]);
    const dir = join(tmp, 'twin');
    mkdirSync(dir, { recursive: true });
    const flipped = { ...r7, index: '94', text: ` ${r7.text.toUpperCase()}`, answer: r7.answer === 'Yes' ? 'No' : 'Yes' };
    writeFileSync(join(dir, 'hearsay.test.jsonl'), [...rows, JSON.stringify(flipped)].join('\n') + '\n');
    await expect(loadLegalBenchTask('hearsay', { dir })).rejects.toThrow(
      new RegExp(
        `hearsay\\.test\\.jsonl:95: field "text" is the text of line 8 \\(index "7", answer "${r7.answer}"\\) with answer "${flipped.answer}": no answer to that text can be right for both`,
      ),
    );
    writeFileSync(join(dir, 'hearsay.test.jsonl'), [...rows, JSON.stringify({ ...flipped, answer: r7.answer })].join('\n') + '\n');
    expect(await loadLegalBenchTask('hearsay', { dir })).toHaveLength(95);
  });

  it('a TSV whose header names a column twice is refused naming it (before: two answer columns read the second as the gold)', async () => {
    const dir = join(tmp, 'twocols');
    mkdirSync(join(dir, 'hearsay'), { recursive: true });
    const r = JSON.parse(readFileSync(join(BUNDLED_LEGALBENCH_DIR, 'hearsay', 'test.jsonl'), 'utf8').split('\n')[0]);
    writeFileSync(join(dir, 'hearsay', 'test.tsv'), `index\tanswer\ttext\tanswer\n0\t${r.answer}\t${r.text}\t${r.answer === 'Yes' ? 'No' : 'Yes'}\n`);
    await expect(loadLegalBenchTask('hearsay', { dir })).rejects.toThrow(/test\.tsv[\s\S]*answer[\s\S]*the header names this column twice \(columns 2 and 4\)/);
  });

  it('rejects an unknown task with the known names', () => {
    expect(() => resolveLegalBenchFile('contract_nli')).toThrow(/unknown dataset "contract_nli"[\s\S]*hearsay, learned_hands_courts/);
  });
});
