/**
 * ACAL's clash winner is read as its Yes/No replies are, with the real client against a scripted
 * server: "A", "a", "A.", "(A)", "Argument A" all name side A (and "(B)", "b)", "argument B" side B);
 * "A or B", "A/B", "Both" name none and fail the clash after its one repair. Before, only "A" and
 * "B" exactly were taken. A run dir an older lexcase started records no `clashWinnerReading`, and
 * its resume warns (eval/resume-unrecorded.ts), as for yesNoReading.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { withUnrecorded } from '../../eval/resume-unrecorded.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { CLASH_WINNER_READING, clashWinnerOf } from './clash-winner.js';
import type { CaseInput } from './llm/common.js';
import { resolveClashes } from './llm/resolve-clashes.js';
import { ACAL_TASKS } from './tasks.js';

let srv: ScriptedServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const c: CaseInput = {
  task: ACAL_TASKS.hearsay,
  claim: ACAL_TASKS.hearsay.claim,
  caseText: 'At trial, the witness testified that her neighbour told her the defendant ran the red light.',
  evidence: [],
};
const arg = (id: string, side: 'support' | 'attack', text: string) => ({
  id,
  agent: side === 'support' ? 'Prosecutor' : 'Public Defender',
  side,
  text,
  baseStrength: 0.5,
  citedPassageIds: [],
  status: 'accepted' as const,
  origin: 'llm' as const,
});
const args = [
  arg('s1', 'support', 'The neighbour’s words are offered for their truth.'),
  arg('a1', 'attack', 'The words are offered for their effect on the listener.'),
];

/** The clash's winner (an argument id) when the expert replies `winner`; the error when it fails. */
async function winnerFor(winner: string): Promise<string> {
  srv = await startScriptedServer(() => ({ content: JSON.stringify({ reason: 'the stronger reading of the facts', winner }) }));
  const llm = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'm', cacheDir: false, maxRetries: 0, timeoutMs: 5000 }));
  try {
    const r = await resolveClashes(llm, c, [{ support: 's1', attack: 'a1' }], args, { seed: 7 });
    return r.outcomes[0].winner;
  } catch (e) {
    return `error: ${(e as Error).message}`;
  } finally {
    await srv.close();
    srv = undefined;
  }
}

describe("ACAL's clash winner", () => {
  it('"a", "A.", "(A)", "Argument A" name the side "A" names; "(B)", "b)", "argument B" the side "B" names', async () => {
    const a = await winnerFor('A');
    const b = await winnerFor('B');
    expect([a, b].sort()).toEqual(['a1', 's1']);
    for (const reply of ['a', 'A.', '(A)', 'Argument A', ' argument (a) ']) expect(await winnerFor(reply)).toBe(a);
    for (const reply of ['(B)', 'b)', 'argument B', 'B!']) expect(await winnerFor(reply)).toBe(b);
  });

  it('"A or B", "A/B", "Both", "Argument A or B" name no side: the clash fails after its repair', async () => {
    for (const reply of ['A or B', 'A/B', 'Both', 'Argument A or B', 'AB']) {
      expect(await winnerFor(reply)).toMatch(/^error: .*winner/);
    }
    expect(clashWinnerOf('neither')).toBeUndefined();
  });

  it('an ACAL config an older lexcase wrote (no clashWinnerReading) is unknown on resume, not a difference', () => {
    const now = { system: 'acal/acal', task: 'hearsay', clashWinnerReading: CLASH_WINNER_READING };
    const { unrecorded, config } = withUnrecorded({ system: 'acal/acal', task: 'hearsay' }, now);
    expect(unrecorded.map((u) => u.key)).toEqual(['clashWinnerReading']);
    expect(unrecorded[0].what).toMatch(/an older lexcase took only "A" and "B" exactly/);
    expect(config).toEqual(now);
  });
});
