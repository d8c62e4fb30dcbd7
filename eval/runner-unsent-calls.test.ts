/**
 * A request still waiting for its concurrency slot (llm.concurrency) when its item ended is never
 * sent: it is recorded `unsent` (beside `abandoned`, so a replay serves it as it happened) and not
 * counted as cut off. Before, it counted among "requests cut off when their item ended" (3 where the
 * server received 1), so the run's calls + retried + refused + cut off exceeded the requests sent; and
 * a request whose slot came free just after its item ended was still sent (now it checks first).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HumanMessage } from '@langchain/core/messages';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { llmConfigSchema } from '../core/config.js';
import { createChatModel } from '../core/llm/factory.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../tests/support/scripted-openai-server.js';
import { totalsProblems } from '../web/server/llm-calls-api.js';
import { exchangesPath, parseInspectorCalls } from './llm-exchanges.js';
import { contextFrom, runExperiment } from './runner.js';
import type { AgentSystem } from './types.js';

interface Q {
  id: string;
  answer: string;
}

/**
 * Three debaters at once through a model with one concurrency slot, and a step of the item's own that
 * fails 150 ms in: A is in flight then (its reply takes 1 s), B and C wait for the slot.
 */
const debate: AgentSystem<Q> = async (item, ctx) => {
  const ask = (who: string) => ctx.llm!.invoke([new HumanMessage(`[${item.id}] debater ${who}`)], { signal: ctx.signal });
  const failing = new Promise<never>((_, no) => setTimeout(() => no(new Error('the judge step failed')), 150));
  await Promise.all([ask('A'), ask('B'), ask('C'), failing]);
  return { prediction: item.answer, trace: {} };
};
const script = (_r: RecordedRequest) => ({ content: 'argued', usage: { prompt_tokens: 10, completion_tokens: 5 }, delayMs: 1000 });

let dir: string;
let srv: ScriptedServer | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-unsent-'));
});
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe('a request cut off before it got its concurrency slot', () => {
  it('is recorded unsent and not counted as cut off: refused + cut off + calls + retried = the requests the server received', async () => {
    srv = await startScriptedServer(script);
    const llm = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0, concurrency: 1 }));
    const runDir = join(dir, 'run');
    const r = await runExperiment({
      runDir,
      system: debate,
      items: [{ id: 'mbe_581', answer: 'B' }],
      gold: (q) => q.answer,
      makeContext: contextFrom({ llm }),
      config: { system: 'debate' },
      seed: 1,
    });
    await new Promise((ok) => setTimeout(ok, 300)); // a queued request that would still go out would have by now
    expect(r.failed).toBe(1);
    const t = r.results[0].tokens!;
    const exchanges = readFileSync(exchangesPath(runDir, 'mbe_581'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { abandoned?: boolean; unsent?: boolean });
    // A reached the server and was cut off; B and C, still queued when the item ended, were never sent
    expect(srv.requests.length).toBe(1);
    expect(t.calls + (t.retried ?? 0) + (t.refused ?? 0) + (t.abandoned ?? 0)).toBe(srv.requests.length);
    expect(t.abandoned).toBe(1);
    expect(exchanges.filter((x) => x.abandoned && x.unsent)).toHaveLength(2);
    // the explorer's LLM-call inspector says so
    const calls = parseInspectorCalls(readFileSync(exchangesPath(runDir, 'mbe_581'), 'utf8')).exchanges;
    expect(totalsProblems(calls, { calls: 0, tokens: 0 })).toEqual([
      '1 call was still in flight when the item ended and cut off: no reply, and what the endpoint spent on it (if anything) is in no total',
      '2 calls were still waiting for a concurrency slot when the item ended: never sent',
    ]);
  });

  it('a call handed the slot of the sibling whose refusal ends the item is not sent: counted as never sent, not cut off (before: 1 refused + 1 cut off where the server received 1)', async () => {
    // A's request is refused (HTTP 400, not retried): the item fails; B and C wait for A's slot
    srv = await startScriptedServer(() => ({ status: 400, error: 'bad request', delayMs: 50 }));
    const llm = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0, concurrency: 1 }));
    const runDir = join(dir, 'run');
    const debaters: AgentSystem<Q> = async (item, ctx) => {
      const ask = (who: string) => ctx.llm!.invoke([new HumanMessage(`[${item.id}] debater ${who}`)], { signal: ctx.signal });
      await Promise.all([ask('A'), ask('B'), ask('C')]);
      return { prediction: item.answer, trace: {} };
    };
    const r = await runExperiment({
      runDir,
      system: debaters,
      items: [{ id: 'mbe_581', answer: 'B' }],
      gold: (q) => q.answer,
      makeContext: contextFrom({ llm }),
      config: { system: 'debate' },
      seed: 1,
    });
    expect(r.failed).toBe(1);
    expect(srv.requests).toHaveLength(1);
    const t = r.results[0].tokens!;
    // before: { refused: 1, abandoned: 1 }
    expect(t.calls + (t.retried ?? 0) + (t.refused ?? 0) + (t.abandoned ?? 0)).toBe(srv.requests.length);
    const exchanges = readFileSync(exchangesPath(runDir, 'mbe_581'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { abandoned?: boolean; unsent?: boolean });
    expect(exchanges.filter((x) => x.abandoned && x.unsent)).toHaveLength(2);
  });
});
