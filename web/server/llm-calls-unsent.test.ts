/**
 * The LLM-calls panel of an item whose calls were still waiting for a concurrency slot when it ended
 * (never sent: recorded `abandoned, unsent`, in no results.jsonl count): its rows show them, and its
 * totals now count them under their own label ("never sent"), so the totals name every row. Before,
 * the totals left them out: "0 calls (+1 cut off)" over three rows against a server that received
 * one request.
 */
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { failOnceServerHasARequest, runDebate } from '../../eval/test-support/debate-system.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { runCalls } from './llm-calls-api.js';
import type { RunEntry } from './runs.js';

let srv: ScriptedServer | undefined;
let root: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'lexcase-unsent-panel-')));
});
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  rmSync(root, { recursive: true, force: true });
});

describe('the LLM-calls panel of an item with calls never sent', () => {
  it('counts them in the totals under their own label, so totals and rows agree: 0 calls + 1 cut off + 2 never sent = 3 rows (before: the 2 were in no total)', async () => {
    srv = await startScriptedServer(() => ({ hang: true }));
    const dir = join(root, 'run');
    // three debaters at once through one concurrency slot: A's request reaches the server (which never
    // answers it), B and C wait for the slot; a step of the item's own fails once the server has A's
    // request, so the item ends with A in flight and B, C never sent
    const r = await runDebate({
      runDir: dir,
      baseUrl: srv.url,
      debaters: ['A', 'B', 'C'],
      llm: { maxRetries: 0, concurrency: 1 },
      ownStep: () => failOnceServerHasARequest(srv!),
    });
    expect(r.failed).toBe(1);
    expect(srv.requests).toHaveLength(1);
    const panel = await runCalls({ id: 'run', dir, root, kind: 'run', items: 1, correct: 0, graphs: 0 } as RunEntry, 'mbe_581');
    expect(panel.source).toBe('recorded');
    expect(panel.calls).toHaveLength(3);
    // before: { calls: 0, abandoned: 1 } and no unsent
    expect(panel.totals).toMatchObject({ calls: 0, abandoned: 1, unsent: 2 });
    const t = panel.totals as { calls: number; refused?: number; abandoned?: number; unsent?: number };
    expect(t.calls + (t.refused ?? 0) + (t.abandoned ?? 0) + (t.unsent ?? 0)).toBe(panel.calls.length);
    // of them, what reached the server: the sum the run's counts make (calls + refused + cut off + sent again)
    expect(t.calls + (t.refused ?? 0) + (t.abandoned ?? 0) + (r.results[0].tokens?.retried ?? 0)).toBe(srv.requests.length);
    expect(panel.problems).toContain('2 calls were still waiting for a concurrency slot when the item ended: never sent');
  });
});
