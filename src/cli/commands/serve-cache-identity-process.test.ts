/**
 * The response cache's check of who wrote an entry (core/llm/server-identity.ts) in a process that
 * keeps running: the built `lexcase serve --api` hears the LLM server's description of the model (its
 * GET /models entry) again at each /v1/evidence request, so a model swapped behind the same URL and
 * name while it runs is asked again, and the response (`serverChanged`) and the server's log say so;
 * cached replies served without that check (an older lexcase's entries, which record no identity) are
 * counted on every surface (`cacheUnchecked`, and in the fromCache sentence); with the cache off no
 * GET /models is made at all.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBuiltCli, startServerChild } from '../../mcp/test-support/children.js';
import { mixedIndexFixture } from '../../../tests/support/five-systems.js';
import { startScriptedServer, type RecordedRequest, type ServerOptions } from '../../../tests/support/scripted-openai-server.js';
import { oneSearchAdvocate } from '../../../tests/support/one-search-advocate.js';

const fx = mixedIndexFixture('serve-cache-identity', 3);

const advocate = oneSearchAdvocate;

/** llama.cpp's GET /models `meta` for two models it may be started with under one alias. */
const LLAMA_8B = { n_params: 8030261248, size: 4920733696, n_ctx_train: 8192, n_vocab: 128256 };
const QWEN_7B = { n_params: 7615616512, size: 4683073536, n_ctx_train: 32768, n_vocab: 152064 };

const HYPOTHESIS = 'An out-of-court statement offered for its truth is hearsay';
const chats = (reqs: RecordedRequest[]) => reqs.filter((r) => /\/chat\/completions/.test(r.path)).length;
const DIGEST = /"scripted" \(GET \/models entry [0-9a-f]{12}\)/;

async function askEvidence(apiUrl: string): Promise<Record<string, any>> {
  const res = await fetch(`${apiUrl}/evidence`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ hypothesis: HYPOTHESIS, k: 1, mode: 'llm' }),
  });
  const body = (await res.json()) as Record<string, any>;
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body;
}

const envFor = (url: string, cacheDir: string, extra: Record<string, string> = {}) => ({
  LEXCASE_LLM_BASE_URL: url,
  LEXCASE_LLM_MODEL: 'scripted',
  LEXCASE_LLM_MAX_RETRIES: '0',
  LEXCASE_CACHE_DIR: cacheDir,
  NO_COLOR: '1',
  ...extra,
});

describe('serve --api: the response cache checks the server the model is served by now, not the one it heard at start', () => {
  it('a model swapped behind the same URL and name between two /v1/evidence requests is asked again, and the response and the log name the change', async () => {
    // the listing is read at each GET /models: changing modelFields is swapping the model llama.cpp runs
    const opts: ServerOptions = { modelFields: { owned_by: 'llamacpp', meta: LLAMA_8B } };
    const srv = await startScriptedServer(advocate, opts);
    const s = await startServerChild(['serve', '--api', '--index', fx.index.dir, '--port', '0'], {
      cwd: fx.dir,
      env: envFor(srv.url, join(fx.dir, 'cache-swap')),
    });
    try {
      const first = await askEvidence(s.info.url);
      expect(chats(srv.requests)).toBe(2);
      expect(first.fromCache).toBeUndefined();
      expect(first.serverChanged).toBeUndefined();

      opts.modelFields = { owned_by: 'llamacpp', meta: QWEN_7B };
      const second = await askEvidence(s.info.url);
      // before: served from the cache (no request), labelled "GET /models listed … when it was written, as now"
      expect(chats(srv.requests)).toBe(4);
      expect(second.llmCalls).toBe(2);
      expect(second.cacheSources).toBeUndefined();
      expect(second.fromCache).toBeUndefined();
      expect(second.serverChanged).toMatch(
        new RegExp(
          `^the LLM server at ${srv.url.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} describes model "scripted" otherwise than when this process last asked: GET /models gave ${DIGEST.source}, now ${DIGEST.source} \\(another model behind the same name\\?\\): replies the response cache holds from another description are not served`,
        ),
      );
      expect(s.stderr()).toContain(second.serverChanged);

      // the new model's own replies are served from the cache again, checked against it
      const third = await askEvidence(s.info.url);
      expect(chats(srv.requests)).toBe(4);
      expect(third.serverChanged).toBeUndefined();
      expect(Object.entries(third.cacheSources)).toEqual([[expect.stringMatching(/^GET \/models listed .* when it was written, as now/), 2]]);
      expect(third.cacheUnchecked).toBeUndefined();
    } finally {
      await s.stop();
      await srv.close();
    }
  }, 180_000);

  it('entries an older lexcase wrote (no server identity) are counted as not checked: /v1/evidence, evidence --json and its stderr line', async () => {
    const srv = await startScriptedServer(advocate, { modelFields: { owned_by: 'llamacpp', meta: LLAMA_8B } });
    const cacheDir = join(fx.dir, 'cache-old');
    const env = envFor(srv.url, cacheDir);
    try {
      const made = await runBuiltCli(['--json', 'evidence', HYPOTHESIS, '--index', fx.index.dir, '--k', '1'], { cwd: fx.dir, env });
      expect(made.code, made.stderr.slice(-2000)).toBe(0);
      expect(chats(srv.requests)).toBe(2);
      // the entries as an older lexcase wrote them: no `server`
      const files = readdirSync(cacheDir).filter((f) => f.endsWith('.json'));
      expect(files).toHaveLength(2);
      for (const f of files) {
        const { server, ...older } = JSON.parse(readFileSync(join(cacheDir, f), 'utf8'));
        expect(server).toBeDefined();
        writeFileSync(join(cacheDir, f), JSON.stringify(older));
      }
      const said =
        /^2 of 2 LLM calls were answered from the response cache, not by the server at the endpoint \(2 of them not checked against the model the server serves now\): no server identity recorded/;

      const cli = await runBuiltCli(['--json', 'evidence', HYPOTHESIS, '--index', fx.index.dir, '--k', '1'], { cwd: fx.dir, env });
      expect(cli.code, cli.stderr.slice(-2000)).toBe(0);
      const json = JSON.parse(cli.stdout);
      expect({ cacheUnchecked: json.cacheUnchecked, sources: Object.values(json.cacheSources) }).toEqual({ cacheUnchecked: 2, sources: [2] });
      expect(json.fromCache).toMatch(said);
      expect(cli.stderr).toContain(`evidence: ${json.fromCache}`);

      const s = await startServerChild(['serve', '--api', '--index', fx.index.dir, '--port', '0'], { cwd: fx.dir, env });
      try {
        const api = await askEvidence(s.info.url);
        expect(api.cacheUnchecked).toBe(2);
        expect(api.fromCache).toMatch(said);
      } finally {
        await s.stop();
      }
      expect(chats(srv.requests)).toBe(2);
    } finally {
      await srv.close();
    }
  }, 180_000);

  it('with the response cache off (--no-cache) and no preflight, no GET /models is made: the identity is heard only for the cache', async () => {
    const srv = await startScriptedServer(advocate, { modelFields: { owned_by: 'llamacpp', meta: LLAMA_8B } });
    const s = await startServerChild(['serve', '--api', '--no-cache', '--index', fx.index.dir, '--port', '0'], {
      cwd: fx.dir,
      env: envFor(srv.url, join(fx.dir, 'cache-off'), { LEXCASE_LLM_PREFLIGHT: '0' }),
    });
    try {
      await askEvidence(s.info.url);
      await askEvidence(s.info.url);
      expect(chats(srv.requests)).toBe(4);
      expect(srv.modelListings).toBe(0);
    } finally {
      await s.stop();
      await srv.close();
    }
  }, 180_000);
});
