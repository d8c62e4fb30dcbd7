/**
 * The LLM of serve, serve --api and mcp (their one use: the CASE advocate of find_evidence) runs at the
 * sampling `run case` and `lexcase evidence` give the same advocate: CASE's temperature 0.3 unless set.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { resolveServerLlm } from './query-service-flags.js';

let srv: ScriptedServer;
beforeAll(async () => {
  srv = await startScriptedServer(() => ({ content: 'ok' }));
});
afterAll(() => srv.close());
afterEach(() => vi.unstubAllEnvs());

describe('resolveServerLlm', () => {
  const flags = () => ({ endpoint: srv.url, model: 'm', cache: false });

  it("sends CASE's temperature 0.3 where config and environment set none, and names it as lexcase's default (the paper gives the agents none)", async () => {
    vi.stubEnv('LEXCASE_LLM_TEMPERATURE', undefined as unknown as string);
    const llm = await resolveServerLlm(flags());
    expect(llm.paperDefaults).toMatchObject({ system: 'case', fromPaper: [], lexcaseDefaults: ['temperature'] });
    await llm.model!.invoke('hello');
    expect(srv.requests.at(-1)!.body.temperature).toBe(0.3);
  });

  it('a temperature set in the environment wins, even 0', async () => {
    vi.stubEnv('LEXCASE_LLM_TEMPERATURE', '0');
    const llm = await resolveServerLlm(flags());
    await llm.model!.invoke('hello');
    expect(srv.requests.at(-1)!.body.temperature).toBe(0);
  });

  it('without an LLM the server starts without one', async () => {
    const llm = await resolveServerLlm({ offline: true });
    expect(llm.model).toBeUndefined();
  });
});
