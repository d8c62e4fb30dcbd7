/**
 * Dense and phrase signals of the evidence selector: the bigram share on real Bar Exam QA text, the
 * layout of the 20 signal features, and — on the REAL bundled default corpus with its shipped
 * use-lite vectors — that the 108-feature model is chosen where the index has that dense part, reads
 * what it was trained on (it ranks the gold passage higher than the 88-feature model on train
 * questions), and that the default falls back to the 88-feature model without it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPassages, loadQuestions } from '../../corpora/registry.js';
import type { Question } from '../../corpora/types.js';
import { indexCorpus } from '../../indexer/index-corpus.js';
import { openCaseIndex, type AgentIndex } from '../../retrieval/open-index.js';
import type { DenseRetriever } from '../../retrieval/dense.js';
import { loadPrebuiltDense } from '../../eval/demo/dense-step.js';
import { chooseSelector, SIGNALS_SUFFIX } from './case-offline-system.js';
import { SIGNAL_FEATURES, signalFeatures, QUESTION_FEATURES } from './evidence-features.js';
import { bigrams, bigramShare, exactDense, type CandidateSignals } from './evidence-signals.js';
import { linearScore } from './evidence-selector.js';
import { EVIDENCE_SELECTOR_MODEL } from './evidence-selector-weights.js';
import { EVIDENCE_SELECTOR_MODEL_DENSE } from './evidence-selector-weights-dense.js';
import { trainingQuestion, type TrainingQuestion } from './train-evidence-selector.js';
import { createCase } from './index.js';

describe('phrase signal: word bigrams', () => {
  it('counts the share of the query bigrams (stopwords dropped, stems) that a real gold passage contains', async () => {
    const q = (await loadQuestions('barexam', 'train', { seed: 13 })).find((x) => x.goldPassageIds.length)!;
    let gold = '';
    for await (const p of loadPassages('barexam')) if (p.id === q.goldPassageIds[0]) gold = p.text;
    const pb = bigrams(gold);
    expect(pb.size).toBeGreaterThan(10);
    // a passage holds all of its own bigrams, and a query made of its first sentence shares all of them
    const first = gold.split(/(?<=\.)\s/)[0];
    expect(bigramShare(bigrams(first), pb)).toBe(1);
    expect(bigramShare(new Set(), pb)).toBe(0);
    // stopwords between two words do not break the pair: "statute of frauds" → "statut fraud"
    expect([...bigrams('the statute of frauds')]).toEqual(['statut fraud']);
    const share = bigramShare(bigrams(q.question), pb);
    expect(share).toBeGreaterThanOrEqual(0), expect(share).toBeLessThanOrEqual(1);
  });
});

describe('signal features', () => {
  it('are max and mean over the options of [cos, contrasts, bigram share, contrasts, dense rank], then facts and question', () => {
    const s: CandidateSignals = {
      dense: [
        [
          [0.5, 1],
          [0.2, 40],
          [0.3, 9],
          [0.1, 90],
          [0.4, 3],
          [0.25, 20],
        ],
      ],
      phrase: [[0.5, 0, 0.25, 0, 0.1, 0.2]],
    };
    const f = signalFeatures(s, 0, 4);
    expect(f).toHaveLength(SIGNAL_FEATURES);
    const [maxCos, maxCosVsMax, maxCosVsMean, maxBg, maxBgVsMax, maxBgVsMean, maxRank] = f;
    expect(maxCos).toBe(0.5);
    expect(maxCosVsMax).toBeCloseTo(0.5 - 0.3, 12); // option A against the best other option
    expect(maxCosVsMean).toBeCloseTo(0.5 - (0.2 + 0.3 + 0.1) / 3, 12);
    expect(maxBg).toBe(0.5), expect(maxBgVsMax).toBeCloseTo(0.25, 12), expect(maxBgVsMean).toBeCloseTo(0.5 - 0.25 / 3, 12);
    expect(maxRank).toBeCloseTo(10 / 11, 12);
    expect(f.slice(7, 14)[0]).toBeCloseTo((0.5 + 0.2 + 0.3 + 0.1) / 4, 12); // mean cos
    expect(f.slice(7, 14)[1]).toBeLessThan(0); // contrasts against the max average below 0
    expect(f.slice(14)).toEqual([0.4, 10 / 13, 0.25, 10 / 30, 0.1, 0.2]);
    // one option: no contrast
    const one = signalFeatures(
      {
        dense: [
          [
            [0.5, 1],
            [0.4, 3],
            [0.25, 20],
          ],
        ],
        phrase: [[0.5, 0.1, 0.2]],
      },
      0,
      1,
    );
    expect([one[1], one[2], one[4], one[5]]).toEqual([0, 0, 0, 0]);
  });
});

describe('the selector with dense and phrase signals, on the real default corpus', () => {
  let dir: string;
  let idx: AgentIndex;
  let questions: Question[];
  const gathered: { dense: TrainingQuestion; sparse: TrainingQuestion }[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lexcase-signals-'));
    await indexCorpus('default', { out: join(dir, 'idx'), methods: ['bm25', 'qld'], workers: 0 });
    // the shipped use-lite vectors of the default corpus (corpora/data/prebuilt), as the demo loads them
    expect(await loadPrebuiltDense(join(dir, 'idx'), () => {})).toBe('default-use-lite');
    idx = await openCaseIndex(join(dir, 'idx'));
    questions = (await loadQuestions('barexam', 'train', { seed: 13 })).slice(0, 40);
    const { bm25, qld, dense } = idx.retrievers;
    // the signals as the shipped model was trained on them: its recorded dense query rule
    const signals = {
      dense: exactDense(dense, EVIDENCE_SELECTOR_MODEL_DENSE.signals!.queryWords)!.dense,
      passageText: async (id: string) => (await idx.getPassage(id))?.text,
    };
    for (const q of questions)
      gathered.push({
        dense: await trainingQuestion({ bm25: bm25!, qld: qld! }, q, undefined, 5, signals),
        sparse: await trainingQuestion({ bm25: bm25!, qld: qld! }, q),
      });
  }, 300_000);

  afterAll(async () => {
    await idx?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is chosen where the index has the use-lite dense part; without it the 88-feature model; asked for without it, a clear error', () => {
    expect(EVIDENCE_SELECTOR_MODEL_DENSE.features).toBe(QUESTION_FEATURES + SIGNAL_FEATURES);
    expect(chooseSelector(undefined, idx.retrievers, idx.getPassage).model).toBe(EVIDENCE_SELECTOR_MODEL_DENSE);
    const sparseOnly = { bm25: idx.retrievers.bm25, qld: idx.retrievers.qld };
    expect(chooseSelector(undefined, sparseOnly, idx.getPassage).model).toBe(EVIDENCE_SELECTOR_MODEL);
    const otherEmbedder = { ...sparseOnly, dense: { ...idx.retrievers.dense!, embedder: { id: 'transformers:other' } } };
    expect(chooseSelector(undefined, otherEmbedder, idx.getPassage).model).toBe(EVIDENCE_SELECTOR_MODEL);
    expect(() => chooseSelector(EVIDENCE_SELECTOR_MODEL_DENSE, sparseOnly, idx.getPassage)).toThrow(/dense signals from use-lite.*no dense part/);
  });

  it("embeds its signal queries under the dense query rule it was trained with, not the retriever's default", async () => {
    const rule = EVIDENCE_SELECTOR_MODEL_DENSE.signals!.queryWords;
    expect(rule).toBe(24); // trained when use-lite queries were embedded from their last 24 words
    const dense = idx.retrievers.dense as DenseRetriever;
    const chosen = chooseSelector(undefined, idx.retrievers, idx.getPassage).signals!.dense;
    const q = questions.find((x) => x.prompt.split(/\s+/).length > 60)!;
    const ids = gathered[0].dense.candidates.slice(0, 5).map((c) => c.id);
    expect(await chosen.similarities(q.prompt, ids)).toEqual(await dense.similarities!(q.prompt, ids, { queryWords: rule }));
    expect(await chosen.similarities(q.prompt, ids)).not.toEqual(await dense.similarities!(q.prompt, ids));
    expect(exactDense(dense, rule)!.dense.similarities).toBe(chosen.similarities); // one function per index and rule
  });

  it('ranks the gold passage higher than the 88-feature model on train questions (in-sample: a check that the shipped weights read the signals they were fitted on; held-out figures are the CV in train-evidence-selector.ts)', () => {
    const mrr = (pick: (g: (typeof gathered)[0]) => TrainingQuestion, model: typeof EVIDENCE_SELECTOR_MODEL) => {
      let s = 0,
        n = 0;
      for (const g of gathered) {
        const t = pick(g);
        if (!t.candidates.some((c) => c.gold)) continue;
        const order = t.candidates.map((c) => ({ c, s: linearScore(model, c.x) })).sort((a, b) => b.s - a.s || (a.c.id < b.c.id ? -1 : 1));
        s += 1 / (order.findIndex((x) => x.c.gold) + 1);
        n++;
      }
      return s / n;
    };
    // same candidates either way; only the features differ
    for (const g of gathered) expect(g.dense.candidates.map((c) => c.id)).toEqual(g.sparse.candidates.map((c) => c.id));
    expect(gathered[0].dense.candidates[0].x).toHaveLength(EVIDENCE_SELECTOR_MODEL_DENSE.features);
    expect(mrr((g) => g.dense, EVIDENCE_SELECTOR_MODEL_DENSE)).toBeGreaterThan(mrr((g) => g.sparse, EVIDENCE_SELECTOR_MODEL));
  });

  it('runs in the offline CASE system by default: labelled, dense listed, evidence still passages a bm25/qld search returned', async () => {
    const system = createCase({ offline: true });
    const ctx = { seed: 13, tools: [], retrievers: idx.retrievers, getPassage: idx.getPassage, options: { k: 5 } };
    // held-out questions: the system fails an item that is one of the selector's training questions
    for (const q of (await loadQuestions('barexam', 'val', { seed: 13 })).slice(0, 3)) {
      const t = (await system(q, ctx)).trace as any;
      expect(t.methods).toEqual(['bm25', 'qld', 'dense']);
      expect(t.evidenceSelection).toContain(SIGNALS_SUFFIX.replace(/^, /, ''));
      const returned = new Set(t.advocates.flatMap((a: any) => a.toolCalls.flatMap((c: any) => c.ids)));
      for (const a of t.advocates) {
        expect(a.evidence).toHaveLength(5);
        for (const e of a.evidence) expect(returned.has(e.id)).toBe(true);
      }
    }
  }, 60_000);
});
