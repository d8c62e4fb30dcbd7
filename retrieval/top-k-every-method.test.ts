/**
 * The prefix rule for every method: a run's top k is the first k of a deeper run, in trec_eval's tie
 * order, for bm25, qld, dense and hybrid — hybrid at k = its depth included. A hybrid was searched no
 * deeper than its depth (searchTopK's old `rankingDepth` bound), so at k = depth a tie in the fused
 * scores at the cut kept the fused order's hit, not trec_eval's: on barexam val (hybrid, depth 1000)
 * mbe_847's 1000th hit was usconst-art4-sec3#p0 with -k 1000 and ussc-4172498#p10 with -k 1001.
 *
 * Data: groups of identical passages (exact ties in every method: the same text scores and embeds
 * alike), ids in build order the opposite of trec_eval's tie order, fillers; dense from the tiny
 * BERT fixture; the hybrid fuses bm25 and dense at equal weights, which rank different passages
 * first for the last four topics, so their fused scores tie pairwise and an odd k = depth cuts a tie
 * (the old code kept f16 at rank 3 of "tax wages contract", a run of 8 ranks g3-05 there).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Passage } from '../corpora/types.js';
import { buildIndex } from '../indexer/build.js';
import { runCli } from '../tests/support/run-cli.js';
import { closeSparseIndexes } from './open.js';

const modelDir = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'tests/fixtures/tiny-embedder/tiny-bert');
const GROUPS = [
  'hearsay statement offered to prove the truth of the matter asserted',
  'negligence duty breach causation damages',
  'adverse possession open notorious hostile continuous',
  'consideration bargained for exchange contract',
];
const COPIES = Array.from({ length: 6 }, (_, i) => String(i + 1).padStart(2, '0'));
const passages: Passage[] = GROUPS.flatMap((text, g) => [
  ...COPIES.map((c) => ({ id: `g${g}-${c}`, text, source: 'syn' })),
  { id: `g${g}-x`, text: `${text} appeal`, source: 'syn' },
]);
for (let i = 0; i < 20; i++) passages.push({ id: `f${String(i).padStart(2, '0')}`, text: `filler passage number ${i} about tax and wages`, source: 'syn' });
// the last four: bm25 and dense rank different passages first (a group's copies, fillers), so their fused scores tie pairwise
const topics = [
  'hearsay truth matter',
  'negligence breach',
  'adverse possession hostile',
  'consideration contract',
  'tax wages contract',
  'filler hearsay',
  'wages negligence',
  'possession tax',
];

let dir: string;
let index: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-prefix-'));
  index = join(dir, 'idx');
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: index, corpusName: 'ties', methods: ['bm25', 'qld', 'dense'], workers: 0, dense: { embedder: { provider: 'transformers', modelDir } } },
  );
  await writeFile(join(dir, 'topics.tsv'), topics.map((t, i) => `t${i}\t${t}\n`).join(''));
}, 120_000);

afterAll(async () => {
  await closeSparseIndexes();
  await rm(dir, { recursive: true, force: true });
});

afterEach(() => {
  process.exitCode = 0;
});

/** search --topics's run file, its docids per topic in rank order. */
async function run(method: string, k: number, extra: readonly string[] = []): Promise<Map<string, string[]>> {
  const file = join(dir, `run.${method}.${extra.join('').replace(/[^a-z0-9]/gi, '')}.k${k}.txt`);
  const r = await runCli([
    'search',
    '--topics',
    join(dir, 'topics.tsv'),
    '--index',
    index,
    '--method',
    method,
    '-k',
    String(k),
    '--run-file',
    file,
    '--threads',
    '1',
    ...extra,
  ]);
  expect(r.code, r.stderr).toBe(0);
  const by = new Map<string, string[]>();
  for (const l of (await readFile(file, 'utf8')).trim().split('\n')) {
    const [qid, , docid] = l.split(' ');
    by.set(qid, [...(by.get(qid) ?? []), docid]);
  }
  return by;
}

describe('top k is the first k of top k + 5 for every method, ties across the cut', () => {
  it.each([['bm25'], ['qld'], ['dense']])(
    '%s, k = 3, 5, 6, 7',
    async (method) => {
      for (const k of [3, 5, 6, 7]) {
        const [top, deeper] = [await run(method, k), await run(method, k + 5)];
        for (const [qid, deep] of deeper) expect([method, k, qid, top.get(qid)]).toEqual([method, k, qid, deep.slice(0, k)]);
      }
    },
    120_000,
  );

  it('hybrid at k = its depth: the first k of a run of k + 5 at the same depth (was: the fused order on a tie at the cut)', async () => {
    let crossed = 0;
    for (const k of [3, 5, 6, 7]) {
      const depth = ['--hybrid-methods', 'bm25,dense', '--depth', String(k)];
      const [top, deeper] = [await run('hybrid', k, depth), await run('hybrid', k + 5, depth)];
      for (const [qid, deep] of deeper) {
        expect(['hybrid', k, qid, top.get(qid)]).toEqual(['hybrid', k, qid, deep.slice(0, k)]);
        if (deep.length > k) crossed++;
      }
    }
    // the fused ranking goes past its depth (the union of the components' lists), so the cut at k = depth has hits below it
    expect(crossed).toBeGreaterThan(0);
    expect((await run('hybrid', 3, ['--hybrid-methods', 'bm25,dense', '--depth', '3'])).get('t4')).toEqual(['g3-06', 'f04', 'g3-05']);
  }, 120_000);
});
