/**
 * A comparison judges each run as the system that wrote it (provenance.lexcaseSystem), as report.md
 * and the explorer's headline figures do: two runs of a system of the user's own that names itself
 * "retrieval" (a RAG pipeline answering Bar Exam questions, recording its own recall@5) are compared
 * by accuracy, each failed item counted as wrong. Before, `lexcase compare`, its --json and the
 * explorer's compare views went by the name alone: they printed Recall@5 "0.448 → 0.448, 0.000"
 * over 29 items with B's 11 failed items "left out of every measure: no ranking recorded", while
 * report.md of the same runs headlines accuracy (45.0% for A).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errors } from '../../core/errors.js';
import { compareRunsView } from '../../web/server/compare-api.js';
import { compareManyRuns } from '../../web/server/compare-runs-api.js';
import type { RunEntry } from '../../web/server/runs.js';
import { contextFrom, runExperiment } from '../runner.js';
import type { AgentSystem } from '../types.js';
import { compareRuns, formatComparison } from './compare.js';

interface Question {
  id: string;
  answer: string;
}
// 20 Bar Exam questions (A–D)
const QUESTIONS: Question[] = Array.from({ length: 20 }, (_, i) => ({ id: `mbe_${100 + i}`, answer: 'ABCD'[i % 4] }));
const wrong = (a: string) => 'ABCD'[('ABCD'.indexOf(a) + 1) % 4];

/** Right on the questions `right` picks; the ones `fail` picks end in an HTTP 400; recall@5 is 1 on even questions. */
const system =
  (right: (i: number) => boolean, fail: (i: number) => boolean): AgentSystem<Question> =>
  async (q) => {
    const i = Number(q.id.slice(4)) - 100;
    if (fail(i)) throw errors.llmRequestFailed('HTTP 400: 400 bad request');
    return { prediction: right(i) ? q.answer : wrong(q.answer), trace: {}, metrics: { 'recall@5': i % 2 === 0 ? 1 : 0 } };
  };

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'lexcase-compare-own-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function makeRun(name: string, sys: AgentSystem<Question>, lexcaseSystem?: string): Promise<RunEntry> {
  const dir = join(root, name);
  await runExperiment({
    runDir: dir,
    system: sys,
    items: QUESTIONS,
    gold: (q) => q.answer,
    makeContext: contextFrom(),
    config: { system: 'retrieval', method: 'my-rag' },
    seed: 13,
    ...(lexcaseSystem ? { lexcaseSystem } : {}),
  });
  return { id: name, dir, root, kind: 'run', system: 'retrieval', items: QUESTIONS.length, correct: 0, graphs: 0 };
}

/** Two runs of the system of your own: A right on 10 of 20; B right on 16 of 20 where it answered, but 6 failed (HTTP 400). */
async function makeMinePair(): Promise<{ a: RunEntry; b: RunEntry }> {
  const a = await makeRun(
    'mine-a',
    system(
      (i) => i < 10,
      () => false,
    ),
  );
  const b = await makeRun(
    'mine-b',
    system(
      () => true,
      (i) => i >= 14,
    ),
  );
  return { a, b };
}

describe('compare: a system of your own named "retrieval"', () => {
  it('is compared by accuracy, its failed items counted as wrong (text, --json)', async () => {
    const { a, b } = await makeMinePair();
    const c = await compareRuns(a.dir, b.dir);
    expect(c.judgedBy).toBe('accuracy');
    expect(c.primary.id).toBe('accuracy');
    expect(c.primary.n).toBe(20);
    // A 10/20, B 14/20 (its 6 failed items wrong): +20.0 pp; discordant: only B right on 10..13 → 4
    expect(c.primary.text).toMatchObject({ a: '50.0%', b: '70.0%', diff: '+20.0 pp', test: 'exact McNemar' });
    expect(c.agreement).toEqual({ both: 10, onlyA: 0, onlyB: 4, neither: 6 });
    expect(c.failedLine).toBe('failed among the shared items: A 0, B 6 (counted as wrong in accuracy)');
    expect(c.measures.map((m) => m.id)).not.toContain('recall@5');
    expect(formatComparison(c)).toContain('| accuracy | 20 | 50.0% | 70.0% | +20.0 pp |');
  });

  it("the explorer's /api/compare and /api/compare/runs judge it the same way, and mark ✓ by right answers", async () => {
    const { a, b } = await makeMinePair();
    const pair = await compareRunsView(a, b);
    expect(pair.judgedBy).toBe('accuracy');
    expect(pair.primary.text.diff).toBe('+20.0 pp');
    expect(pair.rightMeans).toBe('right');
    const many = await compareManyRuns([a, b]);
    expect(many.pairs[0]).toMatchObject({ measure: 'accuracy', judgedBy: 'accuracy', failed: { a: 0, b: 6 } });
    expect(many.matrix.rightMeans).toBe('right');
  });

  it("lexcase's own retrieval runs are still compared by their retrieval measures", async () => {
    const a = await makeRun(
      'bm25',
      system(
        (i) => i < 10,
        () => false,
      ),
      'retrieval',
    );
    const b = await makeRun(
      'qld',
      system(
        () => true,
        () => false,
      ),
      'retrieval',
    );
    const c = await compareRuns(a.dir, b.dir);
    expect(c.judgedBy).toBe('retrieval measures');
    expect(c.primary.label).toBe('Recall@5');
  });
});
