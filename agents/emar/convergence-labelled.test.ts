/**
 * The stance-aware convergence rule against the pure-embedding rule on a labelled set of claim
 * pairs (tests/fixtures/emar/claim-pairs.jsonl: agreeing paraphrases, negations, partial
 * agreement; written for lexcase), with the real bundled use-lite embedder at the paper's ε.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbedder } from '../../indexer/embed/create-embedder.js';
import type { Embedder } from '../../indexer/embed/types.js';
import { DEFAULT_EPSILON, hasConverged } from './convergence.js';
import { evaluateConvergenceRules, type LabelledClaimPair } from './convergence-eval.js';

const pairs = readFileSync(join(import.meta.dirname, '../../tests/fixtures/emar/claim-pairs.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l) as LabelledClaimPair);

describe('EMAR convergence rules on labelled claim pairs (use-lite, ε = 0.85)', () => {
  let emb: Embedder;
  beforeAll(async () => {
    emb = await createEmbedder({ provider: 'use-lite', workers: 0 });
  }, 120_000);
  afterAll(() => emb.close?.());

  it('a negation is never taken for agreement by the stance rule, and the stance rule is at least as accurate overall', async () => {
    const { similarities, rules } = await evaluateConvergenceRules(pairs, emb, DEFAULT_EPSILON);
    const stance = rules.find((r) => r.rule === 'stance')!;
    const embedding = rules.find((r) => r.rule === 'embedding')!;
    expect(stance.byKind.negation).toEqual({ correct: 12, n: 12 });
    expect(stance.correct).toBeGreaterThanOrEqual(embedding.correct);
    // the reason for the rule: some negation pairs are as similar as paraphrases
    const neg = pairs.map((p, i) => (p.kind === 'negation' ? similarities[i] : -1)).filter((s) => s >= 0);
    expect(Math.max(...neg)).toBeGreaterThan(0.8);
  });

  it('the stance rule still needs the claims to be close: the same option argued on unrelated grounds has not converged', () => {
    expect(hasConverged('stance', 'A', 'A', 0.5, DEFAULT_EPSILON)).toBe(false);
    expect(hasConverged('stance', 'A', 'B', 0.99, DEFAULT_EPSILON)).toBe(false);
    expect(hasConverged('embedding', 'A', 'B', 0.99, DEFAULT_EPSILON)).toBe(true);
    expect(hasConverged('stance', 'A', 'A', 0.9, DEFAULT_EPSILON)).toBe(true);
  });
});
