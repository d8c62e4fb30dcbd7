/**
 * An item that fails while sibling calls are in flight (MAD's debaters take their turns at once):
 * the audit found failed items whose llm/<item>.jsonl held fewer calls than their totals (10 calls,
 * 43,326 tokens counted; 6 recorded, 21,325 tokens) with nothing flagged — the runner wrote the
 * exchanges before it read the token meter, so calls finishing during the write were counted but
 * not written, and calls finishing later (a sibling went on with its next turn) counted nowhere.
 * Now the item's calls still in flight are cut off when its outcome is known (recorded `abandoned`),
 * waited for, and the exchanges and the tokens are taken together; the inspector flags the cut-off
 * calls and any disagreement with the totals; a replay serves a cut-off call as it happened.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HumanMessage } from '@langchain/core/messages';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { llmConfigSchema } from '../core/config.js';
import { createChatModel } from '../core/llm/factory.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../tests/support/scripted-openai-server.js';
import { totalsProblems } from '../web/server/llm-calls-api.js';
import { runSummary } from '../web/server/run-summary-api.js';
import { exchangesPath, parseInspectorCalls } from './llm-exchanges.js';
import { readRun } from './report/read-run.js';
import { tokensSection } from './report/sections/tokens.js';
import { runTokensText } from './run-counts.js';
import { readResults, resultsPath } from './run-dir.js';
import { contextFrom, runExperiment } from './runner.js';
import type { AgentSystem } from './types.js';

interface Q {
  id: string;
  answer: string;
}
const ITEMS: Q[] = [
  { id: 'mbe_581', answer: 'B' },
  { id: 'mbe_137', answer: 'C' },
];

/** Two debaters at once: A takes one turn, B two in a row (its second after its first returns). */
const debate: AgentSystem<Q> = async (item, ctx) => {
  const ask = (turn: string) => ctx.llm!.invoke([new HumanMessage(`[${item.id}] ${turn}`)], { signal: ctx.signal });
  const b = (async () => {
    await ask('debater B turn 1');
    await ask('debater B turn 2');
  })();
  await Promise.all([ask('debater A turn 1'), b]);
  return { prediction: item.answer, trace: {} };
};

const textOf = (r: RecordedRequest) => JSON.stringify(r.body.messages);
/** mbe_581's debater A is refused at once (HTTP 400) while B's first turn takes 300 ms; everything else answers. */
const script = (r: RecordedRequest) => {
  const t = textOf(r);
  if (t.includes('[mbe_581] debater A')) return { status: 400, error: 'bad request' };
  return { content: 'argued', usage: { prompt_tokens: 1000, completion_tokens: 50 }, delayMs: t.includes('B turn 1') ? 300 : 5 };
};

let dir: string;
let srv: ScriptedServer | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-inflight-'));
});
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const cfg = (url: string) => llmConfigSchema.parse({ baseUrl: url, model: 'scripted', cacheDir: false, maxRetries: 0 });
const run = (runDir: string, llm: BaseChatModel) =>
  runExperiment({ runDir, system: debate, items: ITEMS, gold: (q) => q.answer, makeContext: contextFrom({ llm }), config: { system: 'debate' }, seed: 1 });
const inspector = (runDir: string, id: string) => parseInspectorCalls(readFileSync(exchangesPath(runDir, id), 'utf8')).exchanges;

describe('an item that fails with sibling calls in flight', () => {
  it('cuts them off and records one cut: the exchanges hold every call the totals count; the sibling takes no further turn', async () => {
    srv = await startScriptedServer(script);
    const recorded = join(dir, 'rec');
    const r = await run(recorded, createChatModel(cfg(srv.url)));
    await new Promise((ok) => setTimeout(ok, 500)); // B's first turn would have returned and B asked its second by now
    expect(r.failed).toBe(1);
    const byId = new Map((await readResults(recorded)).records.map((x) => [x.id, x]));
    const failed = byId.get('mbe_581')!;
    expect(failed.error).toMatch(/bad request/);
    // before: B's turn 1 returned after the item was recorded and B went on to turn 2, counted nowhere for the item
    expect(srv.requests.filter((q) => textOf(q).includes('[mbe_581] debater B turn 2'))).toHaveLength(0);
    const calls = inspector(recorded, 'mbe_581');
    expect(calls.map((c) => [c.reply !== null, c.abandoned === true])).toEqual(
      expect.arrayContaining([
        [false, false], // A: refused
        [false, true], // B turn 1: cut off
      ]),
    );
    expect(calls).toHaveLength(2);
    expect(failed.tokens).toMatchObject({ calls: 0, total: 0 });
    expect(totalsProblems(calls, { calls: failed.tokens!.calls, tokens: failed.tokens!.total })).toEqual([
      '1 call was still in flight when the item ended and cut off: no reply, and what the endpoint spent on it (if anything) is in no total',
    ]);
    // the item that succeeded: its three calls, all recorded and counted, nothing flagged
    const ok = byId.get('mbe_137')!;
    expect(ok.tokens).toMatchObject({ calls: 3, total: 3150 });
    expect(totalsProblems(inspector(recorded, 'mbe_137'), { calls: 3, tokens: 3150 })).toEqual([]);
  });

  it('a replay of it serves the cut-off call as it happened and reproduces results.jsonl (before: LLM_REPLAY_MISMATCH)', async () => {
    srv = await startScriptedServer(script);
    const recorded = join(dir, 'rec');
    await run(recorded, createChatModel(cfg(srv.url)));
    await srv.close();
    srv = undefined;
    const replayed = join(dir, 'replay');
    await run(replayed, createChatModel(cfg('http://127.0.0.1:9/v1'), { replayFrom: recorded }));
    expect(readFileSync(resultsPath(replayed), 'utf8')).toBe(readFileSync(resultsPath(recorded), 'utf8'));
  });

  it("counts the cut-off requests on the item's line, in report.md, the counts line and the explorer; a retry keeps them in its replaced attempts (before: in no count)", async () => {
    srv = await startScriptedServer(script);
    const runDir = join(dir, 'rec');
    const first = await run(runDir, createChatModel(cfg(srv.url)));
    const failed = (await readResults(runDir)).records.find((x) => x.id === 'mbe_581')!;
    // before: tokens {calls: 0, total: 0} and nothing else, though B's turn 1 had been sent (and A's, refused: eval/runner-refused-calls.test.ts)
    expect(failed.tokens).toEqual({ input: 0, output: 0, total: 0, calls: 0, cached: 0, abandoned: 1, refused: 1, retried: 0 });
    const section = (await tokensSection(await readRun(runDir), {} as never))!;
    expect(section.json).toMatchObject({ calls: 3, abandoned: 1 });
    expect(section.markdown).toContain('| requests cut off when their item ended (usage in no total)');
    expect(section.markdown).toContain('**1 request cut off when its item ended (its usage is in no total)**');
    expect(runTokensText(first.results, 3150)).toBe(
      'tokens 3,150; 1 request cut off when its item ended (its usage is in no total); 1 request refused (an error instead of a reply after retries, e.g. HTTP 400; not in LLM calls)',
    );
    const entry = { id: 'r', dir: runDir, root: dir, kind: 'run' as const, items: 2, correct: 1, graphs: 0 };
    expect(await runSummary(entry)).toMatchObject({ tokens: 3150, cutOff: 1 });

    // the retry answers everything: the failed attempt's cut-off request stays counted, the sentence is a lower bound
    await srv.close();
    srv = await startScriptedServer(() => ({ content: 'argued', usage: { prompt_tokens: 1000, completion_tokens: 50 }, delayMs: 5 }));
    await run(runDir, createChatModel(cfg(srv.url)));
    const retried = (await readResults(runDir)).records.find((x) => x.id === 'mbe_581')!;
    expect(retried.tokens).toMatchObject({ calls: 3, total: 3150 });
    expect(retried.tokens).not.toHaveProperty('abandoned');
    expect(retried.replacedAttempts).toEqual({ attempts: 1, tokens: { input: 0, output: 0, total: 0, calls: 0, cached: 0, abandoned: 1, refused: 1 } });
    const after = (await tokensSection(await readRun(runDir), {} as never))!;
    // before: "**0 tokens more (0 LLM calls) were spent on 1 failed attempt that a retry replaced**"
    expect(after.markdown).toContain(
      "**At least 0 tokens more (0 LLM calls; and 1 request cut off when its item ended (its usage is in no total); and 1 request refused (an error instead of a reply after retries, e.g. HTTP 400; not in LLM calls)) were spent on 1 failed attempt that a retry replaced** (1 item; not in the figures above, which are each item's recorded attempt): at least 6,300 tokens were spent in all.",
    );
    expect(after.json).toMatchObject({ replacedAttempts: { attempts: 1, calls: 0, abandoned: 1 } });
    expect(await runSummary(entry)).toMatchObject({ tokens: 6300, cutOff: 1 });
  });

  it('the inspector flags recorded calls that do not add up to the totals (a run by an older lexcase)', () => {
    const reply = (total: number) => ({ stage: 'debater A', messages: [], reply: 'x', tokens: { input: total - 50, output: 50, total } });
    expect(totalsProblems([reply(3000), reply(4000)], { calls: 4, tokens: 12_000 })).toEqual([
      "the recorded calls do not add up to the item's totals: 2 replies recorded (7,000 tokens), the totals count 4 calls (12,000 tokens): 2 calls are missing here (a run by an older lexcase wrote an item's calls before those still in flight had finished)",
    ]);
  });
});
