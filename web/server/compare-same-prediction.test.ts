/**
 * The explorer's pair view says on how many shared items the two runs gave the same prediction: an
 * item both runs failed (an HTTP 400, no prediction) has no prediction in either and is not one of
 * them. Before, /api/compare counted null === null as the same prediction: "same prediction on 17
 * of 50" for two Bar Exam runs of which 3 items had failed in both.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errors } from '../../core/errors.js';
import { contextFrom, runExperiment } from '../../eval/runner.js';
import type { AgentSystem } from '../../eval/types.js';
import { compareRunsView } from './compare-api.js';
import type { RunEntry } from './runs.js';

interface Question {
  id: string;
  answer: string;
}
// 12 Bar Exam questions (A–D)
const QUESTIONS: Question[] = Array.from({ length: 12 }, (_, i) => ({ id: `mbe_${200 + i}`, answer: 'ABCD'[i % 4] }));

/** Answers `pick(i)`; the questions `fail` picks end in an HTTP 400 from the model server. */
const system =
  (pick: (i: number, answer: string) => string, fail: (i: number) => boolean): AgentSystem<Question> =>
  async (q) => {
    const i = Number(q.id.slice(4)) - 200;
    if (fail(i)) throw errors.llmRequestFailed('HTTP 400: 400 bad request');
    return { prediction: pick(i, q.answer), trace: {} };
  };

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lexcase-compare-same-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function makeRun(name: string, sys: AgentSystem<Question>): Promise<RunEntry> {
  const dir = join(root, name);
  await runExperiment({ runDir: dir, system: sys, items: QUESTIONS, gold: (q) => q.answer, makeContext: contextFrom(), config: { system: 'mine' }, seed: 13 });
  return { id: name, dir, root, kind: 'run', system: 'mine', items: QUESTIONS.length, correct: 0, graphs: 0 };
}

describe('/api/compare: same prediction', () => {
  it('counts the items where both runs gave one answer, not those both failed', async () => {
    // both answer A on questions 0–5; both fail 9–11; B answers B where A answers A on 6–8
    const a = await makeRun(
      'a',
      system(
        () => 'A',
        (i) => i >= 9,
      ),
    );
    const b = await makeRun(
      'b',
      system(
        (i) => (i < 6 ? 'A' : 'B'),
        (i) => i >= 9,
      ),
    );
    const view = await compareRunsView(a, b);
    expect(view.failed).toEqual({ a: 3, b: 3 });
    expect(view.shared).toBe(12);
    expect(view.samePrediction).toBe(6);
  });
});
