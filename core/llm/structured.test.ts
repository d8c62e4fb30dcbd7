import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HumanMessage } from '@langchain/core/messages';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { schemaFollowing, startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { llmConfigSchema, type LlmConfig } from '../config.js';
import { errors, LexcaseError } from '../errors.js';
import { setLogLevel } from '../log.js';
import { createChatModel, llmStats } from './factory.js';
import { extractJson, invokeStructured, rejectsStructuredOutput, structuredFailure } from './structured.js';

const vote = z.object({ reasoning: z.string().default(''), vote: z.enum(['A', 'B', 'C', 'D']) });
const ask = [new HumanMessage('Vote for one option. Reply with JSON {"reasoning", "vote"}.')];

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

describe('invokeStructured through the factory (scripted OpenAI-compatible server)', () => {
  it('json_schema (default): sends response_format with the JSON Schema; a schema-following server is parsed', async () => {
    srv = await startScriptedServer(schemaFollowing({ fill: (v) => ({ ...v, vote: 'C' }) }));
    const r = await invokeStructured(createChatModel(cfg(srv)), ask, vote, { what: 'juror Judge' });
    expect(r.value).toEqual({ reasoning: 'x', vote: 'C' });
    expect(r.mode).toBe('json_schema');
    const rf = srv.requests[0].body.response_format;
    expect(rf.type).toBe('json_schema');
    expect(rf.json_schema.name).toBe('juror_Judge');
    expect(rf.json_schema.schema.properties.vote.enum).toEqual(['A', 'B', 'C', 'D']);
    expect(srv.requests[0].body.tools).toBeUndefined();
  });

  it('tool: forces a tool call whose arguments are the object', async () => {
    srv = await startScriptedServer(schemaFollowing({ fill: (v) => ({ ...v, vote: 'B' }) }));
    const r = await invokeStructured(createChatModel(cfg(srv, { structuredOutput: 'tool' })), ask, vote, { what: 'juror Judge' });
    expect(r.value.vote).toBe('B');
    const body = srv.requests[0].body;
    expect(body.tool_choice).toEqual({ type: 'function', function: { name: 'juror_Judge' } });
    expect(body.tools[0].function.parameters.properties.vote.enum).toEqual(['A', 'B', 'C', 'D']);
    expect(body.response_format).toBeUndefined();
  });

  it('prompt: sends neither; a schema-following server then answers prose and the step fails visibly', async () => {
    srv = await startScriptedServer(schemaFollowing());
    const err = await invokeStructured(createChatModel(cfg(srv, { structuredOutput: 'prompt' })), ask, vote, { what: 'juror Judge' }).catch((e) => e);
    expect(err).toBeInstanceOf(LexcaseError);
    expect(err.code).toBe('LLM_OUTPUT_INVALID');
    expect(structuredFailure(err).raw).toHaveLength(2);
    expect(srv.requests.every((r) => r.body.response_format === undefined && r.body.tools === undefined)).toBe(true);
  });

  it('records malformed tool-call arguments and repairs them with one more request', async () => {
    srv = await startScriptedServer([{ rawToolArgs: '{"vote": "B", "reasoning": ' }, { json: { reasoning: 'r', vote: 'D' } }]);
    const r = await invokeStructured(createChatModel(cfg(srv, { structuredOutput: 'tool' })), ask, vote, { what: 'juror Judge' });
    expect(r.value.vote).toBe('D');
    expect(r.attempts).toBe(2);
    expect(r.invalidToolCalls).toEqual([expect.objectContaining({ name: 'juror_Judge', args: '{"vote": "B", "reasoning": ' })]);
    expect(JSON.stringify(srv.requests[1].body.messages)).toContain('could not be parsed');
  });

  it('tool: parallel calls of the function with different arguments (a draft, then the answer) are refused, never read as the first', async () => {
    setLogLevel('error');
    const two = {
      toolCalls: [
        { name: 'juror_Judge', args: { reasoning: 'draft', vote: 'A' } },
        { name: 'juror_Judge', args: { reasoning: 'final', vote: 'B' } },
      ],
    };
    srv = await startScriptedServer([two, two]);
    const err = await invokeStructured(createChatModel(cfg(srv, { structuredOutput: 'tool' })), ask, vote, { what: 'juror Judge' }).catch((e) => e);
    expect(err.code).toBe('LLM_OUTPUT_INVALID');
    expect(err.message).toMatch(/the reply holds 2 calls with different arguments/);
    expect(srv.requests).toHaveLength(2);
  });

  it('tool: the same call sent twice in one reply is read once', async () => {
    const args = { reasoning: 'final', vote: 'C' };
    srv = await startScriptedServer([
      {
        toolCalls: [
          { name: 'juror_Judge', args },
          { name: 'juror_Judge', args },
        ],
      },
    ]);
    const r = await invokeStructured(createChatModel(cfg(srv, { structuredOutput: 'tool' })), ask, vote, { what: 'juror Judge' });
    expect(r.value.vote).toBe('C');
    expect(r.attempts).toBe(1);
  });

  it('tool: arguments sent as a JSON object rather than a string are read as the same call, not as malformed', async () => {
    const completion = {
      id: 'c1',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [
        {
          index: 0,
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'juror_Judge', arguments: { reasoning: 'r', vote: 'D' } } }],
          },
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    };
    srv = await startScriptedServer([{ raw: JSON.stringify(completion) }]);
    const r = await invokeStructured(createChatModel(cfg(srv, { structuredOutput: 'tool' })), ask, vote, { what: 'juror Judge' });
    expect(r.value.vote).toBe('D');
    expect(r.attempts).toBe(1);
    expect(r.invalidToolCalls ?? []).toEqual([]);
  });

  it('malformed twice: LLM_OUTPUT_INVALID carries both raw replies and the malformed calls', async () => {
    srv = await startScriptedServer([{ rawToolArgs: 'vote=B' }, { rawToolArgs: '{"vote": "Z"' }]);
    const warn = vi.spyOn(console, 'warn');
    const err = await invokeStructured(createChatModel(cfg(srv, { structuredOutput: 'tool' })), ask, vote, { what: 'juror Judge' }).catch((e) => e);
    expect(err.code).toBe('LLM_OUTPUT_INVALID');
    const f = structuredFailure(err);
    expect(f.raw).toEqual(['vote=B', '{"vote": "Z"']);
    expect(f.invalidToolCalls.map((c) => c.args)).toEqual(['vote=B', '{"vote": "Z"']);
    // LangChain's "New LangChain packages are available" notice is not printed for malformed calls.
    expect(warn.mock.calls.flat().join(' ')).not.toContain('New LangChain packages');
    warn.mockRestore();
  });

  it('a json_schema reply that is not JSON is repaired by lexcase, not retried as a transport error', async () => {
    srv = await startScriptedServer([{ content: 'B, clearly' }, { json: { vote: 'B' } }]);
    const r = await invokeStructured(createChatModel(cfg(srv)), ask, vote, { what: 'vote' });
    expect(r.value.vote).toBe('B');
    expect(r.raw).toEqual(['B, clearly', '{"vote":"B"}']);
    expect(srv.requests).toHaveLength(2);
  });

  it('an endpoint that rejects response_format (HTTP 400) falls back to prompt-only JSON once, with a warning', async () => {
    srv = await startScriptedServer((req) =>
      req.body.response_format ? { status: 400, error: 'response_format json_schema is not supported' } : { content: '```json\n{"vote": "A"}\n```' },
    );
    setLogLevel('silent');
    const model = createChatModel(cfg(srv));
    const r1 = await invokeStructured(model, ask, vote, { what: 'vote' });
    const r2 = await invokeStructured(model, ask, vote, { what: 'vote' });
    expect([r1.value.vote, r2.value.vote]).toEqual(['A', 'A']);
    expect(r2.mode).toBe('prompt');
    // One rejected request, then prompt mode for the rest.
    expect(srv.requests.map((r) => !!r.body.response_format)).toEqual([true, false, false]);
  });

  it('concurrent requests the endpoint rejects for structured output print the fallback warning once', async () => {
    srv = await startScriptedServer((req) =>
      req.body.response_format ? { status: 400, error: 'response_format json_schema is not supported' } : { content: '{"vote": "D"}' },
    );
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const model = createChatModel(cfg(srv));
      // four requests sent before any refusal came back (MAD's debaters of a round), all refused
      const rs = await Promise.all([1, 2, 3, 4].map(() => invokeStructured(model, ask, vote, { what: 'vote' })));
      expect(rs.map((r) => r.value.vote)).toEqual(['D', 'D', 'D', 'D']);
      expect(srv.requests.filter((r) => r.body.response_format)).toHaveLength(4);
      const warnings = err.mock.calls.map((c) => String(c[0])).filter((t) => t.includes('rejected structured output'));
      // before: one warning per refused request (4)
      expect(warnings).toHaveLength(1);
    } finally {
      err.mockRestore();
    }
  });

  it('a 400 that is not about structured output (a context-length overflow, a bad message) fails the step and leaves the mode as it was', async () => {
    const refusals = [
      "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion).",
      "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens (including 120 in the tools).",
      'bad request: unknown field',
    ];
    for (const error of refusals) {
      srv = await startScriptedServer((req) => (req.index === 0 ? { status: 400, error } : { json: { vote: 'B' } }));
      setLogLevel('silent');
      const model = createChatModel(cfg(srv));
      // before: any 400 switched the model (and every later item of the run) to prompt-only JSON, and the step went on
      await expect(invokeStructured(model, ask, vote, { what: 'vote' })).rejects.toMatchObject({ code: 'LLM_REQUEST_FAILED' });
      const next = await invokeStructured(model, ask, vote, { what: 'vote' });
      expect([next.mode, next.value.vote], error).toEqual(['json_schema', 'B']);
      expect(srv.requests.map((r) => !!r.body.response_format)).toEqual([true, true]);
      await srv.close();
      srv = undefined;
    }
    // the refusals that do name the mode still switch it (llama.cpp, vLLM, Ollama)
    for (const error of ['Unsupported response_format type', 'json_schema is not supported by this model', 'model does not support tools'])
      expect(rejectsStructuredOutput(errors.llmRequestFailed(`HTTP 400 ${error}`)), error).toBe(true);
  });

  it('structured requests are cached per mode: a rerun is served from the cache, another mode is a new request', async () => {
    srv = await startScriptedServer(schemaFollowing({ fill: (v) => ({ ...v, vote: 'A' }) }));
    const cacheDir = mkdtempSync(join(tmpdir(), 'lexcase-structured-cache-'));
    try {
      const a = createChatModel(cfg(srv, { cacheDir }));
      await invokeStructured(a, ask, vote, { what: 'vote' });
      const again = createChatModel(cfg(srv, { cacheDir }));
      expect((await invokeStructured(again, ask, vote, { what: 'vote' })).value.vote).toBe('A');
      expect(llmStats(again)).toMatchObject({ requests: 0, cacheHits: 1 });
      await invokeStructured(createChatModel(cfg(srv, { cacheDir, structuredOutput: 'tool' })), ask, vote, { what: 'vote' });
      expect(srv.requests).toHaveLength(2);
    } finally {
      rmSync(cacheDir, { recursive: true, force: true });
    }
  });
});

const twoVotes = '{"reasoning": "B fits the rule, though C is close", "vote": "B", "vote": "C"}';

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
