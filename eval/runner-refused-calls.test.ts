/**
 * Requests the endpoint answers with an error after the retries (an HTTP 400: a server that does not
 * take a parameter, a request it finds malformed) were sent, yet were in no count a user reads: a
 * baseline run against a server refusing 3 of 8 requests said "LLM calls 5" in report.md and its
 * Tokens line, with the 3 only in llm/<item>.jsonl. Now results.jsonl counts them on the item's line
 * (`tokens.refused`, kept in `replacedAttempts` by a retry), and report.md's Tokens section, the
 * counts line, CASE's Tokens line and the explorer's run summary say how many, as they say the
 * requests cut off (`abandoned`, eval/runner-inflight-calls.test.ts).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HumanMessage } from '@langchain/core/messages';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { caseMetrics, caseMetricsMarkdown } from '../agents/case/metrics.js';
import { llmConfigSchema } from '../core/config.js';
import { createChatModel } from '../core/llm/factory.js';
import { invokeStructured } from '../core/llm/structured.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../tests/support/scripted-openai-server.js';
import { runSummary } from '../web/server/run-summary-api.js';
import { readRun } from './report/read-run.js';
import { tokensSection } from './report/sections/tokens.js';
import { runTokensText } from './run-counts.js';
import { readResults, resultsPath } from './run-dir.js';
import { contextFrom, runExperiment } from './runner.js';
import { answerOneLetter, ONE_LETTER_ITEMS, type OneLetterItem as Q } from './test-support/one-letter-system.js';
import type { AgentSystem } from './types.js';

const ITEMS = ONE_LETTER_ITEMS;
const answer = answerOneLetter;

const textOf = (r: RecordedRequest) => JSON.stringify(r.body.messages);
const ok = { content: 'C', usage: { prompt_tokens: 400, completion_tokens: 10 } };
/** mbe_581's question is refused (HTTP 400, not retried); the others are answered. */
const refuses581 = (r: RecordedRequest) => (textOf(r).includes('[mbe_581]') ? { status: 400, error: 'audit: bad request' } : ok);

let dir: string;
let srv: ScriptedServer | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-refused-'));
});
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const cfg = (url: string) => llmConfigSchema.parse({ baseUrl: url, model: 'scripted', cacheDir: false, maxRetries: 2, retryBaseMs: 1 });
const run = (runDir: string, llm: BaseChatModel, system: AgentSystem<Q> = answer) =>
  runExperiment({ runDir, system, items: ITEMS, gold: (q) => q.answer, makeContext: contextFrom({ llm }), config: { system: 'baseline' }, seed: 1 });
const section = async (runDir: string) => (await tokensSection(await readRun(runDir), {} as never))!;
const entry = (runDir: string) => ({ id: 'r', dir: runDir, root: dir, kind: 'run' as const, items: 3, correct: 2, graphs: 0 });

describe('requests refused with an error after their retries', () => {
  it('are counted on the item, in report.md, the counts line, CASE’s Tokens line and the explorer: every request sent is in a count (before: 3 sent, "LLM calls 2")', async () => {
    srv = await startScriptedServer(refuses581);
    const runDir = join(dir, 'run');
    const r = await run(runDir, createChatModel(cfg(srv.url)));
    expect(srv.requests).toHaveLength(3);
    const records = (await readResults(runDir)).records;
    const failed = records.find((x) => x.id === 'mbe_581')!;
    expect(failed.error).toMatch(/HTTP 400/);
    // before: {input: 0, output: 0, total: 0, calls: 0, cached: 0}
    expect(failed.tokens).toEqual({ input: 0, output: 0, total: 0, calls: 0, cached: 0, refused: 1, retried: 0 });
    const t = await section(runDir);
    expect(t.json).toMatchObject({ calls: 2, refused: 1 });
    expect((t.json as { calls: number }).calls + (t.json as { refused: number }).refused).toBe(srv.requests.length);
    expect(t.markdown).toContain('| requests refused (an error after retries; not in LLM calls)');
    expect(t.markdown).toContain('**1 request refused (an error instead of a reply after retries, e.g. HTTP 400; not in LLM calls)**');
    expect(runTokensText(r.results, 820)).toBe('tokens 820; 1 request refused (an error instead of a reply after retries, e.g. HTTP 400; not in LLM calls)');
    expect(caseMetricsMarkdown(caseMetrics(records, new Map()))).toContain(
      'Tokens: 820 total, 273.3 per item (other 820); 1 request refused (an error instead of a reply after retries, e.g. HTTP 400; not in LLM calls).',
    );
    expect(await runSummary(entry(runDir))).toMatchObject({ tokens: 820, refused: 1, cutOff: 0 });
  });

  it('a run whose every request was refused does not say "No LLM calls (offline run)"', async () => {
    srv = await startScriptedServer(() => ({ status: 400, error: "response_format 'json_schema' is not supported" }));
    const runDir = join(dir, 'run');
    await run(runDir, createChatModel(cfg(srv.url)));
    const t = await section(runDir);
    expect(t.markdown).not.toContain('No LLM calls');
    expect(t.json).toMatchObject({ calls: 0, refused: 3 });
    expect(t.markdown).toContain('**3 requests refused (an error instead of a reply after retries, e.g. HTTP 400; not in LLM calls)**');
  });

  it('a structured-output refusal the factory falls back from is counted though the item succeeds', async () => {
    // the server does not take response_format: its 400 makes the model fall back to prompt mode
    srv = await startScriptedServer((r) =>
      r.body.response_format ? { status: 400, error: "response_format 'json_schema' is not supported by this server" } : { ...ok, content: '{"answer":"C"}' },
    );
    const structured: AgentSystem<Q> = async (item, ctx) => {
      const { value } = await invokeStructured(ctx.llm!, [new HumanMessage(`[${item.id}] Answer as JSON.`)], z.object({ answer: z.string() }), {
        what: 'answer',
        signal: ctx.signal,
      });
      return { prediction: value.answer, trace: {} };
    };
    const runDir = join(dir, 'run');
    await run(runDir, createChatModel(cfg(srv.url)), structured);
    const records = (await readResults(runDir)).records;
    expect(records.every((x) => !x.error)).toBe(true);
    const calls = records.reduce((s, x) => s + x.tokens!.calls, 0);
    const refused = records.reduce((s, x) => s + (x.tokens!.refused ?? 0), 0);
    expect(refused).toBeGreaterThan(0);
    expect(calls + refused).toBe(srv.requests.length);
  });

  it('a retry keeps the refused request in its replaced attempts, and a replay reproduces results.jsonl', async () => {
    srv = await startScriptedServer(refuses581);
    const runDir = join(dir, 'run');
    await run(runDir, createChatModel(cfg(srv.url)));
    const replayed = join(dir, 'replay');
    await run(replayed, createChatModel(cfg('http://127.0.0.1:9/v1'), { replayFrom: runDir }));
    expect(readFileSync(resultsPath(replayed), 'utf8')).toBe(readFileSync(resultsPath(runDir), 'utf8'));

    await srv.close();
    srv = await startScriptedServer(() => ({ ...ok, content: 'B' }));
    await run(runDir, createChatModel(cfg(srv.url)));
    const retried = (await readResults(runDir)).records.find((x) => x.id === 'mbe_581')!;
    expect(retried.tokens).not.toHaveProperty('refused');
    expect(retried.replacedAttempts).toEqual({ attempts: 1, tokens: { input: 0, output: 0, total: 0, calls: 0, cached: 0, refused: 1 } });
    const after = await section(runDir);
    expect(after.markdown).toContain(
      '**At least 0 tokens more (0 LLM calls; and 1 request refused (an error instead of a reply after retries, e.g. HTTP 400; not in LLM calls)) were spent on 1 failed attempt that a retry replaced**',
    );
    expect(after.json).toMatchObject({ replacedAttempts: { attempts: 1, calls: 0, refused: 1 } });
    expect(await runSummary(entry(runDir))).toMatchObject({ refused: 1 });
  });

  it('report.md\'s note on refused requests gives the whole-run count too when a retry replaced a refused attempt: the number the counts line, CASE\'s line and the explorer print (before: "1 request refused" beside their "2")', async () => {
    srv = await startScriptedServer(refuses581);
    const runDir = join(dir, 'run');
    await run(runDir, createChatModel(cfg(srv.url)));
    // the resume runs the failed item again and the endpoint refuses it again: one refusal recorded, one replaced
    const r = await run(runDir, createChatModel(cfg(srv.url)));
    const failed = (await readResults(runDir)).records.find((x) => x.id === 'mbe_581')!;
    expect(failed.tokens?.refused).toBe(1);
    expect(failed.replacedAttempts?.tokens.refused).toBe(1);
    const all = 'requests refused (an error instead of a reply after retries, e.g. HTTP 400; not in LLM calls)';
    expect(runTokensText(r.results, 0)).toContain(`2 ${all}`);
    expect(await runSummary(entry(runDir))).toMatchObject({ refused: 2 });
    const md = (await section(runDir)).markdown;
    expect(md).toContain('| requests refused (an error after retries; not in LLM calls)');
    expect(md).toContain(
      `**1 request refused (an error instead of a reply after retries, e.g. HTTP 400; not in LLM calls)** (2 ${all} in all, with the 1 of the failed attempts a retry replaced`,
    );
  });
});
