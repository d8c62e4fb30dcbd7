/**
 * A model's refusal (OpenAI's chat completion `message.refusal`, `content: null`): the item fails, as
 * any reply with no answer does, and its error quotes what the model said. Before, LangChain's
 * converter dropped the field, so the error read "no JSON object found in the reply" (a structured
 * request) or "the reply holds no text besides any reasoning" (a 3-ply ply): a reader of the run
 * could not tell a refusal from a broken server. Real OpenAI client, scripted server on 127.0.0.1.
 */
import { HumanMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { draftPly } from '../../agents/threeply/argument-developer.js';
import { startScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { llmConfigSchema } from '../config.js';
import { createChatModel } from './factory.js';
import { invokeStructured } from './structured.js';

const REFUSAL = "I'm sorry, but I can't help with legal advice on this matter.";
const refused = (n: number) =>
  JSON.stringify({
    id: `chatcmpl-${n}`,
    object: 'chat.completion',
    created: 1,
    model: 'scripted',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: null, refusal: REFUSAL } }],
    usage: { prompt_tokens: 12, completion_tokens: 14, total_tokens: 26 },
  });
const schema = z.object({ reasoning: z.string(), answer: z.enum(['A', 'B', 'C', 'D']) });

describe('a model that refuses', () => {
  it.each(['prompt', 'tool', 'json_schema'] as const)('a structured request (%s mode) fails with the refusal quoted', async (structuredOutput) => {
    let n = 0;
    const srv = await startScriptedServer(() => ({ raw: refused(++n) }));
    try {
      const llm = createChatModel(
        llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0, timeoutMs: 5000, structuredOutput }),
      );
      const e = await invokeStructured(llm, [new HumanMessage('Answer with {"reasoning","answer"}.')], schema, { what: 'multiple-choice answer' }).catch(
        (x: Error) => x,
      );
      expect(e).toBeInstanceOf(Error);
      expect((e as Error).message).toContain(`could not be parsed: the model refused (its reply's \`refusal\`, no content): ${JSON.stringify(REFUSAL)}`);
      expect((e as Error).message).not.toContain('no JSON object');
    } finally {
      await srv.close();
    }
  });

  it('a 3-ply ply fails with the refusal quoted, not as a reply cut inside its reasoning', async () => {
    const srv = await startScriptedServer(() => ({ raw: refused(1) }));
    try {
      const llm = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0, timeoutMs: 5000 }));
      const e = await draftPly(llm, 'plaintiff', 'plaintiff', 'a triple', '').catch((x: Error) => x);
      expect((e as Error).message).toContain(`the model refused (its reply's \`refusal\`, no content): ${JSON.stringify(REFUSAL)}`);
      expect((e as Error).message).not.toContain('cut off at the token limit');
    } finally {
      await srv.close();
    }
  });
});
