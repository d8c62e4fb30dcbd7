/**
 * `eval retrieval --dataset-file`: a gold id the index does not hold is a miss (as in trec_eval, where a
 * relevant document never retrieved counts in the topic's recall), and the report's warning says so.
 * Where the question file, not the index, is the likely cause — the id is in the index in the other
 * Unicode form (NFC/NFD), or a CSV cell holds several ids (`contract;hearsay`, read as one id) — the
 * warning names it; before, it said only "Index a corpus that contains the gold passages", of an index
 * that holds every one of them.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../indexer/build.js';
import { runCli } from '../tests/support/run-cli.js';

let dir: string;
let index: string;
let qa: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-goldhint-'));
  index = join(dir, 'idx');
  const passages = [
    { id: 'hearsay', text: 'Hearsay is an out of court statement offered to prove the truth of the matter asserted.', source: 't' },
    { id: 'contract', text: 'A contract needs offer, acceptance and consideration.', source: 't' },
    { id: 'caf\u00e9', text: 'A café owner owes invitees a duty of reasonable care for the premises.', source: 't' },
    { id: 'tort', text: 'Negligence needs a duty, a breach, causation and damages.', source: 't' },
  ];
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: index, corpusName: 'goldhint', workers: 0 },
  );
  qa = join(dir, 'qa.csv');
  await writeFile(
    qa,
    [
      'idx,prompt,question,choice_a,choice_b,choice_c,choice_d,answer,gold_idx',
      'q1,,out of court statement hearsay,a,b,c,d,A,hearsay',
      'q2,,offer acceptance consideration,a,b,c,d,B,contract;hearsay',
      'q3,,duty of care for the premises,a,b,c,d,C,cafe\u0301',
      'q4,,negligence breach causation,a,b,c,d,D,tort',
    ].join('\n') + '\n',
  );
}, 60_000);

afterEach(() => {
  process.exitCode = 0;
});

describe('eval retrieval --dataset-file with gold ids the index does not hold as written', () => {
  it('counts them as misses (n = 4) and names the likely cause: another Unicode form, several ids in one field', async () => {
    const args = ['eval', 'retrieval', '--index', index, '--dataset-file', qa, '--split', 'all', '--method', 'bm25', '--k', '1,10'];
    const text = await runCli(args);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('(n = 4, split seed 13;');
    expect(text.stdout).toContain(
      '**Warning:** 2 of 4 questions have no gold passage in this index (e.g. q2, q3); they count as misses. Likely cause: "cafe\\u0301" (question q3) is "caf\\u00e9" in the index: another Unicode normalisation form (NFC/NFD) of the same text; write the gold ids as the corpus spells them; "contract;hearsay" (question q2) is several passage ids of this index in one gold field, read as one id; this format has one gold passage id per question.',
    );
    const j = JSON.parse((await runCli(['--json', ...args])).stdout);
    expect(j.goldMissing.questions).toBe(2);
    expect(j.goldMissing.hint).toMatch(/^"cafe\\u0301" \(question q3\) is "caf\\u00e9" in the index/);
    // the two questions score 0: Recall@10 = 2 of 4
    expect(j.results[0].metrics['recall@10'].estimate).toBe(0.5);
  });
});
