/**
 * Reasoning models served without a reasoning parser (DeepSeek-R1, Qwen3, QwQ on llama.cpp or a
 * proxy) put a `<think>…</think>` block before the answer in the content. A draft answer in that
 * block is not the model's answer, and a reply cut off inside it (finish_reason "length") has none.
 * Driven through the real client against a scripted OpenAI-compatible server on 127.0.0.1.
 */
import { HumanMessage } from '@langchain/core/messages';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { llmConfigSchema } from '../config.js';
import { setLogLevel } from '../log.js';
import { createChatModel } from './factory.js';
import { invokeStructured, withoutReasoning } from './structured.js';

const answer = z.object({ reasoning: z.string(), answer: z.enum(['A', 'B', 'C', 'D']) });
const ask = [new HumanMessage('Answer the multiple-choice question. Reply with JSON {"reasoning", "answer"}.')];
const model = (srv: ScriptedServer) =>
  createChatModel(
    llmConfigSchema.parse({ baseUrl: srv.url, model: 'qwen3', structuredOutput: 'prompt', retryBaseMs: 1, retryMaxMs: 5, maxRetries: 0, cacheDir: false }),
  );

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  setLogLevel('info');
});

describe('a <think> block before the answer', () => {
  it('a draft object inside the block is not taken for the answer: the object after it is', async () => {
    srv = await startScriptedServer([
      {
        content:
          '<think>First guess: {"reasoning": "adverse possession", "answer": "A"}. No — the statute ran.</think>\n{"reasoning": "the statute ran", "answer": "B"}',
      },
    ]);
    const r = await invokeStructured(model(srv), ask, answer, { what: 'multiple-choice answer' });
    expect(r.value.answer).toBe('B');
    expect(r.attempts).toBe(1);
  });

  it('braces in the reasoning do not make the answer unparseable', async () => {
    srv = await startScriptedServer([
      { content: '<think>The elements {duty, breach} are met. Answer: A?</think>\n\n{"reasoning": "negligence", "answer": "C"}' },
    ]);
    const r = await invokeStructured(model(srv), ask, answer, { what: 'multiple-choice answer' });
    expect(r.value.answer).toBe('C');
    expect(r.attempts).toBe(1);
  });

  it('a template that opens the block in the prompt (only "</think>" in the reply): the reasoning before it is dropped', async () => {
    srv = await startScriptedServer([{ content: 'Maybe {"reasoning": "draft", "answer": "D"}.\n</think>\n{"reasoning": "final", "answer": "A"}' }]);
    const r = await invokeStructured(model(srv), ask, answer, { what: 'multiple-choice answer' });
    expect(r.value.answer).toBe('A');
  });

  it('a reply cut off at the token limit inside the block is no answer: the draft in it is never scored', async () => {
    setLogLevel('error');
    const cut = { content: '<think>Option A fits: {"reasoning": "draft", "answer": "A"}. But consider', finishReason: 'length' };
    srv = await startScriptedServer([cut, cut]);
    const err = await invokeStructured(model(srv), ask, answer, { what: 'multiple-choice answer' }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/LLM output for multiple-choice answer could not be parsed: .*<think> reasoning block that was never closed/);
    expect(srv.requests).toHaveLength(2);
  });

  it('a JSON answer whose string mentions </think> is left whole', () => {
    const text = '{"reasoning": "the tag </think> is literal", "answer": "B"}';
    expect(withoutReasoning(text)).toBe(text);
  });
});
