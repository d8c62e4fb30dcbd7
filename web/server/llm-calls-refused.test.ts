/**
 * The LLM-calls panel of an item with a request refused after its retries: results.jsonl counts 5
 * calls (the replies) and 1 refused request, llm/<item>.jsonl holds 6 exchanges. The endpoint passes
 * the refused count with the totals, from which the panel's "Item totals" says "5 calls (+1 refused)"
 * over its six rows (before: "5 calls" over six rows, the sixth unexplained).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCalls } from './llm-calls-api.js';
import type { RunEntry } from './runs.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'lexcase-refused-calls-')));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const usage = (i: number, o: number) => ({ tokenUsage: { promptTokens: i, completionTokens: o, totalTokens: i + o } });
const exchange = (n: number, stage: string) => ({
  n,
  key: `k${n}`,
  stage,
  ms: 100 + n,
  request: { messages: [{ role: 'user', content: `step ${n}` }], params: { model: 'scripted' } },
  reply: { generations: [{ text: `reply ${n}`, message: { content: `reply ${n}` } }], llmOutput: usage(100, 10) },
});

describe('the LLM-calls panel of an item with a refused request', () => {
  it('totals say "5 calls (+1 refused)" over the six rows, the refused request a row with its error', async () => {
    const dir = join(root, 'run');
    mkdirSync(join(dir, 'llm'), { recursive: true });
    const record = {
      id: 'q1',
      gold: 'A',
      prediction: 'A',
      correct: true,
      ms: 900,
      tokens: { input: 500, output: 50, total: 550, calls: 5, cached: 0, refused: 1 },
    };
    writeFileSync(join(dir, 'results.jsonl'), `${JSON.stringify(record)}\n`);
    const lines = [1, 2, 3, 4].map((n) => exchange(n, `advocate ${'ABCD'[n - 1]}`));
    lines.push({
      n: 5,
      key: 'k5',
      stage: 'juror Skeptic',
      ms: 30,
      error: { code: 'LLM_REQUEST_FAILED', message: 'LLM request failed: HTTP 400: context length exceeded' },
      request: { messages: [{ role: 'user', content: 'juror' }], params: { model: 'scripted' } },
    } as unknown as ReturnType<typeof exchange>);
    lines.push(exchange(6, 'juror Skeptic'));
    writeFileSync(join(dir, 'llm', 'q1.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
    const run = { id: 'run', dir, root, kind: 'case', items: 1 } as RunEntry;
    const r = await runCalls(run, 'q1');
    expect(r.source).toBe('recorded');
    expect(r.calls).toHaveLength(6);
    expect(r.calls.filter((c) => c.error)).toHaveLength(1);
    expect(r.problems).toEqual([]);
    expect(r.totals).toMatchObject({ calls: 5, tokens: 550, refused: 1 });
    // web/app/llm-calls.ts itemTotalsText(r.totals): " Item totals: 5 calls (+1 refused), 550 tokens, 900 ms." (web/app/llm-call-totals.test.ts)
  });
});
