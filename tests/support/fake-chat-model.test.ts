import { HumanMessage, SystemMessage, type AIMessageChunk } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { invokeStructured } from '../../core/llm/structured.js';
import { UsageMeter, withUsageScope } from '../../core/llm/usage.js';
import { FakeChatModel } from './fake-chat-model.js';
import { startScriptedServer } from './scripted-openai-server.js';

const search = tool(async () => '{"results":[]}', {
  name: 'qld_search',
  description: 'QLD search',
  schema: z.object({ query: z.string() }),
});

describe('FakeChatModel', () => {
  it('answers in order, records prompts and bound tools on one shared call list', async () => {
    const model = new FakeChatModel(['first', { toolCalls: [{ name: 'qld_search', args: { query: 'mens rea' } }] }]);
    const a = await model.invoke([new SystemMessage('You are a juror.'), new HumanMessage('Vote.')]);
    const b = await model.bindTools([search]).invoke('Search please');
    expect(a.content).toBe('first');
    expect(b.tool_calls?.[0]).toMatchObject({ name: 'qld_search', args: { query: 'mens rea' } });
    expect(model.calls).toHaveLength(2);
    expect(model.calls[0].text).toContain('You are a juror.');
    expect(model.calls[0].tools).toEqual([]);
    expect(model.calls[1].tools.map((t) => t.function.name)).toEqual(['qld_search']);
    await expect(model.invoke('third')).rejects.toThrow(/script exhausted/);
  });

  it('works with invokeStructured: a bad reply is retried once with the parse error', async () => {
    const model = new FakeChatModel(['not json', '```json\n{"vote":"C"}\n```']);
    const r = await invokeStructured(model, [new HumanMessage('vote')], z.object({ vote: z.enum(['A', 'B', 'C', 'D']) }), { what: 'juror vote' });
    expect(r.value.vote).toBe('C');
    expect(model.calls[1].text).toMatch(/could not be parsed/);
  });

  it('reports usage to its meter and the current scope; can throw scripted errors', async () => {
    const run = new UsageMeter();
    const item = run.fork();
    const model = new FakeChatModel([{ content: 'x', usage: { input: 12, output: 4 } }, { error: 'boom' }], { usage: run });
    await withUsageScope(item, () => model.invoke('q'));
    expect(item.snapshot()).toMatchObject({ input: 12, output: 4, calls: 1 });
    expect(run.snapshot()).toMatchObject({ input: 12, output: 4, calls: 1 });
    await expect(model.invoke('q')).rejects.toThrow('boom');
  });
});

describe('scripted server streaming', () => {
  // Only stream(): ChatOpenAI's invoke() with streaming:true estimates tokens with tiktoken, which
  // downloads its ranks from the network. The lexcase factory disables streaming for that reason.
  it('streams content and tool calls as SSE to a plain ChatOpenAI', async () => {
    const srv = await startScriptedServer([{ content: 'streamed text' }, { toolCalls: [{ name: 'qld_search', args: { query: 'q' } }] }]);
    try {
      const model = new ChatOpenAI({ model: 'm', apiKey: 'k-test', configuration: { baseURL: srv.url }, maxRetries: 0, timeout: 5000 });
      let text = '';
      for await (const chunk of await model.stream('hi')) text += chunk.content;
      expect(text).toBe('streamed text');
      let full: AIMessageChunk | undefined;
      for await (const chunk of await model.bindTools([search]).stream('search')) full = full ? full.concat(chunk) : chunk;
      expect(full?.tool_calls?.[0]).toMatchObject({ name: 'qld_search', args: { query: 'q' } });
      expect(srv.requests.every((r) => r.body.stream === true)).toBe(true);
    } finally {
      await srv.close();
    }
  });
});
