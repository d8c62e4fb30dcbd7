/**
 * The 3-ply single agent and the response cache: a plain TERMINATE reply (no JSON) is an abstention,
 * not a failure, and stays cached, so a rerun abstains again with no request (before, the reader
 * dropped it as malformed and the rerun asked the server again); replies of a step that failed twice
 * are dropped, so a later run asks again.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel, llmStats } from '../../core/llm/factory.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { runSingleAgent } from './single-agent.js';

let srv: ScriptedServer | undefined;
let cacheDir: string;
beforeEach(() => {
  cacheDir = mkdtempSync(join(tmpdir(), 'lexcase-threeply-cache-'));
});
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  rmSync(cacheDir, { recursive: true, force: true });
});

const model = (url: string) => createChatModel(llmConfigSchema.parse({ baseUrl: url, model: 'm', cacheDir, maxRetries: 0, retryBaseMs: 1 }));
const TRIPLE = 'Current case: F1 (P), F2 (D). Precedent: Smith v. Jones, F1 (P), won by plaintiff.';
const PLIES = { 'Plaintiff Ply 1': 'Cite Smith v. Jones on F1.', 'Defendant Ply 2': 'Distinguish on F2.', 'Plaintiff Ply 3': 'F2 is not decisive.' };

describe('the single-agent 3-ply baseline and the response cache', () => {
  it('a TERMINATE abstention stays cached: a rerun abstains again with no request', async () => {
    let asked = 0;
    srv = await startScriptedServer(() => (++asked === 1 ? { content: 'No analogous precedent applies.\nTERMINATE' } : { json: PLIES }));
    const live = await runSingleAgent(model(srv.url), TRIPLE, { enhanced: false });
    expect(live).toMatchObject({ abstained: true, reason: 'TERMINATE' });
    const m = model(srv.url);
    const again = await runSingleAgent(m, TRIPLE, { enhanced: false });
    expect(again).toEqual(live);
    expect(srv.requests).toHaveLength(1);
    expect(llmStats(m)).toMatchObject({ cacheHits: 1, requests: 0 });
  });

  it('replies of a step unparseable twice are dropped from the cache', async () => {
    srv = await startScriptedServer(() => ({ content: 'The plaintiff should win.' }));
    await expect(runSingleAgent(model(srv.url), TRIPLE, { enhanced: false })).rejects.toMatchObject({ code: 'LLM_OUTPUT_INVALID' });
    expect(srv.requests).toHaveLength(2);
    expect(readdirSync(cacheDir).filter((f) => f.endsWith('.json'))).toEqual([]);
  });
});
