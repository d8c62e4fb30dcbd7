/**
 * The top k of a ranking does not depend on the depth searched when scores tie at the cut: a corpus
 * with groups of passages of the same text (exact ties, as duplicate passages give), ids chosen so
 * the retriever's internal doc order (ascending, in build order) is the opposite of trec_eval's tie
 * order (docid descending). Before the fix `search --topics -k 5` kept five of six tied passages by
 * doc index and only then ordered them, so its top 5 differed from the first 5 lines of `-k 1000`,
 * and `eval retrieval --hits 5` gave other @5 figures than `--hits 1000`.
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../indexer/build.js';
import type { Passage } from '../corpora/types.js';
import { openRetriever } from './open.js';
import { evalRetrieval } from '../eval/retrieval-eval.js';
import { runCli } from '../tests/support/run-cli.js';
import { searchTopK } from './top-k.js';
import { LexcaseRetriever, type LexcaseRetrieverInput } from './langchain-retriever.js';
import { openIndex } from './open-index.js';
import { searchPassages } from '../serve/query/index-queries.js';

const GROUPS = [
  'hearsay statement offered to prove the truth of the matter asserted',
  'negligence duty breach causation damages',
  'adverse possession open notorious hostile continuous',
  'consideration bargained for exchange contract',
];
// Twelve copies of each text (ids g0-01 … g0-12 in build order: ascending), one more with an extra word (a lower score), and fillers.
const COPIES = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'));
const passages: Passage[] = GROUPS.flatMap((text, g) => [
  ...COPIES.map((c) => ({ id: `g${g}-${c}`, text, source: 'syn' })),
  { id: `g${g}-x`, text: `${text} appeal`, source: 'syn' },
]);
for (let i = 0; i < 30; i++) passages.push({ id: `f${String(i).padStart(2, '0')}`, text: `filler passage number ${i} about tax and wages`, source: 'syn' });
const topics = ['hearsay truth matter', 'negligence breach', 'adverse possession hostile', 'consideration contract'];

let dir: string;
let index: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-cut-'));
  index = join(dir, 'idx');
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: index, corpusName: 'ties', workers: 0 },
  );
  await writeFile(join(dir, 'topics.tsv'), topics.map((t, i) => `t${i}\t${t}\n`).join(''));
  // relevant: the copy trec_eval ranks first (g*-12) and one it ranks fourth (g*-09)
  await writeFile(join(dir, 'qrels.txt'), topics.map((_, i) => `t${i} 0 g${i}-12 1\nt${i} 0 g${i}-09 1\n`).join(''));
}, 60_000);

afterEach(() => {
  process.exitCode = 0;
});

const linesByTopic = (text: string) => {
  const by = new Map<string, string[]>();
  for (const l of text.trim().split('\n')) {
    const [qid, , docid] = l.split(' ');
    by.set(qid, [...(by.get(qid) ?? []), docid]);
  }
  return by;
};

describe('the top k at a tied cut-off', () => {
  it('search --topics -k 5 writes the first 5 lines of -k 1000 for every topic', async () => {
    const files: Record<string, string> = {};
    for (const k of ['5', '1000']) {
      files[k] = join(dir, `run.k${k}.txt`);
      const r = await runCli(['search', '--topics', join(dir, 'topics.tsv'), '--index', index, '-k', k, '--run-file', files[k], '--threads', '1', '--json']);
      expect(r.code).toBe(0);
    }
    const k5 = linesByTopic(await readFile(files['5'], 'utf8'));
    const k1000 = linesByTopic(await readFile(files['1000'], 'utf8'));
    expect(k5.size).toBe(topics.length);
    for (const [qid, deep] of k1000) expect([qid, k5.get(qid)]).toEqual([qid, deep.slice(0, 5)]);
    // trec_eval's order of the tied copies: docid descending
    expect(k5.get('t0')).toEqual(['g0-12', 'g0-11', 'g0-10', 'g0-09', 'g0-08']);
  });

  it('eval retrieval --topics gives the same @5 figures with --hits 5, 10 and 1000', async () => {
    const means: Record<string, number>[] = [];
    for (const hits of ['5', '10', '1000']) {
      const r = await runCli([
        '--json',
        'eval',
        'retrieval',
        '--topics',
        join(dir, 'topics.tsv'),
        '--qrels',
        join(dir, 'qrels.txt'),
        '--index',
        index,
        '--method',
        'bm25',
        '--hits',
        hits,
        '--metrics',
        'recall@5,ndcg@5,mrr@5',
      ]);
      expect(r.code).toBe(0);
      const m = JSON.parse(r.stdout).results[0].means;
      means.push(Object.fromEntries(Object.entries(m).map(([k, v]) => [k, (v as { estimate: number }).estimate])));
    }
    // both relevant copies in the top 5 (ranks 1 and 4): recall@5 1, mrr@5 1
    expect(means[0]['recall@5']).toBe(1);
    expect(means[0]['mrr@5']).toBe(1);
    expect(means[1]).toEqual(means[0]);
    expect(means[2]).toEqual(means[0]);
  });

  it('eval retrieval --dataset: a figure at k is that of a deeper search', async () => {
    const retriever = await openRetriever(index, 'bm25');
    const questions = topics.map((t, i) => ({ id: `q${i}`, prompt: '', question: t, choices: [], answer: '', goldPassageIds: [`g${i}-12`] }));
    const at = async (ks: number[]) =>
      (await evalRetrieval({ retriever, questions, ks, queryOf: (q) => q.question, iterations: 20 })).perQuery.map((q) => q.firstRank);
    // depth max(k, 10) = 10 cuts the twelve tied copies: the gold one (ranked first by trec_eval) is still first
    expect(await at([3])).toEqual(await at([3, 1000]));
    expect(await at([3])).toEqual([1, 1, 1, 1]);
  });

  it('searchTopK asks past k only while the hit after the k-th ties with it', async () => {
    const retriever = await openRetriever(index, 'bm25');
    const depths: number[] = [];
    const top = await searchTopK((d) => (depths.push(d), retriever.search('hearsay truth matter', { k: d })), 2);
    expect(top.map((h) => [h.id, h.rank])).toEqual([
      ['g0-12', 1],
      ['g0-11', 2],
    ]);
    // 3, 6, 12: all tied; 24: thirteen hits, fewer than asked, so every hit there is
    expect(depths).toEqual([3, 6, 12, 24]);
  });
});

describe('interactive search, the query service and LangChain list tied hits as search --topics and eval rank them', () => {
  const trecTop3 = ['g0-12', 'g0-11', 'g0-10'];

  it('lexcase search -k 3: the ranks are those of the run file (ties by docid descending), the scores unchanged', async () => {
    const r = await runCli(['--json', 'search', 'hearsay truth matter', '--index', index, '-k', '3']);
    expect(r.code).toBe(0);
    const hits = JSON.parse(r.stdout).hits as { id: string; rank: number; score: number }[];
    expect(hits.map((h) => [h.id, h.rank])).toEqual(trecTop3.map((id, i) => [id, i + 1]));
    const raw = await (await openRetriever(index, 'bm25')).search('hearsay truth matter', { k: 1 });
    expect(hits.map((h) => h.score)).toEqual([raw[0].score, raw[0].score, raw[0].score]);
  });

  it('the query service (/v1/search, MCP, the explorer): the same order, with and without a source filter', async () => {
    const ix = await openIndex(index);
    try {
      const plain = await searchPassages(ix, { query: 'hearsay truth matter', method: 'bm25', k: 3 });
      expect(plain.hits.map((h) => h.id)).toEqual(trecTop3);
      const filtered = await searchPassages(ix, { query: 'hearsay truth matter', method: 'bm25', k: 3, sources: ['syn'] });
      expect(filtered.hits.map((h) => h.id)).toEqual(trecTop3);
    } finally {
      await ix.close();
    }
  });

  it('the LangChain retriever: the same order from an index dir or an opened retriever, with an object or a function filter or none (was: the doc order)', async () => {
    const ids = async (o: Partial<LexcaseRetrieverInput>) =>
      (await new LexcaseRetriever({ index, k: 3, ...o }).invoke('hearsay truth matter')).map((d) => d.metadata.id);
    expect(await ids({})).toEqual(trecTop3);
    expect(await ids({ index: await openRetriever(index, 'bm25') })).toEqual(trecTop3);
    expect(await ids({ filter: { source: 'syn' } })).toEqual(trecTop3);
    expect(await ids({ filter: (md) => md.source === 'syn' })).toEqual(trecTop3);
  });
});
