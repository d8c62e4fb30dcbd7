/**
 * ACAL's arena under server faults with one run-long AbortSignal (as the runner passes it): every
 * other request fails with HTTP 500 and is retried. The arena still decides the item, and the
 * signal is left with no abort listeners (the OpenAI SDK adds one per request; before each attempt
 * got its own linked signal this produced MaxListenersExceededWarning).
 */
import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel, llmStats } from '../../core/llm/factory.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { runArena } from './arena.js';
import { acalTask } from './tasks.js';
import { scriptedArena } from './test-support/scripted-arena.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe('ACAL arena under faults', () => {
  it('retries 500s on a shared run signal without leaking abort listeners or warning', async () => {
    const ok = scriptedArena();
    srv = await startScriptedServer((req, i) => (i % 2 === 0 ? { status: 500, error: 'flaky upstream' } : ok(req)));
    const llm = createChatModel(
      llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 3, retryBaseMs: 1, retryMaxMs: 2, timeoutMs: 5000 }),
    );
    const run = new AbortController();
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const { graph } = await runArena(
        llm,
        {
          itemId: 'hearsay-faults',
          task: acalTask('hearsay'),
          caseText: 'On the issue of whether the light was red, the witness testified that her friend told her the light was red.',
          evidence: [{ id: 'fre-801', title: 'FRE 801', text: '"Hearsay" means a statement offered to prove the truth of the matter asserted.' }],
        },
        { signal: run.signal },
      );
      await new Promise((r) => setImmediate(r));
      expect(graph.result!.verdict).toBe('Yes');
    } finally {
      process.off('warning', onWarning);
    }
    const stats = llmStats(llm)!;
    expect(stats.retries).toBeGreaterThanOrEqual(10);
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0);
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  }, 60_000);
});
