import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { describe, expect, it } from 'vitest';
import { extractToolTrace, parseToolOutput, TOKEN_LIMIT_NOTE } from './tool-trace.js';

describe('tool trace extraction', () => {
  it('search output (which echoes its query) gives ids and no rewritten query', () => {
    const p = parseToolOutput(JSON.stringify({ method: 'bm25', query: 'hearsay', results: [{ id: 'a', score: 3, rank: 1, snippet: 's' }] }));
    expect(p).toEqual({ hits: [{ id: 'a', rank: 1, snippet: 's' }], output: undefined, error: undefined });
  });
  it('rewrite_query output gives the rewritten query and no ids; errors are kept', () => {
    expect(parseToolOutput(JSON.stringify({ query: 'ISSUE: hearsay. RULE: FRE 801', style: 'structured' }))).toMatchObject({
      hits: [],
      output: 'ISSUE: hearsay. RULE: FRE 801',
    });
    expect(parseToolOutput(JSON.stringify({ error: 'model failed', query: 'x' })).error).toBe('model failed');
  });
  it('records a tool call with malformed arguments (never run) with its raw arguments and an error', () => {
    const msgs = [
      new HumanMessage('task'),
      new AIMessage({
        content: '',
        tool_calls: [],
        invalid_tool_calls: [{ type: 'invalid_tool_call', id: 't9', name: 'bm25_search', args: '{"query": "hearsay', error: 'Malformed args.' }],
      }),
      new AIMessage('{"evidence":[]}'),
    ];
    const t = extractToolTrace(msgs);
    expect(t.calls).toEqual([{ tool: 'bm25_search', query: '{"query": "hearsay', ids: [], step: 1, error: 'malformed tool-call arguments: Malformed args.' }]);
    expect(t.candidates.size).toBe(0);
  });
  it('pairs tool calls with their results by id and sums reciprocal-rank scores per passage', () => {
    const msgs = [
      new HumanMessage('task'),
      new AIMessage({
        content: '',
        tool_calls: [
          { id: 't1', name: 'bm25_search', args: { query: 'q1' } },
          { id: 't2', name: 'rewrite_query', args: { query: 'q' } },
        ],
      }),
      new ToolMessage({ tool_call_id: 't2', content: JSON.stringify({ query: 'better q' }) }),
      new ToolMessage({
        tool_call_id: 't1',
        content: JSON.stringify({
          results: [
            { id: 'a', rank: 1 },
            { id: 'b', rank: 2 },
          ],
        }),
      }),
      new AIMessage({ content: '', tool_calls: [{ id: 't3', name: 'qld_search', args: { query: 'better q' } }] }),
      new ToolMessage({ tool_call_id: 't3', content: JSON.stringify({ results: [{ id: 'b', rank: 1 }] }) }),
      new AIMessage('{"evidence":[]}'),
    ];
    const t = extractToolTrace(msgs);
    expect(t.steps).toBe(3);
    expect(t.calls).toEqual([
      { tool: 'bm25_search', query: 'q1', ids: ['a', 'b'], step: 1 },
      { tool: 'rewrite_query', query: 'q', ids: [], step: 1, output: 'better q' },
      { tool: 'qld_search', query: 'better q', ids: ['b'], step: 2 },
    ]);
    expect(t.candidates.get('a')!.score).toBeCloseTo(1 / 61);
    expect(t.candidates.get('b')!.score).toBeCloseTo(1 / 62 + 1 / 61);
    expect(t.candidates.get('b')!.bestRank).toBe(1);
  });
  it('counts model replies as steps, not the note a limit appends when it ends the loop (--max-steps 2: 2 model calls, 2 steps)', () => {
    const call = (id: string) => new AIMessage({ content: '', tool_calls: [{ id, name: 'bm25_search', args: { query: 'hearsay' } }] });
    const result = (id: string) => new ToolMessage({ tool_call_id: id, content: JSON.stringify({ results: [{ id: 'a', rank: 1 }] }) });
    const loop = [new HumanMessage('task'), call('t1'), result('t1'), call('t2'), result('t2')];
    expect(extractToolTrace([...loop, new AIMessage('Model call limits exceeded: run limit (2/2)')]).steps).toBe(2);
    expect(extractToolTrace([...loop, new AIMessage(TOKEN_LIMIT_NOTE)]).steps).toBe(2);
    expect(extractToolTrace([...loop, new AIMessage('{"evidence":[]}')]).steps).toBe(3);
  });
});

describe('tool-call arguments sent as a JSON object (not a JSON string)', () => {
  it('are read as the same call sent as a string (it runs: its query in the trace), and the evidence command prints it', async () => {
    const { startScriptedServer } = await import('../../tests/support/scripted-openai-server.js');
    const { createChatModel } = await import('../../core/llm/factory.js');
    const { llmConfigSchema } = await import('../../core/config.js');
    const { formatEvidence } = await import('../../src/cli/commands/evidence.js');
    const args = { query: 'negligence duty of care breach', k: 3 };
    const srv = await startScriptedServer([
      {
        raw: JSON.stringify({
          id: 'chatcmpl-0',
          object: 'chat.completion',
          created: 1_700_000_000,
          model: 'm',
          choices: [
            {
              index: 0,
              message: {
                role: 'assistant',
                content: null,
                tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'bm25_search', arguments: args } }],
              },
              finish_reason: 'tool_calls',
            },
          ],
          usage: { prompt_tokens: 90, completion_tokens: 12, total_tokens: 102 },
        }),
      },
    ]);
    try {
      const model = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'm', apiKey: 'k', maxRetries: 0, cacheDir: false }));
      const reply = await model.invoke([new HumanMessage('task')]);
      const t = extractToolTrace([new HumanMessage('task'), reply]);
      // first the query was the object itself, and the evidence command crashed ("(s ?? "").replace is not a function");
      // then a malformed call that never ran (its arguments as text); now the call as sent as a string
      expect(t.calls).toHaveLength(1);
      expect(t.calls[0]).toMatchObject({ tool: 'bm25_search', query: args.query });
      expect(t.calls[0].error).toBeUndefined();
      const text = formatEvidence({ hypothesis: 'h', facts: '', stance: 'for', mode: 'llm', evidence: [], toolCalls: t.calls, stop: 'final' } as never);
      expect(text).toContain(`bm25_search [step 1]: "${args.query}"`);
    } finally {
      await srv.close();
    }
  });
});
