import { Command } from 'commander';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { llmStats } from '../../core/llm/factory.js';
import { runModelConfig } from '../../core/llm/resolved-llm.js';
import { runDeferredPreflight } from '../../core/llm/deferred-preflight.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { addLlmOptions, resolveLlm } from './llm-options.js';

const parse = (args: string[]) => {
  const cmd = addLlmOptions(new Command('x').exitOverride());
  cmd.parse(args, { from: 'user' });
  return cmd.opts();
};

let srv: ScriptedServer;
beforeAll(async () => {
  srv = await startScriptedServer([], { models: ['m', 'flag-model'], apiKey: 'sk-flag' });
});
afterAll(() => srv.close());

describe('resolveLlm', () => {
  it('returns no model with --offline, even when nothing is configured', async () => {
    const r = await resolveLlm(parse(['--offline']), { env: {}, cwd: '/' });
    expect(r.model).toBeUndefined();
    expect(r.offline).toBe(true);
  });

  it('stops with LLM_NOT_CONFIGURED (saying how to configure) without --offline and without an endpoint', async () => {
    await expect(resolveLlm(parse([]), { env: {}, cwd: '/' })).rejects.toMatchObject({
      code: 'LLM_NOT_CONFIGURED',
      message: expect.stringMatching(/LEXCASE_LLM_BASE_URL.*--offline/s),
    });
  });

  it('builds a factory model from env after one preflight listing; --no-cache turns the cache off', async () => {
    const env = { LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'm', LEXCASE_LLM_API_KEY: 'sk-flag' };
    const before = srv.modelListings;
    const r = await resolveLlm(parse(['--no-cache']), { env, cwd: '/' });
    expect(r.model).toBeDefined();
    expect(llmStats(r.model)).toMatchObject({ requests: 0 });
    expect(r.config.llm.cacheDir).toBe(false);
    expect(srv.modelListings).toBe(before + 1);
  });

  it("preflight 'deferred' (run <system>): no request until the runner asks, then one for every model the command makes", async () => {
    const env = { LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'm', LEXCASE_LLM_API_KEY: 'sk-flag' };
    const before = srv.modelListings;
    const r = await resolveLlm(parse(['--no-cache']), { env, cwd: '/', preflight: 'deferred' });
    expect(srv.modelListings).toBe(before); // before: resolveLlm listed the models at once
    await runDeferredPreflight(r.model);
    await runDeferredPreflight(r.makeModel({ ...r.config.llm, temperature: 0.5 }));
    expect(srv.modelListings).toBe(before + 1);
    const down = await resolveLlm(parse(['--no-cache']), { env: { ...env, LEXCASE_LLM_API_KEY: 'sk-wrong' }, cwd: '/', preflight: 'deferred' });
    await expect(runDeferredPreflight(down.model)).rejects.toMatchObject({ code: 'LLM_UNAVAILABLE', message: expect.stringMatching(/refused the API key/) });
  });

  it("a system's sampling flag wins over env and the paper's value, and is not listed as the paper's", async () => {
    const env = {
      LEXCASE_LLM_BASE_URL: srv.url,
      LEXCASE_LLM_MODEL: 'm',
      LEXCASE_LLM_API_KEY: 'sk-flag',
      LEXCASE_LLM_TEMPERATURE: '0.5',
      LEXCASE_LLM_PREFLIGHT: '0',
    };
    const flag = await resolveLlm(parse([]), { env, cwd: '/', paper: 'emar', sampling: { temperature: 0.2 } });
    expect(flag.config.llm).toMatchObject({ temperature: 0.2, topP: 0.9, maxTokens: 2048 });
    expect(flag.paperDefaults?.fromPaper).toEqual(['topP', 'maxTokens']);
    const envOnly = await resolveLlm(parse([]), { env, cwd: '/', paper: 'emar' });
    expect(envOnly.config.llm.temperature).toBe(0.5);
  });

  it('--endpoint / --model / --api-key-env win over env; the key comes from the named variable', async () => {
    const env = { LEXCASE_LLM_BASE_URL: 'http://127.0.0.1:9/v1', LEXCASE_LLM_MODEL: 'other', LEXCASE_LLM_API_KEY: 'sk-env', MY_KEY: 'sk-flag' };
    const r = await resolveLlm(parse(['--endpoint', srv.url, '--model', 'flag-model', '--api-key-env', 'MY_KEY']), { env, cwd: '/' });
    expect(r.config.llm).toMatchObject({ baseUrl: srv.url, model: 'flag-model', apiKey: 'sk-flag' });
  });

  it('a bad --endpoint, an unset --api-key-env variable, or a key given as the flag value: one usage error, no request', async () => {
    const before = srv.modelListings;
    await expect(resolveLlm(parse(['--endpoint', 'localhost:8000', '--model', 'm']), { env: {}, cwd: '/' })).rejects.toMatchObject({
      message: expect.stringMatching(/--endpoint.*http\(s\) URL/),
    });
    await expect(resolveLlm(parse(['--endpoint', srv.url, '--model', 'm', '--api-key-env', 'NOPE']), { env: {}, cwd: '/' })).rejects.toMatchObject({
      code: 'USAGE',
      message: expect.stringMatching(/--api-key-env NOPE: the variable NOPE is not set/),
    });
    const e = await resolveLlm(parse(['--endpoint', srv.url, '--model', 'm', '--api-key-env', 'sk-abc/123']), { env: {}, cwd: '/' }).catch((x) => x);
    expect(e.message).toMatch(/pass the name of the variable, not the key/);
    expect(srv.modelListings).toBe(before);
  });

  it('a refused key stops before any model is made; LEXCASE_LLM_PREFLIGHT=0 skips the check', async () => {
    const env = { LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'm', LEXCASE_LLM_API_KEY: 'sk-wrong' };
    await expect(resolveLlm(parse([]), { env, cwd: '/' })).rejects.toMatchObject({
      code: 'LLM_UNAVAILABLE',
      message: expect.stringMatching(/refused the API key \(HTTP 401/),
    });
    expect((await resolveLlm(parse([]), { env: { ...env, LEXCASE_LLM_PREFLIGHT: '0' }, cwd: '/' })).model).toBeDefined();
  });

  it("--llm-provider sets the server's endpoint, structured output and timeout where config and env leave them unset; a wrong name is refused", async () => {
    // no server here: the preflight is the preflight tests' business
    const r = await resolveLlm(parse(['--llm-provider', 'vllm']), { env: { LEXCASE_LLM_MODEL: 'm', LEXCASE_LLM_PREFLIGHT: '0' }, cwd: '/' });
    expect(r.config.llm).toMatchObject({ provider: 'vllm', baseUrl: 'http://localhost:8000/v1', structuredOutput: 'json_schema', timeoutMs: 300_000 });
    const e = await resolveLlm(parse(['--llm-provider', 'ollama']), {
      env: { LEXCASE_LLM_MODEL: 'm', LEXCASE_LLM_BASE_URL: 'http://gpu:1/v1', LEXCASE_LLM_PROVIDER: 'vllm', LEXCASE_LLM_PREFLIGHT: '0' },
      cwd: '/',
    });
    expect(e.config.llm).toMatchObject({ provider: 'ollama', baseUrl: 'http://gpu:1/v1', timeoutMs: 600_000 });
    expect(() => parse(['--llm-provider', 'olama'])).toThrow(/Allowed choices are openai, vllm, ollama, llamacpp, generic/);
  });

  it("--endpoint wins over --llm-provider's default endpoint: the preflight and every request go to the server it names", async () => {
    const named = await startScriptedServer(() => ({ content: 'Answer: B' }), { models: ['m'] });
    const other = await startScriptedServer(() => ({ content: 'Answer: A' }), { models: ['m'] });
    try {
      for (const env of [{}, { LEXCASE_LLM_BASE_URL: other.url }]) {
        const r = await resolveLlm(parse(['--llm-provider', 'vllm', '--endpoint', named.url, '--model', 'm', '--no-cache']), { env, cwd: '/' });
        // the preset still sets what no flag, variable or file set
        expect(r.config.llm).toMatchObject({ provider: 'vllm', baseUrl: named.url, structuredOutput: 'json_schema', timeoutMs: 300_000 });
        expect(r.publicConfig).toMatchObject({ baseUrl: named.url });
        expect(((await r.model!.invoke('Which answer?')) as { content: unknown }).content).toBe('Answer: B');
      }
      expect(named.modelListings).toBe(2);
      expect(named.requests.filter((q) => q.path.endsWith('/chat/completions'))).toHaveLength(2);
      expect(other.requests).toHaveLength(0);
    } finally {
      await Promise.all([named.close(), other.close()]);
    }
  });

  it('--replay needs a recorded run dir and excludes --offline', async () => {
    await expect(resolveLlm(parse(['--replay', '/nonexistent-run']), { env: {}, cwd: '/' })).rejects.toMatchObject({
      code: 'RUN_INVALID',
      message: expect.stringMatching(/holds no LLM recording/),
    });
    await expect(resolveLlm(parse(['--replay', '/x', '--offline']), { env: {}, cwd: '/' })).rejects.toMatchObject({ code: 'USAGE' });
  });

  it("--replay says which model and sampling values the user set were ignored for the recording's (they were dropped without a word)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lexcase-replay-settings-'));
    try {
      mkdirSync(join(dir, 'llm'));
      writeFileSync(join(dir, 'llm', 'model.json'), JSON.stringify({ model: 'rec-model', temperature: 0.3, structuredOutput: 'json_schema' }));
      const said: string[] = [];
      const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
        said.push(String(chunk));
        return true;
      });
      try {
        const r = await resolveLlm(parse(['--replay', dir, '--model', 'other-model']), { env: { LEXCASE_LLM_TEMPERATURE: '0.9' }, cwd: '/' });
        expect(r.config.llm).toMatchObject({ model: 'rec-model', temperature: 0.3 });
        const quiet = await resolveLlm(parse(['--replay', dir]), { env: {}, cwd: '/' });
        expect(quiet.config.llm.model).toBe('rec-model');
      } finally {
        spy.mockRestore();
      }
      const warned = said.filter((l) => l.includes('--replay answers as recorded'));
      expect(warned).toHaveLength(1);
      expect(warned[0]).toMatch(/model "other-model" \(recorded "rec-model"\), temperature 0\.9 \(recorded 0\.3\) ignored/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it("--replay keeps the recording's paper defaults (config.json model.paperDefaults was dropped from a replay's)", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lexcase-replay-paper-'));
    try {
      mkdirSync(join(dir, 'llm'));
      writeFileSync(join(dir, 'llm', 'model.json'), JSON.stringify({ model: 'rec-model', temperature: 0.3, structuredOutput: 'json_schema' }));
      const paperDefaults = { system: 'case', fromPaper: ['temperature'], source: 'CASE (paper 003): 0.3' };
      const model = { baseUrl: 'http://127.0.0.1:1/v1', model: 'rec-model', temperature: 0.3, paperDefaults };
      writeFileSync(join(dir, 'config.json'), JSON.stringify({ seed: 13, config: { system: 'case', model } }));
      const r = await resolveLlm(parse(['--replay', dir]), { env: {}, cwd: '/', paper: 'case' });
      expect(r.paperDefaults).toEqual(paperDefaults);
      expect(runModelConfig(r)).toMatchObject({ model: 'rec-model', temperature: 0.3, paperDefaults });
      // another system's replay of it takes none (it would name the wrong paper)
      expect((await resolveLlm(parse(['--replay', dir]), { env: {}, cwd: '/', paper: 'emar' })).paperDefaults).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
