/**
 * The server's own prompt cache (audit: OpenAI, vLLM and llama.cpp's server send
 * `usage.prompt_tokens_details.cached_tokens`; lexcase counted those tokens inside input and never
 * said them). Now each call's figure reaches the item's `tokens.promptCached`, a failed attempt's
 * reaches the retry's `replacedAttempts`, and report.md's Tokens section, the summaries' tokens
 * text, the explorer's run summary and CASE's Tokens line say "input N (M of them from the server's prompt cache)". A server
 * that does not send the field leaves it absent everywhere — not reported, not 0. The real LLM
 * client against a scripted server on 127.0.0.1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HumanMessage } from '@langchain/core/messages';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { caseMetrics, caseMetricsMarkdown } from '../agents/case/metrics.js';
import { llmConfigSchema } from '../core/config.js';
import { createChatModel } from '../core/llm/factory.js';
import { completionWithUsage, startScriptedServer, type ScriptedServer } from '../tests/support/scripted-openai-server.js';
import { runSummary } from '../web/server/run-summary-api.js';
import { readRun } from './report/read-run.js';
import { tokensSection } from './report/sections/tokens.js';
import { runTokensText } from './run-counts.js';
import { readResults } from './run-dir.js';
import { contextFrom, runExperiment } from './runner.js';
import type { AgentSystem } from './types.js';

interface Q {
  id: string;
  answer: string;
}
const ITEMS: Q[] = ['mbe_137', 'mbe_581', 'mbe_682'].map((id, i) => ({ id, answer: 'ABC'[i] }));

let dir: string;
let srv: ScriptedServer | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-prompt-cache-'));
});
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** Two turns per item; the items in `down` then fail. */
function debate(down: string[]): AgentSystem<Q> {
  return async (item, ctx) => {
    for (const turn of [1, 2]) await ctx.llm!.invoke([new HumanMessage(`[${item.id}] turn ${turn}`)]);
    return down.includes(item.id) ? { prediction: null, trace: {}, error: 'LLM_REQUEST_FAILED: HTTP 400 bad request' } : { prediction: item.answer, trace: {} };
  };
}

async function run(down: string[]) {
  const llm = createChatModel(llmConfigSchema.parse({ baseUrl: srv!.url, model: 'm', apiKey: 'k', maxRetries: 0, cacheDir: false }), {});
  return runExperiment({
    runDir: dir,
    system: debate(down),
    items: ITEMS,
    gold: (q) => q.answer,
    makeContext: contextFrom({ llm }),
    config: { system: 'debate' },
    seed: 1,
  });
}

describe("the server's prompt cache in the token accounting", () => {
  it('is recorded per item and on replaced attempts, and said in report.md, the summaries and CASE’s Tokens line', async () => {
    // a vLLM-like server: the second turn of a conversation finds its first 3,072 prompt tokens in its prompt cache
    let n = 0;
    srv = await startScriptedServer((req) => {
      const turn2 = JSON.stringify(req.body.messages).includes('turn 2');
      const details = turn2 ? { prompt_tokens_details: { cached_tokens: 3072 } } : { prompt_tokens_details: { cached_tokens: 0 } };
      return { raw: completionWithUsage(++n, { prompt_tokens: 12_345, completion_tokens: 100, total_tokens: 12_445, ...details }) };
    });
    expect(await run(['mbe_682'])).toMatchObject({ failed: 1 });
    expect(await run([])).toMatchObject({ retried: 1, failed: 0 });

    const byId = new Map((await readResults(dir)).records.map((r) => [r.id, r]));
    for (const r of byId.values()) expect(r.tokens).toMatchObject({ input: 24_690, promptCached: 3072 });
    // the failed attempt's calls were answered from the server's prompt cache too: kept with its tokens
    expect(byId.get('mbe_682')!.replacedAttempts!.tokens).toMatchObject({ input: 24_690, promptCached: 3072 });

    const section = (await tokensSection(await readRun(dir), {} as never))!;
    expect(section.json).toMatchObject({ input: 74_070, promptCached: 9216 });
    expect(section.markdown).toMatch(/\| input \(9,216 of them from the server's prompt cache\) +\| +74,070 \|/);
    const records = [...byId.values()];
    expect(runTokensText(records, 0)).toContain("input 74,070 (9,216 of them from the server's prompt cache)");
    expect(caseMetricsMarkdown(caseMetrics(records, new Map()))).toContain("; input 74,070 (9,216 of them from the server's prompt cache)");
    // the explorer's run summary
    const summary = await runSummary({ id: 'r', dir, root: dir, kind: 'run', items: 3, correct: 3, graphs: 0 });
    expect(summary).toMatchObject({ promptCacheNote: "input 74,070 (9,216 of them from the server's prompt cache)" });
  });

  it('a run dir resumed against a server that says, after items an older lexcase (or a server that did not say) wrote: "not reported for 2 items"', async () => {
    srv = await startScriptedServer(() => ({ usage: { prompt_tokens: 12_345, completion_tokens: 100 }, content: 'argued' }));
    await run(['mbe_682']);
    await srv.close();
    let n = 0;
    srv = await startScriptedServer(() => ({
      raw: completionWithUsage(++n, { prompt_tokens: 12_345, completion_tokens: 100, prompt_tokens_details: { cached_tokens: 3072 } }),
    }));
    expect(await run([])).toMatchObject({ retried: 1, failed: 0 });
    const records = (await readResults(dir)).records;
    const said = "input 74,070 (6,144 of them from the server's prompt cache; not reported for 2 items)";
    const section = (await tokensSection(await readRun(dir), {} as never))!;
    expect(section.json).toMatchObject({ promptCached: 6144, promptCacheUnsaid: 2 });
    expect(section.markdown).toContain("| input (6,144 of them from the server's prompt cache; not reported for 2 items) |");
    expect(runTokensText(records, 0)).toContain(said);
    expect(caseMetricsMarkdown(caseMetrics(records, new Map()))).toContain(`; ${said}`);
  });

  it('a server that does not say leaves it absent (not 0) and unsaid', async () => {
    srv = await startScriptedServer(() => ({ usage: { prompt_tokens: 12_345, completion_tokens: 100 }, content: 'argued' }));
    await run([]);
    const records = (await readResults(dir)).records;
    for (const r of records) expect(r.tokens).not.toHaveProperty('promptCached');
    const section = (await tokensSection(await readRun(dir), {} as never))!;
    expect(section.json).not.toHaveProperty('promptCached');
    expect(section.markdown).not.toMatch(/prompt cache/);
    expect(runTokensText(records, 0)).not.toMatch(/prompt cache/);
    expect(caseMetricsMarkdown(caseMetrics(records, new Map()))).not.toMatch(/prompt cache/);
    expect(await runSummary({ id: 'r', dir, root: dir, kind: 'run', items: 3, correct: 3, graphs: 0 })).toMatchObject({ promptCacheNote: null });
  });
});
