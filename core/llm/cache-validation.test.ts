/**
 * Cache entries whose reply failed validation are never served again (issue 26, item 7): a
 * structured request answered twice with malformed output fails, and neither reply stays in the
 * disk cache; once the server answers properly, the same request goes to it and succeeds (it used
 * to be served the cached malformed reply, with 0 requests, and fail the same way). Valid replies
 * are still served from the cache, and so is a malformed reply the repair retry recovered (a rerun
 * repeats the run).
 */
import { HumanMessage } from '@langchain/core/messages';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { llmConfigSchema } from '../config.js';
import { setLogLevel } from '../log.js';
import { createChatModel, llmStats } from './factory.js';
import { rejectReply } from './cache-validation.js';
import { invokeStructured, structuredRequest } from './structured.js';

let srv: ScriptedServer | undefined;
let cacheDir: string;
beforeEach(() => {
  cacheDir = mkdtempSync(join(tmpdir(), 'lexcase-cache-valid-'));
  setLogLevel('silent');
});
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  rmSync(cacheDir, { recursive: true, force: true });
  setLogLevel('info');
});

const Vote = z.object({ vote: z.enum(['A', 'B']) });
const entries = () => readdirSync(cacheDir).filter((f) => f.endsWith('.json'));
const model = (url: string) => createChatModel(llmConfigSchema.parse({ baseUrl: url, model: 'm', cacheDir, maxRetries: 0, retryBaseMs: 1 }));

describe('the response cache and replies that fail validation', () => {
  it('malformed replies are dropped from the cache; the same request later reaches the server and succeeds', async () => {
    let broken = true;
    srv = await startScriptedServer(() => (broken ? { content: 'I would rather not say.' } : { json: { vote: 'B' } }));
    const ask = () => invokeStructured(model(srv!.url), [new HumanMessage('vote A or B')], Vote, { what: 'juror vote' });
    await expect(ask()).rejects.toMatchObject({ code: 'LLM_OUTPUT_INVALID' });
    expect(srv.requests).toHaveLength(2); // the request and its repair
    expect(entries()).toEqual([]);
    broken = false;
    const m = model(srv.url);
    const r = await invokeStructured(m, [new HumanMessage('vote A or B')], Vote, { what: 'juror vote' });
    expect(r.value).toEqual({ vote: 'B' });
    expect(srv.requests).toHaveLength(3); // sent, not served from the cache
    expect(llmStats(m)).toMatchObject({ cacheHits: 0, requests: 1 });
    expect(entries()).toHaveLength(1);
    // A valid reply is served from the cache.
    const again = model(srv.url);
    expect((await invokeStructured(again, [new HumanMessage('vote A or B')], Vote, { what: 'juror vote' })).value).toEqual({ vote: 'B' });
    expect(llmStats(again)).toMatchObject({ cacheHits: 1, requests: 0 });
  });

  it('a malformed reply the repair retry recovered stays cached: a rerun is answered wholly from the cache with the same value', async () => {
    // the server answers prose first, then a vote; asked again it would vote otherwise. Before, the
    // recovered prose was dropped: the rerun re-sent it, got a vote at once, and returned A instead of B
    let asked = 0;
    srv = await startScriptedServer(() => (++asked === 1 ? { content: 'I would rather not say.' } : { json: { vote: asked === 2 ? 'B' : 'A' } }));
    const live = model(srv.url);
    const r = await invokeStructured(live, [new HumanMessage('vote A or B')], Vote, { what: 'juror vote' });
    expect(r).toMatchObject({ value: { vote: 'B' }, attempts: 2 });
    const again = model(srv.url);
    const r2 = await invokeStructured(again, [new HumanMessage('vote A or B')], Vote, { what: 'juror vote' });
    expect(r2).toMatchObject({ value: { vote: 'B' }, attempts: 2, raw: r.raw });
    expect(srv.requests).toHaveLength(2);
    expect(llmStats(again)).toMatchObject({ cacheHits: 2, requests: 0 });
  });

  it('a reply a caller reads with structuredRequest stays cached until the caller drops it (its step failed)', async () => {
    let broken = true;
    srv = await startScriptedServer(() => (broken ? { content: '{"vote": "maybe"}' } : { json: { vote: 'A' } }));
    const m = model(srv.url);
    const req = structuredRequest(m, Vote, 'juror vote');
    const reply = await m.invoke([new HumanMessage('vote')], req.options as never);
    expect(req.read(reply).error).toMatch(/field "vote"/);
    expect(entries()).toHaveLength(1); // the caller may read it as an answer (a 3-ply TERMINATE)
    rejectReply(reply);
    expect(entries()).toEqual([]);
    broken = false;
    expect(req.read(await m.invoke([new HumanMessage('vote')], req.options as never)).value).toEqual({ vote: 'A' });
    expect(srv.requests).toHaveLength(2);
  });
});
