/**
 * llm.concurrency is a limit on one endpoint for the whole process: every factory model made for that
 * server shares it (request-limit.ts). Before, each model had its own limiter, so `run threeply` (its
 * run model and its Factor Distiller's evaluator, two models) kept 4 requests in flight at a server
 * configured for 2, and each find_evidence call of a library caller (a copy at CASE's sampling made by
 * withPaperDefaults) had its own: 3 callers asking 3 requests each had all 9 in flight.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { llmConfigSchema, loadConfig, type LlmConfig } from '../config.js';
import { createChatModel, withPaperDefaults } from './factory.js';

const servers: ScriptedServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function slowServer(): Promise<ScriptedServer> {
  const srv = await startScriptedServer((req) => ({ content: `reply ${req.index}`, delayMs: 80 }));
  servers.push(srv);
  return srv;
}

const cfg = (srv: ScriptedServer, over: Partial<LlmConfig> = {}): LlmConfig =>
  llmConfigSchema.parse({ baseUrl: srv.url, model: 'run-model', cacheDir: false, maxRetries: 0, timeoutMs: 10_000, concurrency: 2, ...over });

const asks = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag} question ${i}`);

describe('llm.concurrency: one limit per endpoint in the process', () => {
  it("3-ply's run model and its evaluator (another model name and temperature, one server) keep at most `concurrency` requests in flight there", async () => {
    const srv = await slowServer();
    const model = createChatModel(cfg(srv, { temperature: 0.7 }));
    const evaluator = createChatModel(cfg(srv, { model: 'evaluator-model', temperature: 0 }));
    await Promise.all([...asks(4, 'ply').map((q) => model.invoke(q)), ...asks(4, 'distil').map((q) => evaluator.invoke(q))]);
    expect(srv.requests).toHaveLength(8);
    expect(new Set(srv.requests.map((r) => r.body.model))).toEqual(new Set(['run-model', 'evaluator-model']));
    expect(srv.maxInFlight).toBe(2); // before: 4
  });

  it("a copy at a system's sampling (withPaperDefaults, as find_evidence makes for a library caller) shares the caller's model's limit", async () => {
    const srv = await slowServer();
    const cwd = mkdtempSync(join(tmpdir(), 'lexcase-limit-'));
    try {
      const { llm } = await loadConfig({
        cwd,
        env: { LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'run-model', LEXCASE_CACHE_DIR: 'off', LEXCASE_LLM_CONCURRENCY: '2' },
      });
      const model = createChatModel(llm);
      const atPaper = () => withPaperDefaults(model, (l) => ({ ...l, temperature: 0.3 }));
      expect(atPaper()).not.toBe(model);
      // three callers at once, each with its own copy (find_evidence makes one per call)
      await Promise.all([0, 1, 2].map((c) => Promise.all(asks(3, `caller ${c}`).map((q) => atPaper().invoke(q)))));
      expect(srv.requests).toHaveLength(9);
      expect(srv.maxInFlight).toBe(2); // before: 9 (each copy had its own limit)
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });

  it('two servers each get their own limit', async () => {
    const [a, b] = [await slowServer(), await slowServer()];
    const ma = createChatModel(cfg(a));
    const mb = createChatModel(cfg(b));
    await Promise.all([...asks(4, 'a').map((q) => ma.invoke(q)), ...asks(4, 'b').map((q) => mb.invoke(q))]);
    expect([a.maxInFlight, b.maxInFlight]).toEqual([2, 2]);
  });
});
