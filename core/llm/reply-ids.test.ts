/**
 * The factory model gives every reply a unique message id and tool-call ids unique in their
 * conversation, whatever the server sent (reply-ids.ts), against a real HTTP server that repeats
 * ids as some OpenAI-compatible servers and proxies do, through the real @langchain/openai client.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolPairingProblem } from '../../tests/support/contract-fuzz-server.js';
import { startScriptedServer, type ScriptReply, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { llmConfigSchema } from '../config.js';
import { createChatModel } from './factory.js';

const search = tool(async ({ query }: { query: string }) => `results for ${query}`, {
  name: 'bm25_search',
  description: 'search',
  schema: z.object({ query: z.string() }),
});

const servers: ScriptedServer[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function serve(script: ScriptReply[]) {
  const srv = await startScriptedServer(script);
  servers.push(srv);
  return srv;
}

const model = (srv: ScriptedServer, cacheDir: string | false = false) =>
  createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir, maxRetries: 0, timeoutMs: 5000 }));

const call = (query: string, id: string) => ({ name: 'bm25_search', args: { query }, id });

/** Every reply under one completion id; tool calls under one tool-call id: call_0, then twice call_0 in one reply. */
const REPEATING: ScriptReply[] = [
  { completionId: 'chatcmpl-same', toolCalls: [call('hearsay', 'call_0')] },
  { completionId: 'chatcmpl-same', toolCalls: [call('declarant', 'call_0'), call('exception', 'call_0')] },
  { completionId: 'chatcmpl-same', content: 'done' },
];

/** A three-turn tool loop, as an agent runs it: each tool result answers its call by the call's id. */
async function loop(srv: ScriptedServer, cacheDir: string | false = false) {
  const m = model(srv, cacheDir).bindTools!([search]);
  const messages: BaseMessage[] = [new HumanMessage('find the hearsay rule')];
  const replies: AIMessage[] = [];
  for (let turn = 0; turn < 3; turn++) {
    const r = (await m.invoke(messages)) as AIMessage;
    replies.push(r);
    messages.push(r, ...(r.tool_calls ?? []).map((c) => new ToolMessage({ tool_call_id: c.id!, content: `results for ${c.args.query}` })));
  }
  return { replies, messages };
}

const toolIds = (r: AIMessage) => (r.tool_calls ?? []).map((c) => c.id);

describe('reply identity against a server that repeats ids', () => {
  it('replies under one completion id get distinct message ids (the server id kept as their prefix)', async () => {
    const { replies } = await loop(await serve(REPEATING));
    const ids = replies.map((r) => r.id);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) expect(id).toMatch(/^chatcmpl-same#\d+$/);
  });

  it('a tool-call id the conversation already holds is replaced, the request carrying it back pairs every tool result with its call', async () => {
    const srv = await serve(REPEATING);
    const { replies, messages } = await loop(srv);
    expect(toolIds(replies[0])).toEqual(['call_0']);
    const [a, b] = toolIds(replies[1]);
    expect(new Set(['call_0', a, b]).size).toBe(3);
    // the raw calls LangChain keeps beside the parsed ones carry the same ids
    expect((replies[1].additional_kwargs.tool_calls ?? []).map((c) => c.id)).toEqual([a, b]);
    expect(srv.requests.map(toolPairingProblem)).toEqual([undefined, undefined, undefined]);
    expect(srv.requests[2].body.messages.filter((x: { role: string }) => x.role === 'tool').map((x: { tool_call_id: string }) => x.tool_call_id)).toEqual([
      'call_0',
      a,
      b,
    ]);
    expect(messages.filter((x) => x instanceof ToolMessage)).toHaveLength(3);
  });

  it('the replacement ids are the same on every run, so the requests sent are byte-identical run to run', async () => {
    const first = await serve(REPEATING);
    const second = await serve(REPEATING);
    const r1 = await loop(first);
    const r2 = await loop(second);
    expect(r2.replies.map(toolIds)).toEqual(r1.replies.map(toolIds));
    expect(second.requests.map((q) => q.text)).toEqual(first.requests.map((q) => q.text));
  });

  it('the response cache keeps replies as the server sent them; a run served from it gets the same ids, new message ids, and makes no request', async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), 'lexcase-reply-ids-'));
    dirs.push(cacheDir);
    const server = await serve(REPEATING);
    const live = await loop(server, cacheDir);
    const stored = readdirSync(cacheDir).map((f) => readFileSync(join(cacheDir, f), 'utf8'));
    expect(stored).toHaveLength(3);
    expect(stored.filter((t) => /"id":"call_0"[\s\S]*"id":"call_0"/.test(t)).length).toBeGreaterThan(0); // the repeated ids, as sent
    // the cache is keyed by the endpoint: the same server again, its 3-reply script used up (an extra request would get a 500)
    const sent = server.requests.length;
    const cached = await loop(server, cacheDir);
    expect(server.requests).toHaveLength(sent);
    expect(cached.replies.map(toolIds)).toEqual(live.replies.map(toolIds));
    const messageIds = [...live.replies, ...cached.replies].map((r) => r.id);
    expect(new Set(messageIds).size).toBe(6);
  });

  it('ids a server sends distinct are kept as sent (the requests of existing caches and recordings do not change)', async () => {
    const srv = await serve([
      { completionId: 'chatcmpl-1', toolCalls: [call('hearsay', 'call_a')] },
      { completionId: 'chatcmpl-2', toolCalls: [call('declarant', 'call_b'), call('exception', 'call_c')] },
      { completionId: 'chatcmpl-3', content: 'done' },
    ]);
    const { replies } = await loop(srv);
    expect(replies.map(toolIds)).toEqual([['call_a'], ['call_b', 'call_c'], []]);
    expect(replies.map((r) => r.id?.split('#')[0])).toEqual(['chatcmpl-1', 'chatcmpl-2', 'chatcmpl-3']);
  });

  it('a repeated Mistral-style id (9 letters and digits) is replaced by one of the same shape; a missing id gets one', async () => {
    const srv = await serve([
      { toolCalls: [call('hearsay', 'aB3dE5gH9')] },
      { toolCalls: [call('declarant', 'aB3dE5gH9'), call('exception', '')] },
      { content: 'done' },
    ]);
    const { replies } = await loop(srv);
    const [a, b] = toolIds(replies[1]);
    expect(a).toMatch(/^[A-Za-z0-9]{9}$/);
    expect(a).not.toBe('aB3dE5gH9');
    expect(b).toMatch(/^call_[0-9a-f]{24}$/);
    expect(srv.requests.map(toolPairingProblem)).toEqual([undefined, undefined, undefined]);
  });
});
