/**
 * A hybrid ranking is defined by its depth alone. Hybrid fetched max(depth, k) hits per component,
 * so a search of more hits than the depth fused deeper lists: the top 10 of `-k 2000` differed from
 * `-k 10` (audit: "fee simple determinable", ranks 5–8 swapped, mbe_220 0.018868 vs 0.019393), and
 * `eval retrieval --k 10,1000` gave Recall@1000 0.669355 but 0.677419 with `,3000` added, while the
 * recorded config said depth 1000 both times. Now every component is fetched to exactly `depth`
 * whatever k is: any k gets the first k of one ranking, fewer when the fused lists hold fewer (and a
 * note says so), and an evaluation's figures do not depend on its other cutoffs (a cutoff above the
 * depth is warned about and recorded in the result).
 *
 * Data: the bundled Bar Exam QA gold passages (1,149) with bm25 + qld, the val questions (124);
 * hybrid of bm25 + qld with depth 20, so cutoffs above 20 are beyond it.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadPassages, loadQuestions } from '../corpora/registry.js';
import { retrievalQuery } from '../corpora/barexam.js';
import type { Passage, Question } from '../corpora/types.js';
import { log } from '../core/log.js';
import { evalRetrieval } from '../eval/retrieval-eval.js';
import { buildIndex } from '../indexer/build.js';
import { tempDir } from '../indexer/build-test-helpers.js';
import { closeSparseIndexes, openRetriever } from './open.js';
import { beyondDepthNote } from './ranking-depth.js';
import type { Retriever } from './types.js';

const tmp = tempDir('lexcase-hybrid-depth-');
const dir = join(tmp.dir, 'barexam');
const DEPTH = 20;
let hybrid: Retriever;
let questions: Question[];

beforeAll(async () => {
  const passages: Passage[] = [];
  for await (const p of loadPassages('barexam')) passages.push(p);
  await buildIndex(passages, { out: dir, methods: ['bm25', 'qld'], workers: 0 });
  hybrid = await openRetriever(dir, 'hybrid', { methods: 'bm25,qld', depth: DEPTH });
  questions = (await loadQuestions('barexam', 'val')).filter((q) => q.goldPassageIds.length > 0);
}, 120_000);
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

describe('a hybrid search of any k is the first k of one ranking, set by its depth', () => {
  it.each([5, 10, DEPTH, 30])('k = %i: the hits (ids, scores, ranks) are the first k of a search of 500', async (k) => {
    for (const q of questions.slice(0, 12)) {
      const query = retrievalQuery(q);
      const deep = await hybrid.search(query, { k: 500 });
      expect(await hybrid.search(query, { k })).toEqual(deep.slice(0, k));
    }
  });

  it('k beyond what the fused lists hold: fewer hits (their union, no deeper lists) and a note naming the depth', async () => {
    const query = 'fee simple determinable';
    const hits = await hybrid.search(query, { k: 500 });
    const [bm25, qld] = await Promise.all(['bm25', 'qld'].map(async (m) => (await openRetriever(dir, m)).search(query, { k: DEPTH })));
    const union = new Set([...bm25, ...qld].map((h) => h.id));
    expect(new Set(hits.map((h) => h.id))).toEqual(union);
    expect(hits.length).toBeLessThan(2 * DEPTH + 1);
    expect(beyondDepthNote(hybrid, 500, hits.length)).toBe(
      `${hits.length} of the 500 hits asked for: hybrid fuses each component's top ${DEPTH} hits (its depth), and they hold ${hits.length} passages; use --depth 500 to rank 500`,
    );
    expect(beyondDepthNote(hybrid, DEPTH, DEPTH)).toBeUndefined();
    expect(hybrid.config?.depth).toBe(DEPTH);
    expect(hybrid.rankingDepth).toBe(DEPTH);
  });
});

describe('eval retrieval of hybrid: each figure is the same whatever other cutoffs are asked for', () => {
  it('Recall@10/@30, MRR and nDCG and every first-gold rank are equal with --k 10,30 and --k 10,30,300; cutoffs above the depth are warned about and recorded', async () => {
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
    try {
      const a = await evalRetrieval({ retriever: hybrid, questions, ks: [10, 30], iterations: 50 });
      const b = await evalRetrieval({ retriever: hybrid, questions, ks: [10, 30, 300], iterations: 50 });
      for (const m of ['recall@10', 'recall@30', 'mrr@10', 'ndcg@10']) expect(b.metrics[m]).toEqual(a.metrics[m]);
      expect(b.perQuery.map((q) => (q.firstRank !== null && q.firstRank <= 30 ? q.firstRank : null))).toEqual(a.perQuery.map((q) => q.firstRank));
      const w = (cut: string) => `${cut} beyond the hybrid depth ${DEPTH}: it fuses each component's top ${DEPTH} hits, so`;
      expect(a.warnings?.[0]).toContain(w('@30 is'));
      expect(b.warnings?.[0]).toContain(w('@30, @300 are'));
      expect(b.warnings?.[0]).toContain('use --depth 300 to rank 300 fully');
      expect(warn).toHaveBeenCalledWith(`eval retrieval hybrid: ${b.warnings![0]}`);
      const c = await evalRetrieval({ retriever: hybrid, questions, ks: [10, DEPTH], iterations: 50 });
      expect(c.warnings).toBeUndefined();
      // MRR@10 and nDCG@10 are reported whatever --k is: a depth of 5 cuts them (before: --k 1,3 said nothing)
      const shallow = await openRetriever(dir, 'hybrid', { methods: 'bm25,qld', depth: 5 });
      const d = await evalRetrieval({ retriever: shallow, questions, ks: [1, 3], iterations: 50 });
      expect(d.warnings?.[0]).toBe(
        "@10 is beyond the hybrid depth 5: it fuses each component's top 5 hits, so that figure counts only passages a component ranks within its top 5; use --depth 10 to rank 10 fully",
      );
    } finally {
      warn.mockRestore();
    }
  });
});
