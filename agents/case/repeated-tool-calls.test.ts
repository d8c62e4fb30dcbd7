/**
 * A server that sends the same tool call twice in one reply (same tool and arguments, distinct ids,
 * keys in another order): the advocate runs it once, answers both ids, scores its passages once
 * (before 2026-12-02: twice, tilting the evidence ranking) and marks the repeat in its tool calls.
 */
import { tool } from '@langchain/core/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { runAdvocate } from './advocate.js';
import { RRF_K } from './tool-trace.js';
import { keywordRetriever, PASSAGES, QUESTION } from './test-support/fixtures.js';
import { oneReplyOfCalls } from './test-support/one-reply-server.js';
import { runToolCallCount } from '../../eval/run-counts.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe('identical tool calls in one reply', () => {
  it('run once, each id answered, each passage scored once, the repeat marked and counted', async () => {
    const runs: string[] = [];
    const bm25 = keywordRetriever('bm25');
    const search = tool(
      async ({ query, k }: { query: string; k?: number }) => {
        runs.push(query);
        const hits = await bm25.search(query, { k: k ?? 3 });
        return JSON.stringify({ results: hits.map((h) => ({ ...h, snippet: PASSAGES[h.id].slice(0, 200) })) });
      },
      { name: 'bm25_search', description: 'search', schema: z.object({ query: z.string(), k: z.number().int().optional() }) },
    );
    let answered: string[] = [];
    const made = await oneReplyOfCalls(
      [
        { name: 'bm25_search', args: { query: 'witness hearsay statement', k: 3 }, id: 'call_a' },
        { name: 'bm25_search', args: { k: 3, query: 'witness hearsay statement' }, id: 'call_b' },
      ],
      (msgs) => {
        answered = msgs.map((m) => m.tool_call_id ?? '');
        return [...new Set(msgs.flatMap((m) => m.handles))].slice(0, 2);
      },
    );
    srv = made.srv;
    const llm = made.llm;
    const r = await runAdvocate({ llm, tools: [search], facts: QUESTION.question, hypothesis: { key: 'A', letter: 'A', text: 'hearsay' }, k: 2 });
    expect(runs).toEqual(['witness hearsay statement']);
    expect(answered).toEqual(['call_a', 'call_b']);
    expect(r.toolCalls.map((c) => c.repeated ?? false)).toEqual([false, true]);
    expect(r.toolCalls[1].ids).toEqual([]);
    // the top passage, rank 1 in the one search: 1/(60+1), not 2/(60+1)
    expect(r.evidence[0].score).toBeCloseTo(1 / (RRF_K + 1), 10);
  });

  it('are counted across a run from the results', () => {
    const rec = (n?: number) => ({ id: 'q', prediction: 'A', metrics: n === undefined ? {} : { repeatedToolCalls: n } }) as never;
    expect(runToolCallCount([rec(2), rec(0), rec(1), rec()], 'repeatedToolCalls')).toEqual({ calls: 3, items: 2 });
  });
});
