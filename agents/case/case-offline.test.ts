/**
 * The offline CASE path end to end on a small REAL index built from the bundled data: the gold
 * passages of the first val questions plus legal_corpus distractors, BM25 + QLD from retrieval/open.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPassages, loadQuestions } from '../../corpora/registry.js';
import type { Passage, Question } from '../../corpora/types.js';
import type { SystemContext } from '../../eval/types.js';
import { buildIndex } from '../../indexer/build.js';
import { openDocStore } from '../../indexer/docstore.js';
import { closeSparseIndexes, openRetriever } from '../../retrieval/open.js';
import type { Retriever } from '../../retrieval/types.js';
import { OFFLINE_LABEL } from './advocate-offline.js';
import { createCase } from './index.js';

let dir: string;
let questions: Question[];
let ctx: SystemContext;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-case-offline-'));
  questions = (await loadQuestions('barexam', 'val')).slice(0, 12);
  const gold = new Set(questions.flatMap((q) => q.goldPassageIds));
  const passages: Passage[] = [];
  for await (const p of loadPassages('barexam')) if (gold.has(p.id)) passages.push(p);
  let n = 0;
  for await (const p of loadPassages('legal_corpus')) if (n++ < 600) passages.push(p);
  await buildIndex((async function* () { yield* passages; })(), { out: join(dir, 'idx'), corpusName: 'test', workers: 0 });
  const retrievers: Record<string, Retriever> = { bm25: await openRetriever(join(dir, 'idx'), 'bm25'), qld: await openRetriever(join(dir, 'idx'), 'qld') };
  const docs = await openDocStore(join(dir, 'idx'));
  ctx = { seed: 13, tools: [], retrievers, getPassage: (id) => docs.get(id), options: { k: 5 } };
}, 60_000);

afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

describe('CASE offline heuristic on a real index', () => {
  it('answers every question with a labelled trace: RRF evidence per option from bm25 + qld, and evidence recall flags', async () => {
    const system = createCase({ offline: true });
    let correct = 0;
    let goldSeen = 0;
    for (const q of questions) {
      const out = await system(q, ctx);
      const t = out.trace as any;
      expect(t.mode).toBe(OFFLINE_LABEL);
      expect(['A', 'B', 'C', 'D']).toContain(out.prediction);
      expect(t.advocates).toHaveLength(q.choices.filter((c) => c.trim()).length);
      for (const a of t.advocates) {
        expect(a.toolCalls.map((c: any) => c.tool)).toEqual(['bm25_search', 'qld_search']);
        expect(a.toolCalls[0].query).toContain(q.question.slice(0, 30));
        expect(a.toolCalls[0].query).toContain(a.hypothesis);
        expect(a.evidence).toHaveLength(5);
        const returned = new Set(a.toolCalls.flatMap((c: any) => c.ids));
        for (const e of a.evidence) expect(returned.has(e.id)).toBe(true);
        expect(a.evidence[0].score).toBeGreaterThanOrEqual(a.evidence[4].score);
        expect(Object.keys(a.retrievalScores)).toEqual(['bm25', 'qld']);
      }
      const norm = t.verdict.normalised as Record<string, number>;
      for (const v of Object.values(norm)) expect(v).toBeGreaterThanOrEqual(0), expect(v).toBeLessThanOrEqual(1);
      expect(norm[out.prediction!]).toBe(Math.max(...Object.values(norm)));
      expect(typeof out.metrics?.goldEverReturned).toBe('boolean');
      if (out.metrics?.goldInAnyEvidence) expect(out.metrics.goldEverReturned).toBe(true);
      if (out.metrics?.goldInCorrectEvidence) expect(out.metrics.goldInAnyEvidence).toBe(true);
      if (out.prediction === q.answer) correct++;
      if (out.metrics?.goldEverReturned) goldSeen++;
    }
    // the gold passages are in this small index and the queries contain the facts: most are found
    expect(goldSeen).toBeGreaterThanOrEqual(questions.length / 2);
    expect(correct).toBeGreaterThanOrEqual(0);
  }, 60_000);

  it('is deterministic: the same question gives the same trace twice', async () => {
    const system = createCase({ offline: true });
    const a = await system(questions[0], ctx);
    const b = await system(questions[0], ctx);
    expect(b).toEqual(a);
  });

  it('refuses exploratory hypotheses offline, and a method the index lacks', async () => {
    const system = createCase({ offline: true });
    await expect(system(questions[0], { ...ctx, options: { hypotheses: 'exploratory' } })).rejects.toThrow(/needs an LLM/);
    await expect(system(questions[0], { ...ctx, options: { tools: ['dense'] } })).rejects.toThrow(/none of the retrievers dense/);
  });
});
