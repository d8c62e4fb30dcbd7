/**
 * The fusion sweep scores settings from cached component runs; the figure it reports for a setting
 * must equal what the live hybrid retriever with that setting gets (same questions, same cutoffs).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexCorpus } from '../indexer/index-corpus.js';
import { loadQuestions } from '../corpora/registry.js';
import { closeSparseIndexes, openRetriever } from '../retrieval/open.js';
import { evalRetrieval } from './retrieval-eval.js';
import { formatFusionSweep, sweepFusion } from './fusion-sweep.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-fusion-sweep-'));
  await indexCorpus('barexam', { out: join(dir, 'idx'), methods: ['bm25', 'qld'] });
}, 120_000);
afterAll(async () => {
  await closeSparseIndexes();
  await rm(dir, { recursive: true, force: true });
});

describe('sweepFusion', () => {
  it('reports singles and every grid setting, picks the largest margin, and its recall equals the live hybrid retriever', { timeout: 120_000 }, async () => {
    const r = await sweepFusion({ index: join(dir, 'idx'), components: ['bm25', 'qld'], split: 'val', ks: [10, 100] });
    expect(r.n).toBe(124);
    expect(r.singles.map((s) => s.label)).toEqual(['bm25', 'qld']);
    expect(r.settings.length).toBeGreaterThanOrEqual(6);
    for (const s of r.settings) expect(s.margin).toBeLessThanOrEqual(r.best.margin + 1e-12);
    const best = r.best.setting!;
    const hybrid = await openRetriever(join(dir, 'idx'), 'hybrid', {
      methods: best.methods.join(','),
      fusion: best.fusion,
      rrfK: best.rrfK,
      depth: best.depth,
      weights: best.weights,
    });
    const live = await evalRetrieval({ retriever: hybrid, questions: await loadQuestions('barexam', 'val'), ks: [10, 100], iterations: 10 });
    expect(live.metrics['recall@10'].estimate).toBeCloseTo(r.best.recall[10], 10);
    expect(live.metrics['recall@100'].estimate).toBeCloseTo(r.best.recall[100], 10);
    expect(formatFusionSweep(r)).toContain(`| **${r.best.label}** |`);
  });
});
