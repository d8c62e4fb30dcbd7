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
import { extractJson, invokeStructured, withoutReasoning } from './structured.js';

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

describe('the other shapes reasoning models send their reasoning in', () => {
  const draft = '{"reasoning": "draft", "answer": "A"}';
  const final = '{"reasoning": "final", "answer": "B"}';

  it('a <thinking> block (not <think>): the draft object inside it is not taken for the answer', async () => {
    srv = await startScriptedServer([{ content: `<thinking>Perhaps ${draft}. No, the rule is otherwise.</thinking>\n${final}` }]);
    const r = await invokeStructured(model(srv), ask, answer, { what: 'multiple-choice answer' });
    expect(r.value.answer).toBe('B');
    expect(r.attempts).toBe(1);
  });

  it("a gpt-oss reply whose Harmony channels the server left in the content: the final channel's object is the answer, not the analysis channel's", async () => {
    srv = await startScriptedServer([
      { content: `<|channel|>analysis<|message|>Draft: ${draft}. Reconsider.<|end|><|start|>assistant<|channel|>final<|message|>${final}<|return|>` },
    ]);
    const r = await invokeStructured(model(srv), ask, answer, { what: 'multiple-choice answer' });
    expect(r.value.answer).toBe('B');
    expect(r.attempts).toBe(1);
  });

  it('a Harmony reply cut off in its analysis channel (no final channel) is no answer: asked again, then refused', async () => {
    setLogLevel('error');
    const cut = { content: `<|channel|>analysis<|message|>Option A fits: ${draft}. But consider`, finishReason: 'length' };
    srv = await startScriptedServer([cut, cut]);
    const err = await invokeStructured(model(srv), ask, answer, { what: 'multiple-choice answer' }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/could not be parsed: .*only a Harmony analysis channel, no final one/);
    expect(srv.requests).toHaveLength(2);
  });
});

describe('two JSON objects in one reply', () => {
  const draft = '{"reasoning": "draft", "answer": "A"}';
  const final = '{"reasoning": "final", "answer": "B"}';

  it.each([
    ['a draft, then a revision after prose', `${draft}\nOn reflection, the better answer:\n${final}`],
    ['two fenced blocks', `Draft:\n\`\`\`json\n${draft}\n\`\`\`\nFinal:\n\`\`\`json\n${final}\n\`\`\``],
    ['a fenced answer, then another object in the prose', `\`\`\`json\n${final}\n\`\`\`\nEarlier I wrote ${draft}.`],
  ])('%s: neither is taken for the answer (asked again, then refused)', async (_, content) => {
    setLogLevel('error');
    srv = await startScriptedServer([{ content }, { content }]);
    const err = await invokeStructured(model(srv), ask, answer, { what: 'multiple-choice answer' }).catch((e: Error) => e);
    expect((err as Error).message).toMatch(/could not be parsed: the reply holds 2 different JSON objects/);
    expect(srv.requests).toHaveLength(2);
  });

  it('the same object written twice, a fenced object with prose after it, an array of objects, braces in prose: each is read', () => {
    expect(extractJson(`${final}\nAgain: ${final}`)).toEqual({ reasoning: 'final', answer: 'B' });
    expect(extractJson(`\`\`\`json\n${final}\n\`\`\`\nThis is because {duty, breach} hold [P3].`)).toEqual({ reasoning: 'final', answer: 'B' });
    expect(extractJson('The list: [{"a": 1}, {"a": 2}].')).toEqual([{ a: 1 }, { a: 2 }]);
    expect(extractJson('```\n{"a": "```x"}\n```')).toEqual({ a: '```x' });
  });

  it('a malformed object before a valid one is not skipped over: refused', () => {
    expect(() => extractJson(`{"reasoning": "draft", "answer": A}\n${final}`)).toThrow(/2 different JSON objects/);
  });
});
