/**
 * `usage.prompt_tokens_details.cached_tokens` as the server sends it: a count of at most
 * prompt_tokens reaches the meter's `promptCached` (0 included: said is not absent); a value that is
 * no share of the prompt (a fraction, text, a negative number, more than prompt_tokens) is dropped —
 * the reply counts as not saying — with one warning naming the value, as fractional token counts
 * are. The warning is once per process: the client is loaded afresh (vi.resetModules).
 */
import { HumanMessage } from '@langchain/core/messages';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { completionWithUsage as completion, startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { llmConfigSchema } from '../config.js';
import { captureStderr } from '../../tests/support/capture-stderr.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  vi.restoreAllMocks();
  vi.resetModules();
});

const usage = (cached: unknown) => ({ prompt_tokens: 400, completion_tokens: 10, total_tokens: 410, prompt_tokens_details: { cached_tokens: cached } });

async function meterOf(replies: string[]) {
  srv = await startScriptedServer(replies.map((raw) => ({ raw })));
  vi.resetModules();
  const { createChatModel } = await import('./factory.js');
  const { UsageMeter } = await import('./usage.js');
  const meter = new UsageMeter();
  const model = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'm', apiKey: 'k', maxRetries: 0, cacheDir: false }), { usage: meter });
  for (const [i] of replies.entries()) await model.invoke([new HumanMessage(`q${i}`)]);
  return meter.snapshot();
}

describe("the server's prompt-cache tokens of a reply", () => {
  it('are summed into promptCached (a string of digits read as its number); 0 reported stays 0; a reply without them adds nothing', async () => {
    expect(await meterOf([completion(1, usage(256)), completion(2, usage('128')), completion(3, { prompt_tokens: 400, completion_tokens: 10 })])).toMatchObject(
      {
        input: 1200,
        promptCached: 384,
      },
    );
    expect(await meterOf([completion(1, usage(0))])).toMatchObject({ input: 400, promptCached: 0 });
    expect(await meterOf([completion(1, { prompt_tokens: 400, completion_tokens: 10 })])).not.toHaveProperty('promptCached');
  });

  it('a fraction, a negative number or more than prompt_tokens is dropped, with one warning naming the value', async () => {
    const stderr = captureStderr();
    const u = await meterOf([completion(1, usage(500)), completion(2, usage(12.5)), completion(3, usage(-3))]);
    expect(u).toMatchObject({ input: 1200, total: 1230, calls: 3 });
    expect(u).not.toHaveProperty('promptCached');
    const warned = stderr.filter((l) => /prompt-cache tokens/.test(l));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain('more than its prompt_tokens 400 (prompt_tokens_details.cached_tokens: 500)');
  });
});
