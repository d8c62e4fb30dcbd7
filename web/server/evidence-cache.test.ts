/**
 * The explorer's evidence search asked the same question twice gets the second answer from the
 * response cache, and its reply (/api/evidence, which the evidence page shows as a note) says so:
 * `llmCalls`, `cacheSources` and `fromCache`, as `lexcase evidence --json` gives them. Before, the
 * second answer was the first ask's replies with no trace.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { loadPassages } from '../../corpora/registry.js';
import type { Passage } from '../../corpora/types.js';
import { buildIndex } from '../../indexer/build.js';
import { tempDir } from '../../indexer/build-test-helpers.js';
import { closeSparseIndexes } from '../../retrieval/open.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { startExplorer } from './server.js';

const tmp = tempDir('lexcase-explorer-evidence-cache-');
const dir = join(tmp.dir, 'fre-8');
let srv: ScriptedServer;

beforeAll(async () => {
  const passages: Passage[] = [];
  for await (const p of loadPassages('legal_corpus')) if (p.source === 'fre' && passages.length < 8) passages.push(p);
  await buildIndex(passages, { out: dir, methods: ['bm25', 'qld'], workers: 0 });
  // an advocate that searches once, then picks the first passage it was shown
  srv = await startScriptedServer((req) => {
    const shown = (req.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool');
    if (!shown.length) return { toolCalls: [{ name: 'bm25_search', args: { query: 'witness', k: null }, id: 'call_1' }] };
    return { content: JSON.stringify({ analysis: 'one search', evidence: [{ id: JSON.parse(shown[0].content).results[0].id, justification: 'on point' }] }) };
  });
}, 60_000);

afterAll(async () => {
  await srv?.close();
  await closeSparseIndexes();
  tmp.cleanup();
});

describe("the explorer's evidence search", () => {
  it('asked twice with the response cache on: the second reply says "2 of 2 LLM calls were answered from the response cache" and the server got no request', async () => {
    const { llm } = await loadConfig({ env: { LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'scripted' }, cwd: tmp.dir });
    llm.cacheDir = join(tmp.dir, 'llm-cache');
    const t = await startExplorer({ index: dir, port: 0, llm: createChatModel(llm), llmLabel: 'scripted' });
    const chats = () => srv.requests.filter((r) => /\/chat\/completions/.test(r.path)).length;
    const ask = async () => {
      const res = await fetch(`${t.url}/api/evidence`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ hypothesis: 'a witness may be impeached by any party', mode: 'llm', k: 1 }),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { evidence: { id: string }[]; llmCalls?: number; cacheSources?: Record<string, number>; fromCache?: string };
    };
    try {
      const first = await ask();
      expect(chats()).toBe(2);
      expect({ llmCalls: first.llmCalls, cacheSources: first.cacheSources, fromCache: first.fromCache }).toEqual({
        llmCalls: 2,
        cacheSources: undefined,
        fromCache: undefined,
      });
      const again = await ask();
      expect(chats()).toBe(2);
      expect(again.evidence.map((e) => e.id)).toEqual(first.evidence.map((e) => e.id));
      expect(again.llmCalls).toBe(2);
      expect(Object.values(again.cacheSources ?? {})).toEqual([2]);
      expect(again.fromCache).toMatch(
        /^2 of 2 LLM calls were answered from the response cache, not by the server at the endpoint: GET \/models listed .*"scripted"/,
      );
    } finally {
      await t.close();
    }
  });
});
