/**
 * A server that sends no `usage` (older llama.cpp builds, some proxies) or cuts replies at max_tokens:
 * results.jsonl counted such calls (`tokens.unreported`, `tokens.cutShort`) and report.md said so,
 * but the line every `lexcase run` prints at the end said "tokens 0" (3-ply, EMAR, MAD, ACAL) or
 * printed no Tokens line at all (CASE and the baselines), as if the run had cost nothing and every
 * answer were whole. Now both say how many calls reported no usage and how many replies were cut
 * short. Driven through the factory's real client against a scripted server on 127.0.0.1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { caseMetrics, caseMetricsMarkdown } from '../agents/case/metrics.js';
import { llmConfigSchema } from '../core/config.js';
import { createChatModel } from '../core/llm/factory.js';
import { setLogLevel } from '../core/log.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../tests/support/scripted-openai-server.js';
import { readRun } from './report/read-run.js';
import { tokensSection } from './report/sections/tokens.js';
import { runTokensText } from './run-counts.js';
import { readResults } from './run-dir.js';
import { contextFrom, runExperiment } from './runner.js';
import { answerOneLetter, ONE_LETTER_ITEMS } from './test-support/one-letter-system.js';

const ITEMS = ONE_LETTER_ITEMS;
const answer = answerOneLetter;

let dir: string;
let srv: ScriptedServer | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-reply-flags-'));
  setLogLevel('error');
});
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  setLogLevel('info');
  rmSync(dir, { recursive: true, force: true });
});

const run = async (script: (r: RecordedRequest) => object) => {
  srv = await startScriptedServer(script);
  const runDir = join(dir, 'run');
  const llm = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0 }));
  await runExperiment({
    runDir,
    system: answer,
    items: ITEMS,
    gold: (q) => q.answer,
    makeContext: contextFrom({ llm }),
    config: { system: 'baseline' },
    seed: 1,
  });
  const records = (await readResults(runDir)).records;
  return {
    runDir,
    records,
    line: runTokensText(
      records,
      records.reduce((a, r) => a + (r.tokens?.total ?? 0), 0),
    ),
    caseLine: caseMetricsMarkdown(caseMetrics(records, new Map()))
      .split('\n')
      .find((l) => l.startsWith('Tokens:')),
  };
};

describe('the summary lines of a run whose server sent no usage or cut replies short', () => {
  it('no usage: "tokens 0; 3 of 3 LLM calls reported no token usage" (before: "tokens 0", and no Tokens line for CASE and the baselines)', async () => {
    const { records, line, caseLine } = await run(() => ({ content: 'C', usage: null }));
    expect(records.map((r) => r.tokens?.unreported)).toEqual([1, 1, 1]);
    expect(line).toBe('tokens 0; 3 of 3 LLM calls reported no token usage (the endpoint sent none; not in the total)');
    expect(caseLine).toBe('Tokens: 0 total, 0.0 per item; 3 of 3 LLM calls reported no token usage (the endpoint sent none; not in the total).');
  });

  it('cut short at max_tokens: the count of such replies beside the total (before: nothing in either line)', async () => {
    const { line, caseLine } = await run((r) => ({
      content: 'C',
      usage: { prompt_tokens: 100, completion_tokens: 16 },
      ...(JSON.stringify(r.body.messages).includes('[mbe_581]') ? {} : { finishReason: 'length' }),
    }));
    expect(line).toBe('tokens 348; 2 replies cut short at the token limit (finish_reason "length")');
    expect(caseLine).toMatch(/^Tokens: 348 total, 116.0 per item.*; 2 replies cut short at the token limit \(finish_reason "length"\)\.$/);
  });
  it('stopped by the content filter: counted on the item, in report.md and both lines (before: in no count; the answer read as whole)', async () => {
    const { records, line, caseLine, runDir } = await run((r) => ({
      content: 'C',
      usage: { prompt_tokens: 100, completion_tokens: 16 },
      ...(JSON.stringify(r.body.messages).includes('[mbe_222]') ? { finishReason: 'content_filter' } : {}),
    }));
    expect(records.map((r) => r.tokens?.filtered)).toEqual([undefined, undefined, 1]);
    expect(line).toBe('tokens 348; 1 reply stopped by the content filter (finish_reason "content_filter")');
    expect(caseLine).toMatch(/; 1 reply stopped by the content filter \(finish_reason "content_filter"\)\.$/);
    const t = (await tokensSection(await readRun(runDir), {} as never))!;
    expect(t.json).toMatchObject({ calls: 3, filtered: 1 });
    expect(t.markdown).toContain('| replies stopped by the content filter (finish_reason "content_filter") |');
  });
  it('only total_tokens: the total counts, said to have no input/output split (before: "tokens 0", "reported no token usage")', async () => {
    const { records, line, caseLine, runDir } = await run(() => ({ content: 'C', rawUsage: { total_tokens: 116 } }));
    expect(records.map((r) => [r.tokens?.total, r.tokens?.input, r.tokens?.totalOnly, r.tokens?.unreported])).toEqual([
      [116, 0, 1, undefined],
      [116, 0, 1, undefined],
      [116, 0, 1, undefined],
    ]);
    expect(line).toBe('tokens 348; 3 of 3 LLM calls reported only a total (no input/output split)');
    expect(caseLine).toMatch(/^Tokens: 348 total, 116.0 per item.*; 3 of 3 LLM calls reported only a total \(no input\/output split\)\.$/);
    const t = (await tokensSection(await readRun(runDir), {} as never))!;
    expect(t.json).toMatchObject({ total: 348, calls: 3, totalOnly: 3 });
    // report.md says what the budget counted (before: a row, and no word on the budget)
    expect(t.markdown).toContain(
      "**The endpoint reported only a total for 3 of 3 calls** (total_tokens, no prompt/completion split): their tokens are in total, not in input/output; token budgets (CASE advocates' --max-tokens) counted those totals",
    );
  });
  it('several choices per reply (a server that ignores n): counted once, said in both lines and report.md (before: nothing said; the first choice read silently)', async () => {
    const { records, line, caseLine, runDir } = await run(() => ({ content: 'C', choices: 2, usage: { prompt_tokens: 100, completion_tokens: 16 } }));
    expect(records.map((r) => [r.prediction, r.tokens?.total, r.tokens?.multiChoice, r.tokens?.choicesCarried])).toEqual([
      ['C', 116, 1, 2],
      ['C', 116, 1, 2],
      ['C', 116, 1, 2],
    ]);
    expect(line).toBe('tokens 348; 3 replies carried 6 choices; the first of each was used');
    expect(caseLine).toMatch(/; 3 replies carried 6 choices; the first of each was used\.$/);
    const t = (await tokensSection(await readRun(runDir), {} as never))!;
    expect(t.json).toMatchObject({ total: 348, calls: 3, multiChoice: 3, choicesCarried: 6 });
    expect(t.markdown).toMatch(/\| replies with more than one choice \(the first used\) \| +3 \|/);
    expect(t.markdown).toContain('**3 replies carried 6 choices; the first of each was used**');
  });
});
