/**
 * A second ask of the same question outside the runner is answered from the response cache, and
 * says so: `lexcase evidence` (a stderr line, and `cacheSources` / `fromCache` / `llmCalls` in
 * --json) and MCP find_evidence (the same fields). Before, the second answer was the first one's
 * replies with no trace — the server got no request, and nothing said so: a user could believe they
 * had sampled the model again. Counted as the runner counts them (eval/cache-sources.ts).
 */
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import { runBuiltCli, stdioMcp } from '../../mcp/test-support/children.js';
import { mixedIndexFixture } from '../../../tests/support/five-systems.js';
import { startScriptedServer, type RecordedRequest } from '../../../tests/support/scripted-openai-server.js';
import { oneSearchAdvocate } from '../../../tests/support/one-search-advocate.js';

const fx = mixedIndexFixture('evidence-cache', 3);

const advocate = oneSearchAdvocate;

const HYPOTHESIS = 'An out-of-court statement offered for its truth is hearsay';
const chats = (reqs: RecordedRequest[]) => reqs.filter((r) => /\/chat\/completions/.test(r.path)).length;

describe('evidence outside the runner says which LLM calls the response cache answered', () => {
  it('lexcase evidence asked twice: the second answer says "2 of 2 LLM calls were answered from the response cache" (stderr and --json) and who wrote them', async () => {
    const srv = await startScriptedServer(advocate);
    const env = {
      LEXCASE_LLM_BASE_URL: srv.url,
      LEXCASE_LLM_MODEL: 'scripted',
      LEXCASE_LLM_MAX_RETRIES: '0',
      LEXCASE_CACHE_DIR: join(fx.dir, 'cache-cli'),
      NO_COLOR: '1',
    };
    const ask = (json: boolean) =>
      runBuiltCli([...(json ? ['--json'] : []), 'evidence', HYPOTHESIS, '--index', fx.index.dir, '--k', '1'], { cwd: fx.dir, env });
    try {
      const first = await ask(true);
      expect(first.code, first.stderr.slice(-2000)).toBe(0);
      expect(chats(srv.requests)).toBe(2);
      const one = JSON.parse(first.stdout);
      expect({ llmCalls: one.llmCalls, cacheSources: one.cacheSources, fromCache: one.fromCache }).toEqual({
        llmCalls: 2,
        cacheSources: undefined,
        fromCache: undefined,
      });
      expect(first.stderr).not.toMatch(/answered from the response cache/);

      const again = await ask(true);
      expect(again.code, again.stderr.slice(-2000)).toBe(0);
      expect(chats(srv.requests)).toBe(2); // the server was not asked again
      const two = JSON.parse(again.stdout);
      expect(two.evidence).toEqual(one.evidence);
      expect(two.llmCalls).toBe(2);
      const sources = Object.entries(two.cacheSources as Record<string, number>);
      expect(sources).toEqual([[expect.stringMatching(/^GET \/models listed .*"scripted".* when it was written, as now/), 2]]);
      expect(two.fromCache).toMatch(
        /^2 of 2 LLM calls were answered from the response cache, not by the server at the endpoint: GET \/models listed .* ×2 — --no-cache/,
      );
      expect(again.stderr.split('\n').filter((l) => l.includes('answered from the response cache'))).toHaveLength(1);

      const text = await ask(false);
      expect(text.code, text.stderr.slice(-2000)).toBe(0);
      expect(chats(srv.requests)).toBe(2);
      expect(text.stderr).toContain(`evidence: ${two.fromCache}`);
    } finally {
      await srv.close();
    }
  }, 120_000);

  it('MCP find_evidence asked twice: the second result carries cacheSources and fromCache, and the server got no request', async () => {
    const srv = await startScriptedServer(advocate);
    const env = {
      LEXCASE_LLM_BASE_URL: srv.url,
      LEXCASE_LLM_MODEL: 'scripted',
      LEXCASE_LLM_MAX_RETRIES: '0',
      LEXCASE_CACHE_DIR: join(fx.dir, 'cache-mcp'),
      NO_COLOR: '1',
    };
    const m = await stdioMcp(['--index', fx.index.dir], { cwd: fx.dir, env });
    try {
      const one = await call(m.client, 'find_evidence', { hypothesis: HYPOTHESIS, k: 1, mode: 'llm' });
      expect(chats(srv.requests)).toBe(2);
      expect({ llmCalls: one.llmCalls, cacheSources: one.cacheSources, fromCache: one.fromCache }).toEqual({
        llmCalls: 2,
        cacheSources: undefined,
        fromCache: undefined,
      });
      const two = await call(m.client, 'find_evidence', { hypothesis: HYPOTHESIS, k: 1, mode: 'llm' });
      expect(chats(srv.requests)).toBe(2);
      expect(two.evidence.map((e: { id: string }) => e.id)).toEqual(one.evidence.map((e: { id: string }) => e.id));
      expect(Object.values(two.cacheSources)).toEqual([2]);
      expect(two.fromCache).toMatch(/^2 of 2 LLM calls were answered from the response cache/);
    } finally {
      await m.close();
      await srv.close();
    }
  }, 120_000);
});

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(JSON.stringify(r.content));
  return r.structuredContent as Record<string, any>;
}
