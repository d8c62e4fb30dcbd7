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
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../tests/support/scripted-openai-server.js';
import { totalsProblems } from '../web/server/llm-calls-api.js';
import { exchangesPath, parseInspectorCalls } from './llm-exchanges.js';
import { failOnceServerHasARequest, readDebateExchanges, runDebate } from './test-support/debate-system.js';
import { requestsCounted } from './test-support/requests-counted.js';

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
    const runDir = join(dir, 'run');
    // three debaters at once through one concurrency slot, and a step of the item's own that fails
    // once the server has A's request: A is in flight then (its reply takes 1 s), B and C wait for the slot
    const r = await runDebate({
      runDir,
      baseUrl: srv.url,
      debaters: ['A', 'B', 'C'],
      llm: { maxRetries: 0, concurrency: 1 },
      ownStep: () => failOnceServerHasARequest(srv!),
    });
    await new Promise((ok) => setTimeout(ok, 300)); // a queued request that would still go out would have by now
    expect(r.failed).toBe(1);
    const t = r.results[0].tokens!;
    const exchanges = readDebateExchanges(runDir);
    // A reached the server and was cut off; B and C, still queued when the item ended, were never sent
    expect(srv.requests.length).toBe(1);
    expect(requestsCounted(r.results)).toBe(srv.requests.length);
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
    const runDir = join(dir, 'run');
    const r = await runDebate({ runDir, baseUrl: srv.url, debaters: ['A', 'B', 'C'], llm: { maxRetries: 0, concurrency: 1 } });
    expect(r.failed).toBe(1);
    expect(srv.requests).toHaveLength(1);
    // before: { refused: 1, abandoned: 1 }
    expect(requestsCounted(r.results)).toBe(srv.requests.length);
    expect(readDebateExchanges(runDir).filter((x) => x.abandoned && x.unsent)).toHaveLength(2);
  });
});
