/**
 * A request whose item ends while a failed attempt waits out its backoff to be sent again (a MAD-like
 * item: one debater's request got HTTP 500, a sibling's HTTP 400 failed the item before the retry
 * went out) reached the server once. Before, it was counted twice — as a failed attempt sent again
 * (`tokens.retried`) and as cut off (`tokens.abandoned`) — so the run's calls + retried + refused +
 * cut off came to one more than the requests the server received (3 for 2). Now a retry is counted
 * when it is sent: the request is counted once, as cut off, and the retry that never went out is
 * neither a request nor cut off.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../tests/support/scripted-openai-server.js';
import { runTokensText } from './run-counts.js';
import { readDebateExchanges, runDebate } from './test-support/debate-system.js';
import { requestsCounted } from './test-support/requests-counted.js';

/** Debater A: HTTP 500 at once (retried after a 30 s backoff); debater B: HTTP 400 half a second later (not retried: it fails the item). */
const script = (r: RecordedRequest) =>
  JSON.stringify(r.body.messages).includes('debater A') ? { status: 500, error: 'upstream failed' } : { status: 400, error: 'bad request', delayMs: 500 };

let dir: string;
let srv: ScriptedServer | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-backoff-cutoff-'));
});
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  rmSync(dir, { recursive: true, force: true });
});

describe('a request whose item ended during its backoff', () => {
  it('is counted once, as cut off, not as sent again too: calls + retried + refused + cut off = the requests the server received (before: 3 for 2)', async () => {
    srv = await startScriptedServer(script);
    const runDir = join(dir, 'run');
    // two debaters at once; the item fails when either request fails
    const r = await runDebate({
      runDir,
      baseUrl: srv.url,
      debaters: ['A', 'B'],
      llm: { maxRetries: 3, retryBaseMs: 30_000, retryMaxMs: 30_000 },
    });
    expect(r.failed).toBe(1);
    // A's 500 and B's 400: A's retry never went out
    expect(srv.requests).toHaveLength(2);
    const t = r.results[0].tokens!;
    // before: { calls: 0, refused: 1, abandoned: 1, retried: 1 }
    expect(t).toMatchObject({ calls: 0, refused: 1, abandoned: 1, retried: 0 });
    expect(requestsCounted(r.results)).toBe(srv.requests.length);
    const cut = readDebateExchanges(runDir).find((x) => x.abandoned);
    expect(cut).toBeDefined();
    expect(cut!.unsent).toBeUndefined();
    expect(cut!.retries).toBeUndefined();
    // the line every `lexcase run` prints says the same
    expect(runTokensText(r.results, 0)).toBe(
      'tokens 0; 1 request cut off when its item ended (its usage is in no total); 1 request refused (an error instead of a reply after retries, e.g. HTTP 400; not in LLM calls)',
    );
  });
});
