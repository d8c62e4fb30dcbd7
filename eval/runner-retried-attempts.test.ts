/**
 * Failed attempts the factory sent again (HTTP 429, 5xx, a timeout, a connection error, a malformed
 * body: core/llm/retry.ts) were in no count a user reads: against a server that answered 8 of 41
 * requests of a CASE run with 429 or 500 first, report.md said "LLM calls 33" and nothing else, and
 * a timed-out attempt the server processed in full was spent with no trace. Now each exchange in
 * llm/<item>.jsonl records its `retries`, the item's line counts them (`tokens.retried`), and
 * report.md's Tokens section, the counts line, CASE's Tokens line and the explorer (run summary, an
 * item's LLM-calls panel) say how many; a replay reproduces the count from the recording.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { caseMetrics, caseMetricsMarkdown } from '../agents/case/metrics.js';
import { llmConfigSchema } from '../core/config.js';
import { createChatModel } from '../core/llm/factory.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../tests/support/scripted-openai-server.js';
import { runSummary } from '../web/server/run-summary-api.js';
import { readInspectorCalls } from './llm-exchanges.js';
import { readRun } from './report/read-run.js';
import { tokensSection } from './report/sections/tokens.js';
import { runTokensText } from './run-counts.js';
import { readResults, resultsPath } from './run-dir.js';
import { contextFrom, runExperiment } from './runner.js';
import { answerOneLetter, ONE_LETTER_ITEMS, type OneLetterItem as Q } from './test-support/one-letter-system.js';

const textOf = (r: RecordedRequest) => JSON.stringify(r.body.messages);
const ok = { content: 'C', usage: { prompt_tokens: 400, completion_tokens: 10 } };

let dir: string;
let srv: ScriptedServer | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-retried-'));
});
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  rmSync(dir, { recursive: true, force: true });
});

const cfg = (url: string) => llmConfigSchema.parse({ baseUrl: url, model: 'scripted', cacheDir: false, maxRetries: 3, retryBaseMs: 1, retryMaxMs: 2 });
const run = (runDir: string, llm: BaseChatModel) =>
  runExperiment({
    runDir,
    system: answerOneLetter,
    items: ONE_LETTER_ITEMS as Q[],
    gold: (q) => q.answer,
    makeContext: contextFrom({ llm }),
    config: { system: 'baseline' },
    seed: 1,
  });

describe('failed attempts sent again', () => {
  it('are counted on the item, in report.md, the counts line, CASE’s Tokens line and the explorer: every request the server got is in a count (before: 6 sent, "LLM calls 3" and nothing else)', async () => {
    // mbe_581: 429 then 500 then a reply; mbe_137: 500 then a reply; the third item: a reply at once
    const seen = new Map<string, number>();
    srv = await startScriptedServer((r) => {
      const id = ['mbe_581', 'mbe_137'].find((x) => textOf(r).includes(`[${x}]`));
      if (!id) return ok;
      const n = (seen.get(id) ?? 0) + 1;
      seen.set(id, n);
      if (id === 'mbe_581' && n === 1) return { status: 429, error: 'rate limited', headers: { 'retry-after': '0' } };
      if (n <= (id === 'mbe_581' ? 2 : 1)) return { status: 500, error: 'upstream failed' };
      return ok;
    });
    const runDir = join(dir, 'run');
    const r = await run(runDir, createChatModel(cfg(srv.url)));
    expect(srv.requests).toHaveLength(6);
    const records = (await readResults(runDir)).records;
    const byId = new Map(records.map((x) => [x.id, x]));
    // before: { input: 400, output: 10, total: 410, calls: 1, cached: 0 } for each, nothing of the retries
    expect(byId.get('mbe_581')?.tokens).toEqual({ input: 400, output: 10, total: 410, calls: 1, cached: 0, retried: 2 });
    expect(byId.get('mbe_137')?.tokens).toEqual({ input: 400, output: 10, total: 410, calls: 1, cached: 0, retried: 1 });
    const calls = records.reduce((s, x) => s + x.tokens!.calls, 0);
    const retried = records.reduce((s, x) => s + (x.tokens!.retried ?? 0), 0);
    expect(calls + retried).toBe(srv.requests.length);
    const exchanges = readFileSync(join(runDir, 'llm', 'mbe_581.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(exchanges.map((x) => x.retries)).toEqual([2]);

    const t = (await tokensSection(await readRun(runDir), {} as never))!;
    expect(t.json).toMatchObject({ calls: 3, retried: 3, total: 1230 });
    expect(t.markdown).toContain('| failed attempts sent again (429, 5xx, timeouts; not in LLM calls) |');
    expect(t.markdown).toContain('**3 failed attempts sent again (HTTP 429/5xx, a timeout, …; their usage, if any, is in no total)**');
    expect(runTokensText(r.results, 1230)).toBe('tokens 1,230; 3 failed attempts sent again (HTTP 429/5xx, a timeout, …; their usage, if any, is in no total)');
    expect(caseMetricsMarkdown(caseMetrics(records, new Map()))).toContain(
      'Tokens: 1,230 total, 410.0 per item (other 1,230); 3 failed attempts sent again (HTTP 429/5xx, a timeout, …; their usage, if any, is in no total).',
    );

    // the explorer: the run summary and the item's LLM-calls panel
    expect(await runSummary({ id: 'r', dir: runDir, root: dir, kind: 'run', items: 3, correct: 2, graphs: 0 })).toMatchObject({ retried: 3, refused: 0 });
    expect((await readInspectorCalls(runDir, 'mbe_581'))?.exchanges.map((x) => x.retries)).toEqual([2]);

    // a replay sends nothing and counts the recorded retries: the same results.jsonl
    const replayed = join(dir, 'replay');
    await run(replayed, createChatModel(cfg('http://127.0.0.1:9/v1'), { replayFrom: runDir }));
    expect(readFileSync(resultsPath(replayed), 'utf8')).toBe(readFileSync(resultsPath(runDir), 'utf8'));
  });

  it('those of a failed attempt a retry replaced are in report.md too (its replaced-attempts note and report.json), as in the counts line: none is counted in one and missing from the other', async () => {
    // first run: mbe_581 gets 500 on all 4 tries (3 sent again, then refused); the resume retries it and it is answered
    let down = true;
    srv = await startScriptedServer((r) => (down && textOf(r).includes('[mbe_581]') ? { status: 500, error: 'upstream failed' } : ok));
    const runDir = join(dir, 'run');
    expect(await run(runDir, createChatModel(cfg(srv.url)))).toMatchObject({ failed: 1 });
    down = false;
    const r = await run(runDir, createChatModel(cfg(srv.url)));
    expect(r).toMatchObject({ retried: 1, failed: 0 });
    expect(srv.requests).toHaveLength(2 + 4 + 1); // the other two items, mbe_581's 4 tries, its retry
    // the counts line: the whole run's, the replaced attempt's 3 included
    expect(runTokensText(r.results, 1230)).toContain('3 failed attempts sent again');
    const t = (await tokensSection(await readRun(runDir), {} as never))!;
    // before: the note said "(0 LLM calls; and 1 request refused …)" and nothing of the 3 attempts sent again
    expect(t.markdown).toContain(
      '(0 LLM calls; and 1 request refused (an error instead of a reply after retries, e.g. HTTP 400; not in LLM calls); and 3 failed attempts sent again (HTTP 429/5xx, a timeout, …; their usage, if any, is in no total)) were spent on 1 failed attempt that a retry replaced**',
    );
    expect(t.json).toMatchObject({ calls: 3, replacedAttempts: { attempts: 1, calls: 0, refused: 1, retried: 3 } });
  });

  it('a run dir whose lines an older lexcase wrote (no tokens.retried) says "retries not recorded for 2 items (written by an older lexcase)" in report.md and the counts line, not a silent undercount', async () => {
    // mbe_581: 429 then a reply; the others: a reply at once
    let first = true;
    srv = await startScriptedServer((r) => {
      if (first && textOf(r).includes('[mbe_581]')) {
        first = false;
        return { status: 429, error: 'rate limited', headers: { 'retry-after': '0' } };
      }
      return ok;
    });
    const runDir = join(dir, 'run');
    await run(runDir, createChatModel(cfg(srv.url)));
    const lines = readFileSync(resultsPath(runDir), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    // every line records the field now, 0 included
    expect(Object.fromEntries(lines.map((l) => [l.id, l.tokens.retried]))).toEqual({ mbe_137: 0, mbe_581: 1, mbe_222: 0 });
    // mbe_581's and mbe_222's lines as a lexcase before the count wrote them: no `retried`
    for (const l of lines) if (l.id !== 'mbe_137') delete l.tokens.retried;
    writeFileSync(resultsPath(runDir), lines.map((l) => `${JSON.stringify(l)}\n`).join(''));

    const t = (await tokensSection(await readRun(runDir), {} as never))!;
    expect(t.json).toMatchObject({ calls: 3, retriesUnrecorded: 2 });
    expect(t.markdown).toContain('**retries not recorded for 2 items (written by an older lexcase)**');
    const records = (await readResults(runDir)).records;
    expect(runTokensText(records, 1230)).toBe('tokens 1,230; retries not recorded for 2 items (written by an older lexcase)');
    expect(caseMetricsMarkdown(caseMetrics(records, new Map()))).toContain(
      'Tokens: 1,230 total, 410.0 per item (other 1,230); retries not recorded for 2 items (written by an older lexcase).',
    );
  });
});
