/**
 * The preflight request against OpenAI-compatible servers that behave the way the real ones do
 * (tests/support/scripted-openai-server.ts options): OpenAI/vLLM (list + 404 model_not_found for an
 * unknown model, 401 for a bad key), llama.cpp (lists one model, serves any name), a server
 * without /models, no server at all, and a URL without the API (404 everywhere).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { llmConfigSchema, type LlmConfig } from '../config.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { preflightLlm } from './preflight.js';

const cfg = (o: Partial<LlmConfig>): LlmConfig => llmConfigSchema.parse({ timeoutMs: 5000, ...o });
const servers: { close(): Promise<void> }[] = [];
const serve = async (...a: Parameters<typeof startScriptedServer>): Promise<ScriptedServer> => {
  const s = await startScriptedServer(...a);
  servers.push(s);
  return s;
};
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
});

describe('preflightLlm', () => {
  it('a listed model is ready after one GET /models, and no completion is spent', async () => {
    const s = await serve([], { models: ['gpt-4o-mini', 'scripted'] });
    expect(await preflightLlm(cfg({ baseUrl: s.url, model: 'scripted' }))).toMatchObject({ via: 'models', models: ['gpt-4o-mini', 'scripted'] });
    expect(s.modelListings).toBe(1);
    expect(s.requests).toHaveLength(0);
  });

  it("Ollama's name:latest in the list counts for the bare name", async () => {
    const s = await serve([], { models: ['llama3:latest'] });
    expect((await preflightLlm(cfg({ baseUrl: s.url, model: 'llama3' }))).via).toBe('models');
  });

  it('unreachable: one error naming the endpoint and the cause, no retries', async () => {
    const srv = createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    const { port } = srv.address() as AddressInfo;
    await new Promise((r) => srv.close(r));
    const t0 = performance.now();
    await expect(preflightLlm(cfg({ baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm' }))).rejects.toMatchObject({
      code: 'LLM_UNAVAILABLE',
      message: expect.stringMatching(
        new RegExp(`^the LLM endpoint http://127.0.0.1:${port}/v1 is not reachable \\(ECONNREFUSED\\); nothing was run\\n {2}hint: check --endpoint`),
      ),
    });
    expect(performance.now() - t0).toBeLessThan(3000);
  });

  it('a timeout under a second is said in ms, not "0 s"; others in seconds', async () => {
    // a server that takes the request and never answers it
    const srv = createServer(() => undefined);
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    servers.push({ close: () => new Promise<void>((r) => (srv.closeAllConnections(), srv.close(() => r()))) });
    const { port } = srv.address() as AddressInfo;
    const baseUrl = `http://127.0.0.1:${port}/v1`;
    // before: "did not answer GET /models within 0 s"
    await expect(preflightLlm(cfg({ baseUrl, model: 'm' }), { timeoutMs: 300 })).rejects.toMatchObject({
      code: 'LLM_UNAVAILABLE',
      message: expect.stringMatching(new RegExp(`^the LLM endpoint ${baseUrl} did not answer GET /models within 300 ms; nothing was run`)),
    });
    await expect(preflightLlm(cfg({ baseUrl, model: 'm' }), { timeoutMs: 1500 })).rejects.toMatchObject({
      message: expect.stringMatching(/did not answer GET \/models within 1\.5 s; nothing was run/),
    });
  });

  it('401: the key was refused, and the message says where the key comes from (never the key)', async () => {
    const s = await serve([], { apiKey: 'sk-right' });
    const e = await preflightLlm(cfg({ baseUrl: s.url, model: 'scripted', apiKey: 'sk-wrong-secret' })).catch((x) => x);
    expect(e).toMatchObject({
      code: 'LLM_UNAVAILABLE',
      message: expect.stringMatching(/refused the API key \(HTTP 401: Incorrect API key provided.*\n {2}hint: check the key in LEXCASE_LLM_API_KEY/s),
    });
    expect(e.message).not.toContain('sk-wrong-secret');
    const none = await preflightLlm(cfg({ baseUrl: s.url, model: 'scripted' })).catch((x) => x);
    expect(none.message).toMatch(/no API key is set: put it in LEXCASE_LLM_API_KEY, or name the variable that holds it with --api-key-env VAR/);
  });

  it('unknown model (OpenAI / vLLM: not listed, 404 model_not_found): names the model, the closest listed one and the list', async () => {
    const s = await serve([], { models: ['meta-llama/Llama-3.3-70B-Instruct', 'Qwen/Qwen2.5-7B-Instruct'], strictModels: true });
    await expect(preflightLlm(cfg({ baseUrl: s.url, model: 'meta-llama/Llama-3.3-70B-Instrct' }))).rejects.toMatchObject({
      code: 'LLM_UNAVAILABLE',
      message: expect.stringMatching(
        /does not serve the model "meta-llama\/Llama-3.3-70B-Instrct" \(HTTP 404: The model .* does not exist.*\n {2}hint: did you mean "meta-llama\/Llama-3.3-70B-Instruct"\? models there: meta-llama\/Llama-3.3-70B-Instruct, Qwen\/Qwen2.5-7B-Instruct/s,
      ),
    });
    expect(s.requests).toHaveLength(1);
    expect(s.requests[0].body).toMatchObject({ max_tokens: 1 });
  });

  it('llama.cpp (lists its one model, answers any name) and servers without /models: one 1-token completion decides', async () => {
    const cpp = await serve([{ content: 'p' }], { models: ['/models/qwen2.5-7b-q4.gguf'] });
    expect(await preflightLlm(cfg({ baseUrl: cpp.url, model: 'qwen' }))).toMatchObject({ via: 'completion' });
    const bare = await serve([{ content: 'p' }], { models: false });
    expect(await preflightLlm(cfg({ baseUrl: bare.url, model: 'anything' }))).toMatchObject({ via: 'completion' });
    expect(bare.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(1);
  });

  it('a URL without the API (404 everywhere, e.g. /v1 left out) and a 5xx say so', async () => {
    const plain = createServer((_q, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>'));
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
    servers.push({ close: () => new Promise((r) => plain.close(() => r())) });
    const url = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
    await expect(preflightLlm(cfg({ baseUrl: url, model: 'm' }))).rejects.toMatchObject({
      message: expect.stringMatching(/answered HTTP 404 .*no OpenAI-compatible API at that URL.*the base URL usually ends in \/v1/s),
    });
    const broken = await serve([{ status: 503, error: 'model is loading' }], { models: false });
    await expect(preflightLlm(cfg({ baseUrl: broken.url, model: 'm' }))).rejects.toMatchObject({
      message: expect.stringMatching(/answered a 1-token request with HTTP 503 \(model is loading\)/),
    });
  });
});
