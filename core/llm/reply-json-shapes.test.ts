import { HumanMessage } from '@langchain/core/messages';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { llmConfigSchema, type LlmConfig } from '../config.js';
import { setLogLevel } from '../log.js';
import { createChatModel } from './factory.js';
import { extractJson, invokeStructured, structuredFailure } from './structured.js';

const vote = z.object({ reasoning: z.string().default(''), vote: z.enum(['A', 'B', 'C', 'D']) });
const ask = [new HumanMessage('Vote for one option. Reply with JSON {"reasoning", "vote"}.')];
const twoVotes = '{"reasoning": "B fits the rule, though C is close", "vote": "B", "vote": "C"}';

function cfg(srv: ScriptedServer, over: Partial<LlmConfig> = {}): LlmConfig {
  return llmConfigSchema.parse({
    baseUrl: srv.url,
    model: 'scripted',
    retryBaseMs: 1,
    retryMaxMs: 5,
    maxRetries: 1,
    timeoutMs: 5000,
    cacheDir: false,
    ...over,
  });
}

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  setLogLevel('info');
});

describe('a reply whose JSON object names its answer twice with different values is refused, never scored by the last', () => {
  it('json_schema mode: both tries naming two votes fail the step with the reason, keeping the raw replies', async () => {
    setLogLevel('error');
    srv = await startScriptedServer([{ content: twoVotes }, { content: twoVotes }]);
    const err = await invokeStructured(createChatModel(cfg(srv)), ask, vote, { what: 'juror Judge' }).catch((e) => e);
    expect(err.code).toBe('LLM_OUTPUT_INVALID');
    expect(err.message).toContain('names "vote" 2 times with different values: "B", then "C"');
    expect(structuredFailure(err).raw).toEqual([twoVotes, twoVotes]);
  });

  it('the re-ask says why, and a reply that then names one vote is the answer', async () => {
    srv = await startScriptedServer([{ content: twoVotes }, { content: '{"reasoning": "r", "vote": "C"}' }]);
    const r = await invokeStructured(createChatModel(cfg(srv)), ask, vote, { what: 'juror Judge' });
    expect(r.value.vote).toBe('C');
    expect(r.attempts).toBe(2);
    expect(JSON.stringify(srv.requests[1].body.messages)).toContain('names \\"vote\\" 2 times with different values');
  });

  it('prompt mode: in a fence or in prose the object is refused just the same', async () => {
    setLogLevel('error');
    const fenced = `Here is my vote.\n\`\`\`json\n${twoVotes}\n\`\`\``;
    expect(() => extractJson(fenced)).toThrow(/names "vote" 2 times/);
    expect(() => extractJson(`My answer: ${twoVotes} — final.`)).toThrow(/names "vote" 2 times/);
    srv = await startScriptedServer([{ content: fenced }, { content: fenced }]);
    const err = await invokeStructured(createChatModel(cfg(srv, { structuredOutput: 'prompt' })), ask, vote, { what: 'juror Judge' }).catch((e) => e);
    expect(err.code).toBe('LLM_OUTPUT_INVALID');
  });

  it('tool mode: arguments naming two votes are refused (LangChain had parsed them to the last)', async () => {
    setLogLevel('error');
    srv = await startScriptedServer([{ rawToolArgs: twoVotes }, { rawToolArgs: twoVotes }]);
    const err = await invokeStructured(createChatModel(cfg(srv, { structuredOutput: 'tool' })), ask, vote, { what: 'juror Judge' }).catch((e) => e);
    expect(err.code).toBe('LLM_OUTPUT_INVALID');
    expect(err.message).toContain('names "vote" 2 times with different values');
  });

  it('a key repeated with the same value names one answer and is read', async () => {
    srv = await startScriptedServer([{ rawToolArgs: '{"reasoning": "r", "vote": "D", "vote": "D"}' }]);
    const r = await invokeStructured(createChatModel(cfg(srv, { structuredOutput: 'tool' })), ask, vote, { what: 'juror Judge' });
    expect(r.value.vote).toBe('D');
    expect(r.attempts).toBe(1);
  });
});

describe('a reply whose content is a JSON object, not text (helper audit)', () => {
  it('is read as that object (before: the item failed with "c.map is not a function")', async () => {
    const body = JSON.stringify({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1_700_000_000,
      model: 'm',
      choices: [{ index: 0, message: { role: 'assistant', content: { reasoning: 'r', vote: 'C' } }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
    srv = await startScriptedServer([{ raw: body }]);
    const r = await invokeStructured(createChatModel(cfg(srv)), ask, vote, { what: 'juror Judge' });
    expect(r.value.vote).toBe('C');
    expect(r.attempts).toBe(1);
  });
});
