/**
 * The learned evidence selector is not evaluated on its own training questions: an offline CASE run
 * whose questions overlap the selector's training split (Bar Exam QA train, split seed 13) is
 * refused with the overlap count, before any item runs; `--evidence plan` and the held-out splits
 * run. On a small real index (gold passages of the first val questions + legal_corpus, bm25 + qld).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadQuestions } from '../../corpora/registry.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { buildSmallBarexamIndex } from '../../tests/support/small-barexam-index.js';
import { EVIDENCE_SELECTOR_MODEL } from './evidence-selector-weights.js';
import { EVIDENCE_SELECTOR_MODEL_DENSE } from './evidence-selector-weights-dense.js';
import { runCaseExperiment } from './experiment.js';
import { caseOfflineStep } from './demo-step.js';
import { evalCaseOffline } from './offline-eval.js';
import type { DemoContext } from '../../eval/demo/types.js';
import { SELECTOR_TRAINING, selectorRecord, selectorTrainingOverlap } from './selector-training.js';
import { createCaseOfflineSystem } from './case-offline-system.js';
import { openCaseIndex } from '../../retrieval/open-index.js';
import type { Question } from '../../corpora/types.js';

let dir: string;
let index: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-selector-training-'));
  index = join(dir, 'idx');
  await buildSmallBarexamIndex(index, { items: 3 });
}, 60_000);

afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

const offline = (runDir: string, o: Partial<Parameters<typeof runCaseExperiment>[0]>) =>
  runCaseExperiment({ system: 'case', offline: true, dataset: 'barexam', split: 'val', index, runDir: join(dir, runDir), ...o });

describe('the learned evidence selector on its own training questions', () => {
  it('the committed selectors were trained on the split SELECTOR_TRAINING names', () => {
    for (const m of [EVIDENCE_SELECTOR_MODEL, EVIDENCE_SELECTOR_MODEL_DENSE])
      expect(m.trainedOn).toMatch(new RegExp(`^Bar Exam QA ${SELECTOR_TRAINING.split} split \\(seed ${SELECTOR_TRAINING.splitSeed}, n = 954\\)`));
  });

  it('refuses an offline run on split seed 7 (94 of its 124 val questions are training questions) and on --split train, before any item runs', async () => {
    const seed7 = await loadQuestions('barexam', 'val', { seed: 7 });
    expect((await selectorTrainingOverlap(seed7)).length).toBe(94);
    await expect(offline('seed7', { splitSeed: 7 })).rejects.toThrow(
      /--evidence learned \(the default\): 94 of the 124 questions of barexam val \(split seed 7\) are questions the learned evidence selector was trained on \(barexam train, split seed 13; e\.g\. /,
    );
    await expect(offline('train', { split: 'train' })).rejects.toThrow(/954 of the 954 questions of barexam train \(split seed 13\)/);
    await expect(offline('all', { split: 'all', limit: 10 })).rejects.toThrow(/ of the 10 questions of barexam all /);
    for (const d of ['seed7', 'train', 'all']) expect(existsSync(join(dir, d, 'results.jsonl'))).toBe(false);
  });

  it('runs with --evidence plan on those questions, and with the learned selector on the held-out val split (seed 13)', async () => {
    const plan = await offline('seed7-plan', { splitSeed: 7, evidence: 'plan', limit: 2 });
    expect(plan.ran).toBe(2);
    const held = await offline('val13', { limit: 2 });
    expect(held.ran).toBe(2);
  }, 60_000);
});

describe('the demo and the library (evalCaseOffline) hold the learned selector to the same rule', () => {
  it("evalCaseOffline refuses split seed 7's val questions (94 of 124 trained on) before any item runs, names the way out, and runs them with evidence plan", async () => {
    const seed7 = await loadQuestions('barexam', 'val', { seed: 7 });
    let progress = 0;
    const run = evalCaseOffline({ index, questions: seed7, onProgress: () => progress++ });
    await expect(run).rejects.toThrow(/94 of the 124 questions given are questions the learned evidence selector was trained on/);
    await expect(run).rejects.toMatchObject({ details: { hint: expect.stringContaining("evidence: 'plan'") } });
    expect(progress).toBe(0);
    const plan = await evalCaseOffline({ index, questions: seed7.slice(0, 2), evidence: 'plan' });
    expect(plan.records).toHaveLength(2);
    const held = await evalCaseOffline({ index, questions: (await loadQuestions('barexam', 'val')).slice(0, 2) });
    expect(held.records).toHaveLength(2);
    expect(held.evidenceSelection).toMatch(/learned evidence selector/);
  }, 60_000);

  it("the demo's CASE step (runDemo({ splitSeed: 7 }) or { split: 'train' }) refuses instead of printing the selector's figures on its training questions", async () => {
    const ctx = (split: DemoContext['split'], splitSeed: number): DemoContext => ({
      dir,
      indexDir: index,
      corpus: 'default',
      indexMethods: ['bm25', 'qld'],
      evalMethods: ['bm25', 'qld'],
      dataset: 'barexam',
      split,
      splitSeed,
      seed: 13,
      iterations: 10,
      rebuild: false,
      say: () => {},
      sections: [],
      data: {},
    });
    const seed7 = ctx('val', 7);
    await expect(caseOfflineStep.run(seed7)).rejects.toThrow(
      /94 of the 124 questions of barexam val \(split seed 7\) are questions the learned evidence selector/,
    );
    await expect(caseOfflineStep.run(seed7)).rejects.toMatchObject({ details: { hint: expect.stringContaining('run the demo on its default split') } });
    expect(seed7.sections).toEqual([]);
    expect(seed7.data.caseOffline).toBeUndefined();
    await expect(caseOfflineStep.run(ctx('train', 13))).rejects.toThrow(/954 of the 954 questions of barexam train \(split seed 13\)/);
    // on the held-out default split it runs, and report.json says which fit chose the evidence
    const held = ctx('val', 13);
    await caseOfflineStep.run(held);
    expect((held.data.caseOffline as { selector: unknown }).selector).toEqual(selectorRecord(EVIDENCE_SELECTOR_MODEL));
  }, 120_000);
});

describe("an offline run's config.json records which learned selector chose its evidence", () => {
  const config = (runDir: string) => JSON.parse(readFileSync(join(dir, runDir, 'config.json'), 'utf8'));
  const rewrite = (runDir: string, edit: (c: { config: Record<string, unknown> }) => void) => {
    const c = config(runDir);
    edit(c);
    writeFileSync(join(dir, runDir, 'config.json'), JSON.stringify(c));
  };

  it('records the fit (features, keep, training split, weights digest); a plan run records none', async () => {
    await offline('rec', { limit: 1 });
    const rec = config('rec').config.selector;
    expect(rec).toEqual(selectorRecord(EVIDENCE_SELECTOR_MODEL));
    expect(rec).toMatchObject({
      features: 88,
      keep: 3,
      trainedOn: expect.stringMatching(/^Bar Exam QA train split \(seed 13, n = 954\)/),
      weights: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    expect(selectorRecord(EVIDENCE_SELECTOR_MODEL_DENSE).weights).not.toBe(rec.weights);
    await offline('rec-plan', { limit: 1, evidence: 'plan' });
    expect(config('rec-plan').config.selector).toBeUndefined();
  }, 60_000);

  it('a resume with refitted weights is refused; a run dir an older lexcase wrote (none recorded) resumes with the field unchecked', async () => {
    await offline('refit', { limit: 1 });
    rewrite('refit', (c) => {
      (c.config.selector as { weights: string }).weights = '0123456789abcdef';
    });
    const results = readFileSync(join(dir, 'refit', 'results.jsonl'), 'utf8');
    await expect(offline('refit', { limit: 2 })).rejects.toMatchObject({ code: 'RUN_INVALID', message: expect.stringContaining('field "selector" differs') });
    expect(readFileSync(join(dir, 'refit', 'results.jsonl'), 'utf8')).toBe(results);

    await offline('older', { limit: 1 });
    rewrite('older', (c) => {
      delete c.config.selector;
    });
    expect(await offline('older', { limit: 2 })).toMatchObject({ ran: 1, skipped: 1 });
    const after = config('older');
    expect(after.resumes.at(-1).unchecked).toEqual(['selector']);
    expect(after.config.selector).toEqual(selectorRecord(EVIDENCE_SELECTOR_MODEL));
  }, 60_000);
});

describe("createCaseOfflineSystem (a library caller's own question list) checks each item", () => {
  it("fails an item that is one of the selector's training questions, naming it and the way out; answers a held-out one and, with evidence plan, the training one", async () => {
    const seed7 = await loadQuestions('barexam', 'val', { seed: 7 });
    const trainedId = (await selectorTrainingOverlap(seed7))[0];
    const trained = seed7.find((q) => q.id === trainedId)!;
    const held = (await loadQuestions('barexam', 'val'))[0];
    const idx = await openCaseIndex(index);
    try {
      const ctx = (_q: Question) => ({ seed: 13, tools: [], retrievers: idx.retrievers, getPassage: idx.getPassage, options: {} });
      const learned = createCaseOfflineSystem();
      await expect(learned(trained, ctx(trained))).rejects.toThrow(
        new RegExp(`^question ${trainedId} is one the learned evidence selector was trained on \\(barexam train, split seed 13\\)`),
      );
      await expect(learned(trained, ctx(trained))).rejects.toMatchObject({ code: 'USAGE', details: { hint: expect.stringContaining("evidence: 'plan'") } });
      const ok = await learned(held, ctx(held));
      expect(ok.trace.evidenceSelection).toMatch(/learned evidence selector/);
      const plan = await createCaseOfflineSystem({ evidence: 'plan' })(trained, ctx(trained));
      expect(plan.trace.evidenceSelection).toBe('query plan');
      expect(typeof plan.prediction).toBe('string');
    } finally {
      await idx.docs.close?.();
    }
  }, 60_000);
});
