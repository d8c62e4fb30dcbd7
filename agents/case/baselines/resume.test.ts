/**
 * Resume after an interruption with a recording fake model: run 3 questions, cut results.jsonl
 * back to the first record plus a torn line, rerun — only the 2 missing questions reach the model.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runExperiment } from '../../../eval/runner.js';
import { FakeChatModel } from '../../../tests/support/fake-chat-model.js';
import { QUESTION } from '../test-support/fixtures.js';
import { createBaseline } from './baseline-system.js';

const dir = mkdtempSync(join(tmpdir(), 'lexcase-baseline-resume-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('resume after interruption', () => {
  it('reruns only the items missing from results.jsonl', async () => {
    const items = ['q1', 'q2', 'q3'].map((id, i) => ({ ...QUESTION, id, question: `${QUESTION.question} (variant ${i})` }));
    const model = new FakeChatModel((call) => `{"reasoning":"r","answer":"${/variant 1/.test(call.text) ? 'C' : 'B'}"}`);
    const opts = {
      runDir: join(dir, 'run'),
      system: createBaseline('llm-only'),
      items,
      gold: (q: { answer: string }) => q.answer,
      makeContext: (_q: unknown, { seed }: { seed: number }) => ({
        seed,
        tools: [],
        retrievers: {},
        llm: model,
        getPassage: async () => undefined,
        options: {},
      }),
      config: { system: 'baseline', mode: 'llm-only' },
      seed: 13,
    };
    const first = await runExperiment(opts);
    expect(first.ran).toBe(3);
    expect(model.calls).toHaveLength(3);
    const file = join(dir, 'run', 'results.jsonl');
    const [l1, l2] = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, `${l1}\n${l2.slice(0, 15)}`);
    const second = await runExperiment(opts);
    expect(second).toMatchObject({ ran: 2, skipped: 1 });
    expect(model.calls).toHaveLength(5);
    expect(
      model.calls
        .slice(3)
        .map((c) => /variant (\d)/.exec(c.text)![1])
        .sort(),
    ).toEqual(['1', '2']);
    expect(second.results.map((r) => [r.id, r.prediction, r.correct]).sort()).toEqual([
      ['q1', 'B', true],
      ['q2', 'C', false],
      ['q3', 'B', true],
    ]);
  });
});
