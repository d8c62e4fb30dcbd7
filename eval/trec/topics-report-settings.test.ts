/**
 * `eval retrieval --topics`: the settings that change the figures are in the report. `--ties anserini`
 * moved recall@1 from 0 to 1 on two identical passages (the gold one second by index order), and
 * `--topic-field description` changed every query, while the two reports (--json, --out, the header)
 * were otherwise identical: nothing said which setting made which figure.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../tests/support/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'lexcase-topics-settings-'));
const at = (f: string) => join(dir, f);
beforeAll(async () => {
  const same = 'the adverse possession of land requires open and notorious use';
  const passages = [
    { id: 'd1', text: same },
    { id: 'd2', text: same },
    { id: 'd3', text: 'contract formation needs offer acceptance and consideration' },
    { id: 'd4', text: 'negligence requires duty breach causation and damages' },
  ];
  writeFileSync(at('p.jsonl'), `${passages.map((p) => JSON.stringify(p)).join('\n')}\n`);
  writeFileSync(at('t.tsv'), 't1\tadverse possession open notorious\n');
  writeFileSync(at('t.trec'), '<top>\n<num> Number: t1\n<title> contract formation\n<desc> Description:\nadverse possession open notorious\n</top>\n');
  writeFileSync(at('q.qrels'), 't1 0 d1 1\n');
  const r = await runCli(['index', 'build', at('p.jsonl'), '--out', at('ix'), '--workers', '0']);
  expect(r.code, r.stderr).toBe(0);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const evalTopics = (...more: string[]) =>
  runCli(['--json', 'eval', 'retrieval', '--index', at('ix'), '--qrels', at('q.qrels'), '--metrics', 'recall@1', ...more]);

describe('eval retrieval --topics records what moved its figures', () => {
  it('--ties anserini: in --json (ties) and the header; absent without it', async () => {
    const plain = JSON.parse((await evalTopics('--topics', at('t.tsv'))).stdout);
    const anserini = JSON.parse((await evalTopics('--topics', at('t.tsv'), '--ties', 'anserini')).stdout);
    expect(plain.results[0].means['recall@1'].estimate).toBe(0);
    expect(anserini.results[0].means['recall@1'].estimate).toBe(1);
    expect(plain.ties).toBeUndefined();
    expect(anserini.ties).toBe('anserini');
    const text = await runCli(['eval', 'retrieval', '--index', at('ix'), '--qrels', at('q.qrels'), '--topics', at('t.tsv'), '--ties', 'anserini']);
    expect(text.stdout).toMatch(/hits a topic · ties anserini/);
  });

  it('--topic-field description: in --json (topics.fields) and the header', async () => {
    const title = JSON.parse((await evalTopics('--topics', at('t.trec'))).stdout);
    const desc = JSON.parse((await evalTopics('--topics', at('t.trec'), '--topic-field', 'description')).stdout);
    expect(title.topics.fields).toBeUndefined();
    expect(desc.topics.fields).toEqual(['description']);
    const text = await runCli(['eval', 'retrieval', '--index', at('ix'), '--qrels', at('q.qrels'), '--topics', at('t.trec'), '--topic-field', 'description']);
    expect(text.stdout).toContain('(1; query: description)');
  });
});
