/**
 * A reply whose `total_tokens` is above prompt + completion: gateways in front of Gemini send a
 * thinking model's reasoning in the total alone (`prompt_tokens: 20, completion_tokens: 198,
 * total_tokens: 623`: 405 thought tokens). Before, the run meter's total was prompt + completion (218),
 * while CASE's per-step tallies and token budgets counted the reply's total_tokens (623): `run case`
 * printed "Tokens: 7194 total, … (hypotheses 0, advocates 14952, jury 5607)" — stages that sum to
 * 20,559 under a total of 7,194, 65% of the tokens spent lost from the total with no word.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AIMessage, HumanMessage } from '@langchain/core/messages';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { completionWithUsage as completion, startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { tokensOf } from '../../agents/case/tool-trace.js';
import { readRun } from '../../eval/report/read-run.js';
import { tokensSection } from '../../eval/report/sections/tokens.js';
import { runExperiment } from '../../eval/runner.js';
import { replyFlagsText, runReplyFlags } from '../../eval/run-counts.js';
import { llmConfigSchema } from '../config.js';
import { createChatModel } from './factory.js';
import { UsageMeter } from './usage.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  vi.restoreAllMocks();
});

/** One Gemini 2.5 Flash reply as a gateway passed it on (the thought tokens in total_tokens alone). */
const THINKING = { prompt_tokens: 20, completion_tokens: 198, total_tokens: 623 };

describe('a reply whose total_tokens is above prompt + completion', () => {
  it('counts its total in the run total (the excess not in input/output), as the per-step tallies do; counted as totalAbove, one warning', async () => {
    srv = await startScriptedServer([
      { raw: completion(1, THINKING) },
      { raw: completion(2, { prompt_tokens: 20, completion_tokens: 198, total_tokens: 218 }) },
      // a total below prompt + completion is no excess: prompt + completion stands
      { raw: completion(3, { prompt_tokens: 20, completion_tokens: 198, total_tokens: 200 }) },
    ]);
    const stderr: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr.push(String(chunk));
      return true;
    });
    const usage = new UsageMeter();
    const model = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'gemini-2.5-flash', maxRetries: 0, cacheDir: false }), { usage });
    const replies: AIMessage[] = [];
    for (const q of ['1', '2', '3']) replies.push((await model.invoke([new HumanMessage(q)])) as AIMessage);
    // before: total 654 (218 × 3) while the per-step tally counted 1,041
    expect(usage.snapshot()).toEqual({ input: 60, output: 594, total: 623 + 218 + 218, calls: 3, cached: 0, totalAbove: 1 });
    expect(tokensOf(replies.slice(0, 2))).toBe(usage.snapshot().total - 218);
    const warned = stderr.filter((l) => /total_tokens above prompt \+ completion/.test(l));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain('20 + 198, total 623');
  });

  it('report.md and the counts line say how many calls had a total above input + output', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lexcase-total-above-'));
    try {
      await runExperiment({
        runDir: dir,
        system: async () => ({ prediction: 'A', trace: {} }),
        items: [{ id: 'mbe_137' }, { id: 'mbe_581' }],
        gold: () => 'A',
        makeContext: () => ({ seed: 0, tools: [], retrievers: {}, getPassage: async () => undefined, options: {} }),
        config: { system: 'debate' },
        seed: 1,
      });
      const line = (id: string, tokens: Record<string, number>) => `${JSON.stringify({ id, prediction: 'A', gold: 'A', correct: true, ms: 900, tokens })}\n`;
      writeFileSync(
        join(dir, 'results.jsonl'),
        line('mbe_137', { input: 20, output: 198, total: 623, calls: 1, cached: 0, totalAbove: 1, retried: 0 }) +
          line('mbe_581', { input: 20, output: 198, total: 218, calls: 1, cached: 0, retried: 0 }),
      );
      const run = await readRun(dir);
      expect(replyFlagsText(runReplyFlags(run.results))).toBe('; 1 of 2 LLM calls reported a total above input + output (the excess is in the total)');
      const section = (await tokensSection(run, {} as never))!;
      expect(section.markdown).toMatch(/\| calls with a total above input \+ output \(the excess in total\) +\| +1 \|/);
      expect(section.markdown).toContain('**The endpoint reported a total above input + output for 1 of 2 calls**');
      expect(section.json).toMatchObject({ input: 40, output: 396, total: 841, totalAbove: 1 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
