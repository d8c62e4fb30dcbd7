/**
 * What a server's GET /models says about the model served under a name (server-identity.ts): the
 * response cache's check that an entry was written by the same model. Listings as llama.cpp, vLLM,
 * Ollama and LM Studio send them.
 */
import { describe, expect, it } from 'vitest';
import { startScriptedServer, type ServerOptions } from '../../tests/support/scripted-openai-server.js';
import { changesSince, hearAgain, identityFromListing, serverIdentity } from './server-identity.js';

const listing = (...data: unknown[]) => JSON.stringify({ object: 'list', data });
const NOW = 1_800_000_000;

describe('the identity a GET /models listing gives a model name', () => {
  it('llama.cpp: its one entry (any name is served; its id is the alias or file), told apart by meta, its request-time created left out', () => {
    const llama8b = { object: 'model', owned_by: 'llamacpp', meta: { n_params: 8030261248, size: 4920733696, n_ctx_train: 8192 } };
    const qwen7b = { object: 'model', owned_by: 'llamacpp', meta: { n_params: 7615616512, size: 4683073536, n_ctx_train: 32768 } };
    const a = identityFromListing('local-model', listing({ id: 'local-model', created: NOW, ...llama8b }), NOW);
    const again = identityFromListing('local-model', listing({ id: 'local-model', created: NOW + 3600, ...llama8b }), NOW + 3601);
    const b = identityFromListing('local-model', listing({ id: 'local-model', created: NOW, ...qwen7b }), NOW);
    expect(a).toEqual(again); // the same model an hour later: created is each request's time
    expect(b?.digest).not.toBe(a?.digest); // another model behind the same name
    expect(a?.said).toBe(`"local-model" (GET /models entry ${a?.digest})`);
    // a file path as id (no --alias): still the one model it runs
    expect(identityFromListing('default', listing({ id: '/models/qwen2-7b.gguf', created: NOW, ...qwen7b }), NOW)?.digest).toMatch(/^[0-9a-f]{12}$/);
  });

  it('vLLM: the entry of the served name, its root (the weights) telling two models apart', () => {
    const card = (root: string) => ({ id: 'default', object: 'model', created: NOW, owned_by: 'vllm', root, parent: null, max_model_len: 8192 });
    const other = { id: 'embed', object: 'model', created: NOW, owned_by: 'vllm', root: 'bge', parent: null };
    const a = identityFromListing('default', listing(card('meta-llama/Llama-3.1-8B-Instruct'), other), NOW);
    const b = identityFromListing('default', listing(card('Qwen/Qwen2.5-7B-Instruct'), other), NOW + 5);
    expect(a && b && a.digest !== b.digest).toBe(true);
  });

  it("Ollama: a model's created (its modification time, long before the request) is kept, so a re-pulled model is another; name:latest counts for name", () => {
    const a = identityFromListing('llama3', listing({ id: 'llama3:latest', object: 'model', created: NOW - 86_400 * 30, owned_by: 'library' }), NOW);
    const b = identityFromListing('llama3', listing({ id: 'llama3:latest', object: 'model', created: NOW - 86_400, owned_by: 'library' }), NOW);
    expect(a && b && a.digest !== b.digest).toBe(true);
  });

  it('no identity where the listing names no entry for the model among several, or is no listing', () => {
    expect(identityFromListing('gpt-x', listing({ id: 'a' }, { id: 'b' }), NOW)).toBeUndefined();
    expect(identityFromListing('gpt-x', '<html>not found</html>', NOW)).toBeUndefined();
    expect(identityFromListing('gpt-x', JSON.stringify({ models: [] }), NOW)).toBeUndefined();
  });
});

describe('hearing the identity again (a process that keeps running: serve --api, mcp, the explorer)', () => {
  it('after hearAgain the next cached request asks GET /models again: a burst shares one listing, and a swapped model is a change said once', async () => {
    const opts: ServerOptions = {
      models: ['local-model'],
      modelFields: { owned_by: 'llamacpp', meta: { n_params: 8030261248, size: 4920733696, n_ctx_train: 8192 } },
    };
    const srv = await startScriptedServer([], opts);
    const cfg = { baseUrl: srv.url, model: 'local-model', timeoutMs: 5_000 };
    try {
      const a = await serverIdentity(cfg);
      expect(a?.said).toMatch(/^"local-model" \(GET \/models entry [0-9a-f]{12}\)$/);
      expect(await serverIdentity(cfg)).toEqual(a); // heard once until asked again
      expect(srv.modelListings).toBe(1);

      const same = hearAgain();
      expect(await Promise.all([serverIdentity(cfg), serverIdentity(cfg), serverIdentity(cfg)])).toEqual([a, a, a]);
      expect(srv.modelListings).toBe(2); // the burst shared one GET /models
      expect(changesSince(same)).toEqual([]); // the same model: nothing to say

      opts.modelFields = { owned_by: 'llamacpp', meta: { n_params: 7615616512, size: 4683073536, n_ctx_train: 32768 } };
      const swapped = hearAgain();
      const b = await serverIdentity(cfg);
      expect(b?.digest).not.toBe(a?.digest);
      expect(changesSince(swapped)).toEqual([
        `the LLM server at ${srv.url} describes model "local-model" otherwise than when this process last asked: GET /models gave ${a?.said}, now ${b?.said} (another model behind the same name?): replies the response cache holds from another description are not served, the server is asked again`,
      ]);
      const later = hearAgain();
      expect(await serverIdentity(cfg)).toEqual(b);
      expect(changesSince(later)).toEqual([]);
    } finally {
      await srv.close();
    }
  });
  it('a failed or empty listing after one that named the model is no change: the last identity is kept, marked unheard, until the server names it again', async () => {
    const opts: ServerOptions = { models: ['local-model'], modelFields: { owned_by: 'llamacpp', meta: { n_params: 8030261248 } } };
    const srv = await startScriptedServer([], opts);
    const cfg = { baseUrl: srv.url, model: 'local-model', timeoutMs: 5_000 };
    try {
      const a = await serverIdentity(cfg);
      expect(a?.unheard).toBeUndefined();
      // a failed listing (here HTTP 401; a flaky proxy's 503, a timeout)
      opts.apiKey = 'sk-elsewhere';
      const flaky = hearAgain();
      const b = await serverIdentity(cfg);
      expect(b).toEqual({ ...a, unheard: true }); // replies asked of the server (not the cache): chat-openai.ts
      expect(changesSince(flaky)).toEqual([]); // not named a change ("now no entry for it")
      delete opts.apiKey;
      const back = hearAgain();
      expect(await serverIdentity(cfg)).toEqual(a);
      expect(changesSince(back)).toEqual([]); // the same model again: nothing changed
    } finally {
      await srv.close();
    }
  });
});
