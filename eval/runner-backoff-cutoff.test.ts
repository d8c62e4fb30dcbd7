/**
 * A request whose item ends while a failed attempt waits out its backoff to be sent again (a MAD-like
 * item: one debater's request got HTTP 500, a sibling's HTTP 400 failed the item before the retry
 * went out) reached the server once. Before, it was counted twice — as a failed attempt sent again
 * (`tokens.retried`) and as cut off (`tokens.abandoned`) — so the run's calls + retried + refused +
 * cut off came to one more than the requests the server received (3 for 2). Now a retry is counted
 * when it is sent: the request is counted once, as cut off, and the retry that never went out is
 * neither a request nor cut off.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HumanMessage } from '@langchain/core/messages';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { llmConfigSchema } from '../core/config.js';
import { createChatModel } from '../core/llm/factory.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../tests/support/scripted-openai-server.js';
import { exchangesPath } from './llm-exchanges.js';
import { runTokensText } from './run-counts.js';
import { contextFrom, runExperiment } from './runner.js';
import type { AgentSystem } from './types.js';

interface Q {
  id: string;
  answer: string;
}

/** Two debaters at once; the item fails when either request fails (Promise.all), as MAD's debaters do. */
const debate: AgentSystem<Q> = async (item, ctx) => {
  const ask = (who: string) => ctx.llm!.invoke([new HumanMessage(`[${item.id}] debater ${who}`)], { signal: ctx.signal });
  await Promise.all([ask('A'), ask('B')]);
  return { prediction: item.answer, trace: {} };
};

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
    const llm = createChatModel(
      llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 3, retryBaseMs: 30_000, retryMaxMs: 30_000 }),
    );
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
    expect(r.failed).toBe(1);
    // A's 500 and B's 400: A's retry never went out
    expect(srv.requests).toHaveLength(2);
    const t = r.results[0].tokens!;
    // before: { calls: 0, refused: 1, abandoned: 1, retried: 1 }
    expect(t).toMatchObject({ calls: 0, refused: 1, abandoned: 1, retried: 0 });
    expect(t.calls + (t.retried ?? 0) + (t.refused ?? 0) + (t.abandoned ?? 0)).toBe(srv.requests.length);
    const exchanges = readFileSync(exchangesPath(runDir, 'mbe_581'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { abandoned?: boolean; unsent?: boolean; retries?: number; error?: { message: string } });
    const cut = exchanges.find((x) => x.abandoned);
    expect(cut).toBeDefined();
    expect(cut!.unsent).toBeUndefined();
    expect(cut!.retries).toBeUndefined();
    // the line every `lexcase run` prints says the same
    expect(runTokensText(r.results, 0)).toBe(
      'tokens 0; 1 request cut off when its item ended (its usage is in no total); 1 request refused (an error instead of a reply after retries, e.g. HTTP 400; not in LLM calls)',
    );
  });
});
