/**
 * Two searches a model asks for in one reply run in parallel, and the one it wrote second may finish
 * first. The passages' handles (P1, P2, …) still follow the order the model wrote the calls: before
 * 2026-12-04 they followed the order the searches finished, so under load the next request's text
 * changed with nothing else changed, and a seeded server answered it differently (a CASE run's
 * confidence went from "low" to "tie" in tests/repeated-ids.test.ts, CI of b401c12d, load ~5).
 */
import { tool } from '@langchain/core/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { runAdvocate } from './advocate.js';
import { keywordRetriever, PASSAGES, QUESTION } from './test-support/fixtures.js';
import { oneReplyOfCalls, type ToolMessageSeen } from './test-support/one-reply-server.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

/** A search tool over the fixtures; `before` runs first (a gate the test holds open). */
function searchTool(name: string, before: () => Promise<void>, after: () => void, log: string[]) {
  const retriever = keywordRetriever(name);
  return tool(
    async ({ query, k }: { query: string; k?: number }) => {
      await before();
      const hits = await retriever.search(query, { k: k ?? 3 });
      log.push(name);
      after();
      return JSON.stringify({ results: hits.map((h) => ({ ...h, snippet: PASSAGES[h.id].slice(0, 120) })) });
    },
    { name, description: 'search', schema: z.object({ query: z.string(), k: z.number().int().optional() }) },
  );
}

async function advocateSeen(secondFinishesFirst: boolean) {
  let secondDone!: () => void;
  const secondFinished = new Promise<void>((r) => (secondDone = r));
  const finished: string[] = [];
  const bm25 = searchTool(
    'bm25_search',
    () => (secondFinishesFirst ? secondFinished : Promise.resolve()),
    () => undefined,
    finished,
  );
  const qld = searchTool(
    'qld_search',
    () => Promise.resolve(),
    () => secondDone(),
    finished,
  );
  let seen: ToolMessageSeen[] = [];
  const made = await oneReplyOfCalls(
    [
      { name: 'bm25_search', args: { query: 'witness impeach credibility', k: 2 }, id: 'call_a' },
      { name: 'qld_search', args: { query: 'relevant evidence admissible', k: 2 }, id: 'call_b' },
    ],
    (msgs) => {
      seen = msgs;
      return ['P1'];
    },
  );
  srv = made.srv;
  const llm = made.llm;
  const r = await runAdvocate({ llm, tools: [bm25, qld], facts: QUESTION.question, hypothesis: { key: 'A', letter: 'A', text: 'impeach' }, k: 1 });
  await srv.close();
  srv = undefined;
  return { finished, seen, evidence: r.evidence.map((e) => e.id) };
}

describe('passage handles of parallel tool calls', () => {
  it('follow the order the model wrote the calls, whichever search finishes first', async () => {
    const inOrder = await advocateSeen(false);
    const reversed = await advocateSeen(true);
    expect(inOrder.finished).toEqual(['bm25_search', 'qld_search']);
    expect(reversed.finished).toEqual(['qld_search', 'bm25_search']); // the second call really finished first
    // the first call's passages are P1, P2 both times, and the model saw the same text
    expect(inOrder.seen.map((m) => m.handles)).toEqual([
      ['P1', 'P2'],
      ['P3', 'P4'],
    ]);
    expect(reversed.seen).toEqual(inOrder.seen);
    expect(reversed.evidence).toEqual(inOrder.evidence);
    expect(inOrder.evidence).toHaveLength(1);
  });
});
