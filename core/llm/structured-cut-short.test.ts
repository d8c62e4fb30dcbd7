/**
 * A structured reply the endpoint stopped at its token limit (finish_reason "length") before its JSON
 * closed is never parsed into an answer: the call fails, and its error says first that the reply was
 * cut short (with the setting to raise), not only the parser's complaint about the half object (a
 * "[1]" in the cut reasoning read as an array: "expected object, received array"). Real OpenAI
 * client, scripted server on 127.0.0.1, prompt-only JSON as a plain endpoint gets it.
 */
import { HumanMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { llmConfigSchema } from '../config.js';
import { createChatModel } from './factory.js';
import { invokeStructured } from './structured.js';

const schema = z.object({ reasoning: z.string(), answer: z.enum(['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J']) });
const CUT = '{"reasoning":"the rule in [1] says the answer is A because';

describe('a structured reply cut at the token limit', () => {
  it('fails with an error that names the token limit first, and is never read as an answer', async () => {
    const srv = await startScriptedServer(() => ({ content: CUT, finishReason: 'length' }));
    try {
      const llm = createChatModel(
        llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0, timeoutMs: 5000, structuredOutput: 'prompt' }),
      );
      const e = await invokeStructured(llm, [new HumanMessage('Answer with {"reasoning","answer"}.')], schema, { what: 'multiple-choice answer' }).catch(
        (x: Error) => x,
      );
      expect(e).toBeInstanceOf(Error);
      expect((e as Error).message).toContain(
        'could not be parsed: the reply was cut short at the token limit (finish_reason "length"; raise llm.maxTokens, LEXCASE_LLM_MAX_TOKENS): ',
      );
      expect(srv.requests).toHaveLength(2); // one repair retry, as for any unparsable reply
      // the retry asks the model as before: only the parser's words, no setting it cannot change
      expect(JSON.stringify(srv.requests[1].body.messages)).not.toContain('token limit');
    } finally {
      await srv.close();
    }
  });

  it('a reply that stopped normally keeps the parser error alone', async () => {
    const srv = await startScriptedServer(() => ({ content: CUT, finishReason: 'stop' }));
    try {
      const llm = createChatModel(
        llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0, timeoutMs: 5000, structuredOutput: 'prompt' }),
      );
      const e = (await invokeStructured(llm, [new HumanMessage('Answer.')], schema, { what: 'multiple-choice answer' }).catch((x: Error) => x)) as Error;
      expect(e.message).toContain('could not be parsed');
      expect(e.message).not.toContain('token limit');
    } finally {
      await srv.close();
    }
  });

  it('a complete draft followed by a revision cut at the token limit is not read as the answer (the draft is withdrawn)', async () => {
    const REVISED =
      '{"reasoning":"The deed controls.","answer":"A"}\n\nOn reflection that is wrong: the condition is subsequent. Corrected answer:\n{"reasoning":"The condition is subsequent, so","answer":"C';
    const srv = await startScriptedServer(() => ({ content: REVISED, finishReason: 'length' }));
    try {
      const llm = createChatModel(
        llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0, timeoutMs: 5000, structuredOutput: 'prompt' }),
      );
      // before: {"answer": "A"} — the withdrawn draft scored, the cut revision dropped without a trace
      const e = (await invokeStructured(llm, [new HumanMessage('Answer.')], schema, { what: 'multiple-choice answer' }).catch((x: Error) => x)) as Error;
      expect(e).toBeInstanceOf(Error);
      expect(e.message).toContain('the reply was cut short at the token limit');
      expect(e.message).toContain('2 different JSON objects (a draft and a revision?)');
    } finally {
      await srv.close();
    }
  });
});
