/**
 * A reasoning model that runs out of tokens inside its reasoning sends no ply: an unclosed `<think>`
 * block, a Harmony analysis channel with no final one, or content null beside `reasoning_content`
 * (finish_reason "length"). Before, the ply was the empty string, kept as the argument's ply and
 * scored; now the step fails (LLM_OUTPUT_INVALID) and the triple is a failed item. The real client
 * against a scripted OpenAI-compatible server on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { draftPly } from './argument-developer.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const model = (s: ScriptedServer) => createChatModel(llmConfigSchema.parse({ baseUrl: s.url, model: 'qwen3', maxRetries: 0, cacheDir: false }));

describe('a ply reply with no text besides its reasoning', () => {
  it.each([
    ['an unclosed <think> block', '<think>The plaintiff relies on F6 Security-Measures and'],
    ['a Harmony analysis channel with no final one', '<|channel|>analysis<|message|>The plaintiff relies on F6 and'],
    ['empty content (the reasoning sent in reasoning_content, which is not read)', ''],
  ])('%s: the step fails, not an empty ply', async (_, content) => {
    srv = await startScriptedServer([{ content, finishReason: 'length' }]);
    const err = await draftPly(model(srv), 'plaintiff', 'plaintiff', 'c1 c2 c3', '').catch((e: Error) => e);
    expect(err).toMatchObject({ code: 'LLM_OUTPUT_INVALID' });
    expect((err as Error).message).toMatch(/the plaintiff ply could not be parsed: the reply holds no text besides any reasoning/);
  });

  it('a ply after a closed <think> block is the ply', async () => {
    srv = await startScriptedServer([{ content: '<think>draft</think>\nThe plaintiff should win: F6 Security-Measures.' }]);
    expect(await draftPly(model(srv), 'plaintiff', 'plaintiff', 'c1 c2 c3', '')).toBe('The plaintiff should win: F6 Security-Measures.');
  });
});
