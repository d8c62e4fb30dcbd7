/**
 * A reply whose usage has 0 (or no) tokens on one side and some on the other: Ollama's OpenAI API
 * sent `prompt_tokens: 0` for a prompt it had cached (ollama/ollama#5370), and some servers send no
 * `completion_tokens`. No request costs 0 prompt tokens and no answer 0 completion tokens, so that side
 * is undercounted. Before, it was read as 0 without a word: an auditor's `run case --max-tokens 8000`
 * against such a server reported 930 tokens and ran every advocate to its step limit, where the same
 * replies with their prompt tokens stopped at the token limit after 57,570. Now each such call counts
 * as `oneSided`, warned once, and said in report.md and the counts line.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HumanMessage } from '@langchain/core/messages';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { completionWithUsage as completion, startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { readRun } from '../../eval/report/read-run.js';
import { tokensSection } from '../../eval/report/sections/tokens.js';
import { runExperiment } from '../../eval/runner.js';
import { replyFlagsText, runReplyFlags } from '../../eval/run-counts.js';
import { llmConfigSchema } from '../config.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  vi.restoreAllMocks();
});
// the fresh module graph this file made (its once-per-process warnings said) is not the one later files in a shared
// worker get: they load their own, whose warnings are still unsaid (total-above.test.ts counts its one)
afterAll(() => vi.resetModules());

describe('a reply with 0 (or no) tokens on one side of its usage', () => {
  it('counts as oneSided (prompt 0; no completion_tokens; completion null), warned once; a full usage, or a total that holds the missing side, does not', async () => {
    srv = await startScriptedServer([
      { raw: completion(1, { prompt_tokens: 0, completion_tokens: 30, total_tokens: 30 }) },
      { raw: completion(2, { prompt_tokens: 400 }) },
      { raw: completion(3, { prompt_tokens: 400, completion_tokens: null, total_tokens: 400 }) },
      { raw: completion(4, { prompt_tokens: 20, completion_tokens: 10, total_tokens: 30 }) },
      // the total holds the prompt's tokens: counted in the total (totalAbove), not undercounted
      { raw: completion(5, { prompt_tokens: 0, completion_tokens: 30, total_tokens: 430 }) },
    ]);
    const stderr: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr.push(String(chunk));
      return true;
    });
    // the warning is once per process: a fresh module graph (the fast tier runs files in shared workers, where an
    // earlier file's one-sided reply may have said it already)
    vi.resetModules();
    const { createChatModel } = await import('./factory.js');
    const { UsageMeter } = await import('./usage.js');
    const usage = new UsageMeter();
    const model = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'ollama-model', maxRetries: 0, cacheDir: false }), { usage });
    for (const q of ['1', '2', '3', '4', '5']) await model.invoke([new HumanMessage(q)]);
    expect(usage.snapshot()).toEqual({ input: 820, output: 70, total: 1290, calls: 5, cached: 0, oneSided: 3, totalAbove: 1 });
    const warned = stderr.filter((l) => /oneSided/.test(l));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain('reported 0 prompt tokens beside 30 completion tokens for a reply');
  });

  it('report.md and the counts line say how many calls reported 0 tokens on one side', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lexcase-one-sided-'));
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
        line('mbe_137', { input: 0, output: 90, total: 90, calls: 3, cached: 0, oneSided: 3, retried: 0 }) +
          line('mbe_581', { input: 1200, output: 90, total: 1290, calls: 3, cached: 0, retried: 0 }),
      );
      const run = await readRun(dir);
      expect(replyFlagsText(runReplyFlags(run.results))).toBe('; 3 of 6 LLM calls reported 0 tokens on one side of usage (input or output undercounted)');
      const section = (await tokensSection(run, {} as never))!;
      expect(section.markdown).toMatch(/\| calls with 0 tokens on one side of usage \(that side undercounted\) +\| +3 \|/);
      expect(section.markdown).toContain('**The endpoint reported 0 (or no) tokens on one side of usage for 3 of 6 calls**');
      expect(section.json).toMatchObject({ input: 1200, output: 180, total: 1380, oneSided: 3 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
