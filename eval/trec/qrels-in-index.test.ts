/**
 * `eval retrieval --topics --qrels`: a relevant judgement naming an id the index does not hold counts
 * as relevant and never retrieved (trec_eval's rule), so a qrels file of other ids lowers the
 * figures. Before, nothing said so: a corpus whose id "café-1" is spelled NFD (e + U+0301) with
 * qrels in NFC got recall@10 0.5 where the passage is ranked first, and document-level qrels (D1,
 * D2) over a passage run got 0 everywhere, exit 0, no word. Now a warning (stderr, --json
 * `warnings`, the report) counts them and names the likely cause.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { runCli } from '../../tests/support/run-cli.js';

const NFD_ID = 'café-1'.normalize('NFD');
const NFC_ID = 'café-1'.normalize('NFC');

let dir: string;
let index: string;
let topics: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-qrels-in-index-'));
  index = join(dir, 'idx');
  const passages = [
    { id: NFD_ID, text: 'The café owner was negligent in mopping the floor.', docId: 'D1', source: 't' },
    { id: 'p2', text: 'A contract needs offer, acceptance and consideration.', docId: 'D2', source: 't' },
    { id: 'p3', text: 'Negligence requires a duty of care and its breach.', docId: 'D1', source: 't' },
  ];
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: index, corpusName: 'mine', workers: 0 },
  );
  topics = join(dir, 't.tsv');
  await writeFile(topics, 'q1\tcafé owner negligent\nq2\tcontract acceptance\n');
}, 60_000);

afterEach(() => {
  process.exitCode = 0;
});

const evalWith = async (qrelsText: string, ...extra: string[]) => {
  const qrels = join(dir, `qrels-${Math.random().toString(36).slice(2)}.txt`);
  await writeFile(qrels, qrelsText);
  const r = await runCli([
    '--json',
    'eval',
    'retrieval',
    '--topics',
    topics,
    '--qrels',
    qrels,
    '--index',
    index,
    '--method',
    'bm25',
    '--metrics',
    'recall@10',
    '--iterations',
    '100',
    ...extra,
  ]);
  expect(r.code, r.stderr).toBe(0);
  return { r, rep: JSON.parse(r.stdout) };
};

describe('eval retrieval --topics: relevant judgements naming ids not in the index are said', () => {
  it('qrels in NFC for an NFD corpus id: the passage ranked first counts as a miss, and the warning names both forms', async () => {
    const { r, rep } = await evalWith(`q1 0 ${NFC_ID} 1\nq2 0 p2 1\n`);
    // the passage is first for q1, but its id is another string than the qrels': trec_eval's 0 for q1
    expect(rep.results[0].means['recall@10'].estimate).toBe(0.5);
    const w = `1 of 2 relevant judgements (1 topic) name passages not in ${index} (e.g. ${JSON.stringify(NFC_ID)})`;
    expect(rep.warnings?.[0]).toContain(w);
    expect(rep.warnings[0]).toContain('"caf\\u00e9-1" is "cafe\\u0301-1" in the index, another Unicode normalisation form (NFC/NFD) of the same text');
    expect(r.stderr).toContain(w);
  });

  it('document-level qrels over a passage run: all judgements missing, the hint names --aggregate; with --aggregate maxp none is', async () => {
    const { r, rep } = await evalWith('q1 0 D1 1\nq2 0 D2 1\n');
    expect(rep.results[0].means['recall@10'].estimate).toBe(0);
    expect(rep.warnings?.[0]).toContain(`all 2 relevant judgements (2 topics) name passages not in ${index} (e.g. "D1", "D2")`);
    expect(rep.warnings[0]).toContain('some are document ids of this index: for document-level qrels add --aggregate maxp');
    expect(r.stderr).toContain('--aggregate maxp');
    const agg = await evalWith('q1 0 D1 1\nq2 0 D2 1\n', '--aggregate', 'maxp');
    expect(agg.rep.results[0].means['recall@10'].estimate).toBe(1);
    expect(agg.rep.warnings).toBeUndefined();
    expect(agg.r.stderr).toBe('');
  });

  it('says nothing when every relevant judgement is an index id; non-relevant (grade 0) judgements and topics not searched are not counted', async () => {
    const { r, rep } = await evalWith(`q1 0 ${NFD_ID} 1\nq1 0 gone 0\nq2 0 p2 1\nq9 0 elsewhere 1\n`);
    expect(rep.results[0].means['recall@10'].estimate).toBe(1);
    expect(rep.warnings).toBeUndefined();
    expect(r.stderr).toBe('');
  });

  it('a judgement of another corpus: the hint says to check the qrels are for this index', async () => {
    const { rep } = await evalWith('q1 0 other-42 1\nq2 0 p2 1\n');
    expect(rep.warnings?.[0]).toMatch(
      /1 of 2 relevant judgements \(1 topic\) name passages not in .*\(e\.g\. "other-42"\): they count as relevant and never retrieved.*check that the qrels are for this index's passages$/,
    );
  });
});
