/**
 * A reply the schema took (or a plain reply) that its step then refuses leaves the response cache, as a reply
 * the parser refused does: CASE's exploratory hypotheses that repeat one another ("only 1 of the 2 hypotheses is
 * distinct") and a 3-ply ply with no text. Before, the reply stayed cached: a resume "retried" the failed item
 * with 0 requests and failed the same way — against a sampling model (CASE's 0.3) a real retry draws again, so
 * the run's failed count stayed fixed with exit 0. The real client with a disk cache against a scripted server.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel, llmStats } from '../../core/llm/factory.js';
import { setLogLevel } from '../../core/log.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { exploratoryHypotheses } from '../case/hypotheses-exploratory.js';
import { draftPly } from '../threeply/argument-developer.js';

let srv: ScriptedServer | undefined;
let cacheDir: string;
beforeEach(() => {
  cacheDir = mkdtempSync(join(tmpdir(), 'lexcase-step-refused-'));
  setLogLevel('silent');
});
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  rmSync(cacheDir, { recursive: true, force: true });
  setLogLevel('info');
});

const entries = () => readdirSync(cacheDir).filter((f) => f.endsWith('.json'));
const model = (url: string) => createChatModel(llmConfigSchema.parse({ baseUrl: url, model: 'm', cacheDir, maxRetries: 0, retryBaseMs: 1 }));
const Q = { prompt: 'A buyer sued a seller.', question: 'Who wins?', choices: ['The buyer.', 'The seller.', 'Neither.', 'Both.'] };

describe('a reply its step refuses leaves the response cache', () => {
  it('CASE exploratory hypotheses that repeat one another: the item fails, and a retry asks the endpoint again', async () => {
    let repeating = true;
    srv = await startScriptedServer(() => ({
      json: { hypotheses: repeating ? ['The buyer wins.', 'the buyer  wins.'] : ['The buyer wins.', 'The seller wins.'] },
    }));
    await expect(exploratoryHypotheses(model(srv.url), Q, { max: 2 })).rejects.toThrow(/only 1 of the 2 hypotheses is distinct/);
    expect(entries()).toEqual([]);
    repeating = false;
    const m = model(srv.url);
    const r = await exploratoryHypotheses(m, Q, { max: 2 });
    expect(r.hypotheses.map((h) => h.text)).toEqual(['The buyer wins.', 'The seller wins.']);
    expect(srv.requests).toHaveLength(2); // sent again, not served the refused reply from the cache
    expect(llmStats(m)).toMatchObject({ cacheHits: 0, requests: 1 });
    expect(entries()).toHaveLength(1); // the accepted reply is cached
  });

  it('a 3-ply ply with no text besides its reasoning: the step fails, and a retry asks the endpoint again', async () => {
    let empty = true;
    srv = await startScriptedServer(() => ({ content: empty ? '<think>The plaintiff should argue…' : 'The plaintiff argues F4 applies.' }));
    await expect(draftPly(model(srv.url), 'plaintiff', 'plaintiff', 'triple', '')).rejects.toMatchObject({ code: 'LLM_OUTPUT_INVALID' });
    expect(entries()).toEqual([]);
    empty = false;
    const m = model(srv.url);
    expect(await draftPly(m, 'plaintiff', 'plaintiff', 'triple', '')).toBe('The plaintiff argues F4 applies.');
    expect(srv.requests).toHaveLength(2);
    expect(llmStats(m)).toMatchObject({ cacheHits: 0, requests: 1 });
  });
});
