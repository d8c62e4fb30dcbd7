/**
 * The counts line every `lexcase run <system>` prints (eval/run-counts.ts runTokensText; CASE's and the
 * baselines' Tokens line) says the requests of the items under way at an interrupt, which config.json
 * records (`interrupts`, src/cli/run-interrupt.ts) and report.md counts in a row of its own. Before,
 * the line left them out: after a Ctrl-C and the resume it said "tokens 90" (3 calls) against the 4
 * requests the server received, with no trace of the fourth.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { caseMetrics, caseMetricsMarkdown } from '../../agents/case/metrics.js';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { unrecordedRequests } from '../../eval/results-writes.js';
import { readRunUnderWay, runTokensText } from '../../eval/run-counts.js';
import { HumanMessage } from '@langchain/core/messages';
import type { AgentSystem } from '../../eval/types.js';
import { contextFrom, runExperiment } from '../../eval/runner.js';
import { requestsCounted } from '../../eval/test-support/requests-counted.js';
import { answerOneLetter, ONE_LETTER_ITEMS, type OneLetterItem } from '../../eval/test-support/one-letter-system.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { getLogLevel, setLogLevel } from '../../core/log.js';
import { recordInterrupt } from './run-interrupt.js';

let dir: string;
let srv: ScriptedServer | undefined;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-interrupt-line-'));
});
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/**
 * A one-letter baseline run stopped while `held(n)` requests (n: the request's index) wait on the
 * server, with the interrupt recorded as the signal's handler does (src/cli/run-interrupt.ts
 * reportRunInterrupt), then resumed with stderr caught at info level.
 */
async function interruptThenResume(o: { held: (n: number) => boolean; concurrency?: number; runName: string; underWay: { items: number; requests: number } }) {
  let held = true;
  let release!: () => void;
  const opened = new Promise<void>((ok) => (release = ok));
  let n = 0;
  const server = await startScriptedServer(async () => {
    if (o.held(n++) && held) await opened;
    return { content: 'C', usage: { prompt_tokens: 20, completion_tokens: 10 } };
  });
  srv = server;
  const llm = createChatModel(llmConfigSchema.parse({ baseUrl: server.url, model: 'scripted', cacheDir: false, maxRetries: 0 }));
  const runDir = join(dir, o.runName);
  const run = (signal?: AbortSignal) =>
    runExperiment({
      runDir,
      system: answerOneLetter,
      items: ONE_LETTER_ITEMS as OneLetterItem[],
      gold: (q) => q.answer,
      makeContext: contextFrom({ llm }),
      config: { system: 'baseline' },
      lexcaseSystem: 'baseline',
      seed: 1,
      ...(o.concurrency ? { concurrency: o.concurrency } : {}),
      ...(signal ? { signal } : {}),
    });
  const stop = new AbortController();
  const first = run(stop.signal);
  while (server.requests.length < 2) await new Promise((ok) => setTimeout(ok, 5));
  const u = unrecordedRequests(runDir);
  expect(u).toEqual(o.underWay);
  expect(recordInterrupt(runDir, 'SIGINT', u)).toBe(true);
  stop.abort(new Error('interrupted'));
  held = false;
  release();
  await first;

  let stderr = '';
  const said = vi.spyOn(process.stderr, 'write').mockImplementation((t: string | Uint8Array) => ((stderr += String(t)), true));
  const level = getLogLevel();
  setLogLevel('info');
  const r = await run().finally(() => (said.mockRestore(), setLogLevel(level)));
  return { r, stderr, runDir, server, run };
}

describe('the counts line after an interrupt and its resume', () => {
  it('says the requests of the items under way at the interrupt: calls + those = the requests the server received (before: 3 of 4 in the line)', async () => {
    // the first request is answered, the second held until the run is stopped (as a Ctrl-C finds it); the resume's are answered
    const { r, stderr, runDir, server } = await interruptThenResume({ held: (n) => n === 1, runName: 'run', underWay: { items: 1, requests: 1 } });
    expect(server.requests).toHaveLength(4);
    // the resume's own line says them too (before: "resuming …: 1 of 3 items already done", nothing of the request)
    expect(stderr).toContain(
      `resuming ${runDir}: 1 of 3 items already done; 1 request sent by 1 item under way at an interrupt (in no results.jsonl line; the counts line and report.md count it)\n`,
    );
    // the 3 recorded lines' calls, and the request under way at the signal
    expect(requestsCounted(r.results)).toBe(3);
    const underWay = await readRunUnderWay(runDir);
    expect(requestsCounted(r.results, underWay)).toBe(server.requests.length);
    // before: 'tokens 90 (whole run; this call 60)', nothing of the fourth request
    expect(runTokensText(r.results, 60, underWay)).toBe(
      'tokens 90 (whole run; this call 60); 1 request sent by 1 item under way at an interrupt (in no results.jsonl line, nor in LLM calls; its usage is in no total)',
    );
    // the resume's config.json entry records it (before: { items: 3, skipped: 1 }, nothing of the request): resumes[] sums to the server's requests too
    const resumes = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')).resumes as { underWay?: { items: number; requests: number } }[];
    expect(resumes.map((x) => x.underWay)).toEqual([{ items: 1, requests: 1 }]);
    expect(requestsCounted(r.results, resumes[0].underWay)).toBe(server.requests.length);
    // CASE's and the baselines' Tokens line (their counts line prints no tokens) says it too
    expect(caseMetricsMarkdown(caseMetrics(r.results, new Map(), 13, underWay))).toContain(
      '; 1 request sent by 1 item under way at an interrupt (in no results.jsonl line, nor in LLM calls; its usage is in no total).',
    );
  });

  it('a run interrupted before its first line: the resume says the requests of the items cut short (before: no resuming line at all)', async () => {
    // every first-run request is held until the run is stopped: no item finishes, two are under way
    const { r, stderr, runDir, server, run } = await interruptThenResume({
      held: () => true,
      concurrency: 2,
      runName: 'run0',
      underWay: { items: 2, requests: 2 },
    });
    // every request the server received is in the calls or the interrupt's count
    expect(requestsCounted(r.results, await readRunUnderWay(runDir))).toBe(server.requests.length);
    expect(stderr).toContain(
      `resuming ${runDir}: 0 of 3 items already done; 2 requests sent by 2 items under way at an interrupt (in no results.jsonl line; the counts line and report.md count them)\n`,
    );
    // that resume stopped too (as a signal's handler records it), then resumed: each resume records the interrupt before it
    // alone, so resumes[] sums to config.json's interrupts, as the resuming line and report.md count them
    expect(recordInterrupt(runDir, 'SIGTERM', { items: 1, requests: 2 })).toBe(true);
    await run();
    const file = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')) as {
      resumes: { underWay?: { items: number; requests: number } }[];
    };
    expect(file.resumes.map((x) => x.underWay)).toEqual([
      { items: 2, requests: 2 },
      { items: 1, requests: 2 },
    ]);
    expect(await readRunUnderWay(runDir)).toEqual({ items: 3, requests: 4 });
  });

  it('counts the tokens the stopped attempt spent on an item it did not record, apart from the total (before: "their usage is in no total", the 30 tokens of its answered request in no figure)', async () => {
    // each item asks twice; item 1's first request is answered (20 + 10 tokens), its second held when the run is stopped
    const twice: AgentSystem<OneLetterItem> = async (item, ctx) => {
      await ctx.llm!.invoke([new HumanMessage(`[${item.id}] Think first.`)], { signal: ctx.signal });
      const reply = await ctx.llm!.invoke([new HumanMessage(`[${item.id}] Answer with one letter.`)], { signal: ctx.signal });
      return { prediction: String(reply.content).trim(), trace: {} };
    };
    let held = true;
    let release!: () => void;
    const opened = new Promise<void>((ok) => (release = ok));
    let n = 0;
    const server = await startScriptedServer(async () => {
      if (n++ === 1 && held) await opened;
      return { content: 'C', usage: { prompt_tokens: 20, completion_tokens: 10 } };
    });
    srv = server;
    const llm = createChatModel(llmConfigSchema.parse({ baseUrl: server.url, model: 'scripted', cacheDir: false, maxRetries: 0 }));
    const runDir = join(dir, 'spent');
    const run = (signal?: AbortSignal) =>
      runExperiment({
        runDir,
        system: twice,
        items: ONE_LETTER_ITEMS as OneLetterItem[],
        gold: (q) => q.answer,
        makeContext: contextFrom({ llm }),
        config: { system: 'baseline' },
        lexcaseSystem: 'baseline',
        seed: 1,
        ...(signal ? { signal } : {}),
      });
    const stop = new AbortController();
    const first = run(stop.signal);
    while (server.requests.length < 2) await new Promise((ok) => setTimeout(ok, 5));
    const u = unrecordedRequests(runDir);
    expect(u).toEqual({ items: 1, requests: 2, tokens: 30 });
    expect(recordInterrupt(runDir, 'SIGINT', u)).toBe(true);
    expect(JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')).interrupts).toMatchObject([{ signal: 'SIGINT', items: 1, requests: 2, tokens: 30 }]);
    stop.abort(new Error('interrupted'));
    held = false;
    release();
    await first;
    const r = await run();
    const underWay = await readRunUnderWay(runDir);
    expect(underWay).toEqual({ items: 1, requests: 2, tokens: 30 });
    // the resumed run's total is its 3 recorded items' 6 calls (180 tokens); the stopped attempt's 30 are said beside it
    const said =
      '2 requests sent by 1 item under way at an interrupt (in no results.jsonl line, nor in LLM calls; plus 30 tokens the stopped attempt spent on them';
    expect(runTokensText(r.results, 180, underWay)).toContain(`tokens 180; ${said}`);
    expect(caseMetricsMarkdown(caseMetrics(r.results, new Map(), 13, underWay))).toContain(`Tokens: 180 total, 60.0 per item (other 180); ${said}`);
  });
});
