/**
 * 3-ply's abstention is the paper's token, "TERMINATE" in capitals (its prompts: "your primary output must
 * be 'TERMINATE'"; its output: "TERMINATE: Generation stopped. …"), as the first or last line's first word,
 * alone or before punctuation and a reason. Before 2026-12-02 any line beginning "terminate" in any case was
 * one: a ply whose first line was prose ("Terminate the contract …") was an abstention, which stopped the
 * generation and left the ply unscored. Driven through the multi-agent system (each ply's text read by
 * isTerminate) against a scripted server on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { isTerminate } from './format.js';
import { runMultiAgent } from './multi-agent.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

describe("isTerminate: the paper's TERMINATE token, not the word", () => {
  it.each([
    'TERMINATE',
    'TERMINATE: c2 was won by the Defendant.',
    '**TERMINATE**',
    '"TERMINATE"',
    'TERMINATE — no shared factor with c3',
    'TERMINATE.',
    'No grounded argument is possible.\nTERMINATE',
    'No grounded argument is possible.\n**TERMINATE:** c3 shares no factor with c1',
  ])('%j is an abstention', (text) => {
    expect(isTerminate(text)).toBe(true);
  });

  it.each([
    'Terminate the contract? No: c1, like c2, has F4 Agreed-not-to-disclose (P).',
    'terminate',
    'Terminated employees took the drawings (F7), as in c2.',
    'The Plaintiff argues c2.\nTerminate the analysis here: c1 and c2 share F4.',
    'TERMINATE the licence, the Defendant says; but c2 holds otherwise.',
    'The Defendant may say TERMINATE, but c1 shares F4 with c2.',
  ])('%j is an argument', (text) => {
    expect(isTerminate(text)).toBe(false);
  });
});

describe('a ply whose first line is prose beginning "Terminate"', () => {
  it('is argued: the generation goes on to all three plies and nothing is abstained', async () => {
    srv = await startScriptedServer(() => ({
      content: "Terminate the contract dispute in the Plaintiff's favour.\nc1 shares F4 Agreed-not-to-disclose (P) with c2, won by the Plaintiff.",
    }));
    const model = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0 }));
    const r = await runMultiAgent(model, 'c1 (current case):\nF4 Agreed-not-to-disclose (P)');
    expect(r.abstained).toBe(false);
    expect(Object.keys(r.plies)).toEqual(['plaintiff', 'defendant', 'rebuttal']);
    expect(srv.requests).toHaveLength(3);
  });
});
