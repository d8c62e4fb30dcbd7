import { describe, expect, it } from 'vitest';
import { loadQuestions } from '../corpora/registry.js';
import { createHybridRetriever, HYBRID_DEFAULTS } from '../retrieval/hybrid.js';
import type { Retriever } from '../retrieval/types.js';
import { hybridTuningOverlapWarning } from './hybrid-tuning-overlap.js';

const component = (method: string): Retriever => ({ method, search: async () => [] });
const hybrid = (o: { weights?: Record<string, number>; rrfK?: number } = {}) =>
  createHybridRetriever(HYBRID_DEFAULTS.methods.map(component), {
    fusion: HYBRID_DEFAULTS.fusion,
    weights: o.weights ?? HYBRID_DEFAULTS.weights,
    rrfK: o.rrfK ?? HYBRID_DEFAULTS.rrfK,
    depth: HYBRID_DEFAULTS.depth,
  });

describe('a default hybrid evaluated on the questions its defaults were tuned on is warned about', () => {
  it('on Bar Exam QA train (seed 13) and all: every train question named as tuning data', async () => {
    const train = await loadQuestions('barexam', 'train');
    // before: no warning, the hybrid's train figures printed as any other
    expect(await hybridTuningOverlapWarning(hybrid(), train)).toMatch(
      /^954 of the 954 questions are ones the default hybrid settings were tuned on \(barexam train, split seed 13\)/,
    );
    expect(await hybridTuningOverlapWarning(hybrid(), await loadQuestions('barexam', 'all'))).toMatch(/^954 of the 1195 questions/);
  });

  it('on another split seed, the val questions that were in the seed-13 train split', async () => {
    const val7 = await loadQuestions('barexam', 'val', { seed: 7 });
    const w = await hybridTuningOverlapWarning(hybrid(), val7);
    expect(w).toMatch(new RegExp(`^\\d+ of the ${val7.length} questions`));
  });

  it('not on val of seed 13, nor for bm25 or a hybrid with its own weights or rrf k', async () => {
    const train = await loadQuestions('barexam', 'train');
    expect(await hybridTuningOverlapWarning(hybrid(), await loadQuestions('barexam', 'val'))).toBeUndefined();
    expect(await hybridTuningOverlapWarning(component('bm25'), train)).toBeUndefined();
    expect(await hybridTuningOverlapWarning(hybrid({ weights: { bm25: 1, qld: 1, dense: 1 } }), train)).toBeUndefined();
    expect(await hybridTuningOverlapWarning(hybrid({ rrfK: 60 }), train)).toBeUndefined();
  });
});
