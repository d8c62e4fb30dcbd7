/**
 * Hybrid fuses each component's run as it is printed. It fused each retriever's internal tie order
 * (sparse: doc index; dense: passage id ascending), not the order `search --method <component>`,
 * its run file and /v1 print (trec_eval's: ties by docid descending): of two passages with equal
 * dense scores the hybrid's explain gave mbe_137 dense rank 15 and mbe_175 16 while `search --method
 * dense` printed them 16 and 15, so 604 of 1,000 fused scores differed from RRF recomputed over the
 * printed component runs, and a tie across the depth cut kept another passage. Now each component
 * list is its printed run (retrieval/top-k.ts searchTopK), so RRF over the component runs as
 * `search --topics` writes them gives the hybrid's scores exactly.
 *
 * Data: the bundled Bar Exam QA gold passages (1,149; ten texts occur twice, e.g. mbe_126 =
 * mbe_2644, so their bm25 and qld scores tie) with bm25 + qld; the val questions (124) and each
 * duplicated passage's opening words as queries; hybrid RRF k = 100, bm25 0.5, qld 1.5, depth 50.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPassages, loadQuestions } from '../corpora/registry.js';
import { retrievalQuery } from '../corpora/barexam.js';
import type { Passage } from '../corpora/types.js';
import type { Topic } from '../corpora/topics.js';
import { batchSearch } from '../eval/trec/batch-search.js';
import type { TrecRun } from '../eval/trec/run.js';
import { buildIndex } from '../indexer/build.js';
import { tempDir } from '../indexer/build-test-helpers.js';
import { closeSparseIndexes, openRetriever } from './open.js';
import type { Retriever } from './types.js';

const tmp = tempDir('lexcase-hybrid-ties-');
const dir = join(tmp.dir, 'barexam');
const DEPTH = 50;
const RRF_K = 100;
const WEIGHTS: Record<string, number> = { bm25: 0.5, qld: 1.5 };
let hybrid: Retriever;
let topics: Topic[];
let duplicated: string[][];

beforeAll(async () => {
  const passages: Passage[] = [];
  for await (const p of loadPassages('barexam')) passages.push(p);
  await buildIndex(passages, { out: dir, methods: ['bm25', 'qld'], workers: 0 });
  hybrid = await openRetriever(dir, 'hybrid', { methods: 'bm25,qld', rrfK: RRF_K, weights: WEIGHTS, depth: DEPTH });
  const byText = new Map<string, string[]>();
  for (const p of passages) byText.set(p.text, [...(byText.get(p.text) ?? []), p.id]);
  duplicated = [...byText.values()].filter((ids) => ids.length > 1);
  const questions = await loadQuestions('barexam', 'val');
  topics = [
    ...questions.map((q) => ({ id: q.id, text: retrievalQuery(q) })),
    ...duplicated.map((ids) => ({
      id: `dup-${ids[0]}`,
      text: passages
        .find((p) => p.id === ids[0])!
        .text.split(/\s+/)
        .slice(0, 12)
        .join(' '),
    })),
  ];
}, 120_000);
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

/** RRF over printed runs: each run's documents in file order, rank = line position. */
function rrfOfRuns(runs: Record<string, TrecRun>, qid: string): Map<string, number> {
  const acc = new Map<string, number>();
  for (const [m, run] of Object.entries(runs)) (run.get(qid) ?? []).forEach((d, i) => acc.set(d.docid, (acc.get(d.docid) ?? 0) + WEIGHTS[m] / (RRF_K + i + 1)));
  return acc;
}

describe('hybrid fuses the component runs as printed', () => {
  it('RRF recomputed from `search --topics` runs of bm25 and qld equals every hybrid score and rank, duplicated passages (tied scores) included', async () => {
    const runs: Record<string, TrecRun> = {};
    for (const m of ['bm25', 'qld']) runs[m] = (await batchSearch(await openRetriever(dir, m), topics, { k: DEPTH })).run;
    expect(duplicated.length).toBeGreaterThanOrEqual(10);
    let tiedPairsSeen = 0;
    for (const t of topics) {
      const expected = rrfOfRuns(runs, t.id);
      const hits = await hybrid.search(t.text, { k: expected.size });
      expect(hits.map((h) => [h.id, h.score])).toEqual(
        [...expected].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([id, s]) => [id, s]),
      );
      const ids = new Set(hits.map((h) => h.id));
      tiedPairsSeen += duplicated.filter((pair) => pair.every((id) => ids.has(id))).length;
    }
    // the duplicated passages' queries rank both copies (equal scores) within the depth
    expect(tiedPairsSeen).toBeGreaterThanOrEqual(duplicated.length);
  });

  it("explain gives each component's rank as its printed run has it: of two tied copies, the higher id first", async () => {
    const [lo, hi] = ['mbe_126', 'mbe_2644'];
    const t = topics.find((x) => x.id === `dup-${lo}`)!;
    const bm25 = (await batchSearch(await openRetriever(dir, 'bm25'), [t], { k: DEPTH })).run.get(t.id)!;
    const rank = (id: string) => bm25.findIndex((d) => d.docid === id) + 1;
    expect(bm25[rank(lo) - 1].score).toBe(bm25[rank(hi) - 1].score);
    // trec_eval's order: "mbe_2644" > "mbe_126" byte-wise, so it is printed first
    expect(rank(hi)).toBe(rank(lo) - 1);
    for (const id of [lo, hi]) {
      const e = await hybrid.explain!(t.text, id);
      expect((e.detail as { components: Record<string, { rank: number }> }).components.bm25.rank).toBe(rank(id));
    }
  });

  it('records how the component lists were ranked in its config, so a run dir of the older fusion is not resumed into a mix', () => {
    expect(hybrid.config).toMatchObject({ methods: ['bm25', 'qld'], depth: DEPTH, componentRanking: 'trec_eval, depth past ties' });
  });

  it('records the weights it fuses with, named or not: --weights bm25=0.3 leaves qld at 1 (RRF), weighted fusion without weights 1/2 each', async () => {
    const cases = [
      [{ weights: 'bm25=0.3' }, { bm25: 0.3, qld: 1 }],
      [{ fusion: 'weighted' }, { bm25: 0.5, qld: 0.5 }],
    ] as const;
    const query = topics[0].text;
    for (const [opts, weights] of cases) {
      const h = await openRetriever(dir, 'hybrid', { methods: 'bm25,qld', depth: DEPTH, ...opts });
      expect(h.config?.weights).toEqual(weights);
      const top = (await h.search(query, { k: 1 }))[0];
      const e = await h.explain!(query, top.id);
      expect((e.detail as { weights: unknown }).weights).toEqual(weights);
      // the recorded weights are the ones the score was made with
      const comps = (e.detail as { components: Record<string, { contribution: number; rank: number; normalized?: number }> }).components;
      for (const [m, c] of Object.entries(comps)) expect(c.contribution).toBeCloseTo(weights[m as 'bm25' | 'qld'] * (c.normalized ?? 1 / (100 + c.rank)), 12);
    }
  });
});
