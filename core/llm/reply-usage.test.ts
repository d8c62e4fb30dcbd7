import { AIMessage, HumanMessage } from '@langchain/core/messages';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { tokensOf } from '../../agents/case/tool-trace.js';
import { llmConfigSchema } from '../config.js';
import { createChatModel } from './factory.js';
import { spentTokens } from './spent-tokens.js';
import { UsageMeter } from './usage.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  vi.restoreAllMocks();
});

/** A completion body as some servers send it, with `usage` verbatim. */
const completion = (n: number, usage: unknown) =>
  JSON.stringify({
    id: `chatcmpl-${n}`,
    object: 'chat.completion',
    created: 1_700_000_000,
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content: `reply ${n}` }, finish_reason: 'stop' }],
    usage,
  });

describe('token usage of a completion is read as numbers', () => {
  it('string counts and a missing total_tokens give the same per-step tokens, run meter and budget count as proper numbers; one warning', async () => {
    srv = await startScriptedServer([
      { raw: completion(1, { prompt_tokens: '449', completion_tokens: '10', total_tokens: '459' }) },
      { raw: completion(2, { prompt_tokens: 449, completion_tokens: 10 }) },
      { raw: completion(3, { prompt_tokens: '449', completion_tokens: 'n/a' }) },
    ]);
    const stderr: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr.push(String(chunk));
      return true;
    });
    const usage = new UsageMeter();
    const model = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'm', apiKey: 'k', maxRetries: 0, cacheDir: false }), { usage });
    const replies: AIMessage[] = [];
    for (const q of ['1', '2', '3']) replies.push((await model.invoke([new HumanMessage(q)])) as AIMessage);
    // before: total_tokens "0459" (a string: 0 + "459"), then 0 for the reply without total_tokens
    expect(replies.map((r) => r.usage_metadata?.total_tokens)).toEqual([459, 459, 449]);
    expect(replies.map((r) => spentTokens(r))).toEqual([459, 459, 449]);
    expect(tokensOf(replies)).toBe(1367);
    expect(usage.snapshot()).toMatchObject({ input: 1347, output: 20, total: 1367, calls: 3 });
    const warned = stderr.filter((l) => /token usage that is not a number/.test(l));
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain('prompt_tokens: "449"');
  });
});
