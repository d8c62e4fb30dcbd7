/**
 * A hybrid's run file lists each topic in the fusion's order as trec_eval reads it. Its fused RRF
 * scores were written, like every method's, with 6 decimals; deeper than a few hundred ranks two
 * fused scores differ by less than 1e-6 (one list's rank 1,000 adds 0.5/(100 + 1000) ≈ 0.00045, its
 * neighbour 4e-7 less), so they tied in the file and trec_eval — and lexcase's own evaluation, which
 * reads the scores as written — ordered them by docid, not by the fusion: 14 % of a default
 * hybrid's 1,000-hit val run (Bar Exam QA, default corpus) was in tied lines, and the gold passage
 * of mbe_708 was counted at rank 25 where the fusion ranks it 26. The hybrid's scores now keep 10
 * significant digits (retrieval/top-k.ts scoreText; Retriever.scoreDigits), bm25 and qld their 6
 * decimals (their files unchanged, byte for byte).
 *
 * Data: the bundled Bar Exam QA gold passages (1,149) with bm25 + qld; the first 40 val questions;
 * hybrid RRF k = 100, bm25 0.5, qld 1.5 (the default weights), depth 1,000.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPassages, loadQuestions } from '../corpora/registry.js';
import { retrievalQuery } from '../corpora/barexam.js';
import type { Passage, Question } from '../corpora/types.js';
import type { Topic } from '../corpora/topics.js';
import { batchSearch } from '../eval/trec/batch-search.js';
import { loadTrecRun, type TrecRun } from '../eval/trec/run.js';
import { evalRetrieval } from '../eval/retrieval-eval.js';
import { buildIndex } from '../indexer/build.js';
import { tempDir } from '../indexer/build-test-helpers.js';
import { closeSparseIndexes, openRetriever } from './open.js';
import { scoreText, trecCompare } from './top-k.js';
import type { Retriever } from './types.js';

const tmp = tempDir('lexcase-hybrid-precision-');
const dir = join(tmp.dir, 'barexam');
const DEPTH = 1000;
const RRF_K = 100;
const WEIGHTS: Record<string, number> = { bm25: 0.5, qld: 1.5 };
let hybrid: Retriever;
let questions: Question[];
let topics: Topic[];

beforeAll(async () => {
  const passages: Passage[] = [];
  for await (const p of loadPassages('barexam')) passages.push(p);
  await buildIndex(passages, { out: dir, methods: ['bm25', 'qld'], workers: 0 });
  hybrid = await openRetriever(dir, 'hybrid', { methods: 'bm25,qld', rrfK: RRF_K, weights: WEIGHTS, depth: DEPTH });
  questions = (await loadQuestions('barexam', 'val')).slice(0, 40);
  topics = questions.map((q) => ({ id: q.id, text: retrievalQuery(q) }));
}, 120_000);
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

/** A topic's documents as trec_eval ranks them: score descending, ties by docid descending. */
const trecEvalOrder = (run: TrecRun, qid: string) => [...(run.get(qid) ?? [])].sort(trecCompare).map((d) => d.docid);

/**
 * The fusion's order, from the component runs as `search --topics` prints them (rank = line), in full
 * precision: scores equal up to their float sum's last bits are a tie, by docid descending.
 */
function fusedOrder(runs: Record<string, TrecRun>, qid: string): { ids: string[]; scores: number[] } {
  const acc = new Map<string, number>();
  for (const [m, run] of Object.entries(runs)) trecEvalOrder(run, qid).forEach((id, i) => acc.set(id, (acc.get(id) ?? 0) + WEIGHTS[m] / (RRF_K + i + 1)));
  const same = (a: number, b: number) => Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b));
  const all = [...acc].sort((a, b) => (same(a[1], b[1]) ? trecCompare({ docid: a[0], score: 0 }, { docid: b[0], score: 0 }) : b[1] - a[1]));
  return { ids: all.map(([id]) => id), scores: all.map(([, s]) => s) };
}

describe('a 1,000-deep RRF hybrid run file, as trec_eval reads it', () => {
  it('lists each topic in the fusion’s order (its scores keep 10 significant digits), where 6 decimals had tied hundreds of fused scores', async () => {
    const runs: Record<string, TrecRun> = {};
    for (const m of ['bm25', 'qld']) runs[m] = (await batchSearch(await openRetriever(dir, m), topics, { k: DEPTH })).run;
    const file = join(tmp.dir, 'hybrid.run');
    await batchSearch(hybrid, topics, { k: DEPTH, runFile: file });
    const written = (await loadTrecRun(file)).run;
    let tiedAtSixDecimals = 0;
    let out = 0;
    for (const t of topics) {
      const fused = fusedOrder(runs, t.id);
      const cut = Math.min(DEPTH, fused.ids.length);
      // distinct fused scores (beyond their float sum's last bits) that 6 decimals would have tied
      for (let i = 1; i < cut; i++)
        if (fused.scores[i - 1] - fused.scores[i] > 1e-12 * fused.scores[i] && fused.scores[i - 1].toFixed(6) === fused.scores[i].toFixed(6))
          tiedAtSixDecimals++;
      const got = trecEvalOrder(written, t.id);
      // the 1,000th place: the cut, past a tie there, as at any cut (top-k.ts); every place above it is the fusion's
      out += got.slice(0, cut - 1).filter((id, i) => id !== fused.ids[i]).length;
    }
    expect(tiedAtSixDecimals).toBeGreaterThan(1000);
    expect(out).toBe(0);
  });

  it("`eval retrieval` counts each gold passage at its rank in the fusion's order, the rank trec_eval reads from the file", async () => {
    const runs: Record<string, TrecRun> = {};
    for (const m of ['bm25', 'qld']) runs[m] = (await batchSearch(await openRetriever(dir, m), topics, { k: DEPTH })).run;
    const r = await evalRetrieval({ retriever: hybrid, questions, ks: [DEPTH], iterations: 100 });
    let compared = 0;
    for (const q of r.perQuery) {
      const fused = fusedOrder(runs, q.id).ids;
      const expected = q.goldIds.map((g) => fused.indexOf(g) + 1).filter((rank) => rank > 0 && rank < DEPTH);
      expect((q.goldRanks ?? []).filter((rank) => rank < DEPTH)).toEqual(expected.sort((a, b) => a - b));
      compared += expected.length;
    }
    expect(compared).toBeGreaterThan(20);
  });

  it('writes bm25 and qld scores with 6 decimals as before, and records the fused scores’ digits in the hybrid’s config', async () => {
    const file = join(tmp.dir, 'bm25.run');
    await batchSearch(await openRetriever(dir, 'bm25'), topics.slice(0, 5), { k: DEPTH, runFile: file });
    const scores = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => l.split(' ')[4]);
    expect(scores.length).toBeGreaterThan(4 * DEPTH);
    for (const s of scores) expect(s).toMatch(/^-?\d+\.\d{6}$/);
    expect(scoreText(0.000943396226415, 10)).toBe('0.0009433962264');
    expect(scoreText(12.345678912, 10)).toBe('12.34567891');
    expect(scoreText(1234.5678912, 10)).toBe('1234.567891');
    expect(hybrid.config).toMatchObject({ scoreDigits: 10 });
  });
});
