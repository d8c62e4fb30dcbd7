/**
 * CASE runs with failing items, end to end through the runner, the real ChatOpenAI client and the
 * scripted server: failed items' traces keep the trace schema (jurors is a list), the report
 * works, a resume after the server recovers retries exactly the failed items, and results.jsonl
 * keeps one line per item.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { writeReport } from '../../eval/report/write-report.js';
import { readRun } from '../../eval/report/read-run.js';
import { resultsPath, tracePath } from '../../eval/run-dir.js';
import { runExperiment } from '../../eval/runner.js';
import type { SystemContext } from '../../eval/types.js';
import type { Question } from '../../corpora/types.js';
import { llmConfigSchema } from '../../core/config.js';
import { createChatModel } from '../../core/llm/factory.js';
import { setLogLevel } from '../../core/log.js';
import {
  schemaFollowing,
  startScriptedServer,
  type RecordedRequest,
  type ScriptReply,
  type ScriptedServer,
} from '../../tests/support/scripted-openai-server.js';
import { formatRun } from './cli-run.js';
import { createCase } from './index.js';
import { caseMetrics, caseMetricsMarkdown, FAILED_UNSTAGED_LABEL } from './metrics.js';
import { getPassageFrom, keywordRetriever, PASSAGES, QUESTION, searchTool } from './test-support/fixtures.js';
import '../systems.js'; // the system list hands itself to eval: the report finds each system's section

let srv: ScriptedServer | undefined;
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-case-fail-'));
  setLogLevel('silent');
});
afterEach(async () => {
  await srv?.close();
  srv = undefined;
  rmSync(dir, { recursive: true, force: true });
  setLogLevel('info');
});

const bm25 = keywordRetriever('bm25', PASSAGES);
const ITEMS: Question[] = Array.from({ length: 7 }, (_, i) => ({ ...QUESTION, id: `mbe_${i}`, prompt: `${QUESTION.prompt} (case file ${i})` }));
const FAILING = new Set(['mbe_1', 'mbe_2', 'mbe_3', 'mbe_5', 'mbe_6']);
const text = (req: RecordedRequest) => JSON.stringify(req.body.messages);
const itemOf = (req: RecordedRequest) => `mbe_${/case file (\d+)/.exec(text(req))?.[1]}`;

/** Advocates: one bm25 search, then pick what came back; jurors: a schema-following server voting B. */
function healthy(req: RecordedRequest): ScriptReply {
  if (req.body.response_format || req.body.tool_choice) return schemaFollowing({ fill: (v) => ({ ...v, vote: 'B' }) })(req);
  const toolMsgs = (req.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool');
  if (toolMsgs.length === 0) return { toolCalls: [{ name: 'bm25_search', args: { query: 'impeach own witness relevant evidence' } }] };
  const ids = toolMsgs.flatMap((m) => JSON.parse(m.content).results.map((r: { id: string }) => r.id));
  return { content: JSON.stringify({ analysis: 'ok', evidence: ids.slice(0, 2).map((id: string) => ({ id, justification: 'on point' })) }) };
}

function run(url: string, opts: { retryFailed?: boolean } = {}) {
  const llm = createChatModel(llmConfigSchema.parse({ baseUrl: url, model: 'scripted', cacheDir: false, maxRetries: 0, timeoutMs: 5000 }));
  return runExperiment({
    lexcaseSystem: 'case',
    runDir: dir,
    system: createCase({ k: 2 }),
    items: ITEMS,
    gold: (q) => q.answer,
    makeContext: (_q, { seed }): SystemContext => ({
      seed,
      tools: [searchTool('bm25_search', bm25, PASSAGES)],
      retrievers: { bm25 },
      llm,
      getPassage: getPassageFrom(PASSAGES),
      options: { k: 2 },
    }),
    config: { system: 'case', mode: 'llm', jurors: 3 },
    seed: 7,
    ...opts,
  });
}

describe('CASE runs with failed items', () => {
  it('failed items (HTTP 500) keep a list of jurors; the report works; resume retries exactly the failed items', async () => {
    let down = true;
    srv = await startScriptedServer((req) => (down && FAILING.has(itemOf(req)) ? { status: 500, error: 'upstream down' } : healthy(req)));

    const first = await run(srv.url);
    expect(first).toMatchObject({ ran: 7, failed: 5, skipped: 0, retried: 0 });
    const failedTrace = JSON.parse(readFileSync(tracePath(dir, 'mbe_1'), 'utf8'));
    expect(failedTrace.jurors).toEqual([]);
    expect(failedTrace.jurorCount).toBe(3);
    const report1 = await writeReport(dir);
    expect((report1.json.sections as any).failures.count).toBe(5);
    expect((report1.json.sections as any).case).toBeDefined();
    // every count row of the per-item table is over the same 7 items: a failed item records its counts of what ran
    // (0 here: the server failed its first request), not unresolvedCitations alone (that row n 7, the others n 2)
    const rows = (report1.json.sections as any).itemMetrics as Record<string, { n: number }>;
    const counts = ['abstentions', 'picksBeyondK', 'repeatedToolCalls', 'toolCallsNotOffered', 'unresolvedCitations'];
    for (const k of counts) expect([k, rows[k]?.n]).toEqual([k, 7]);
    expect(report1.markdown).toContain(
      'The 5 failed items are in the abstentions, goldEverReturned, goldInAnyEvidence, goldInCorrectEvidence, picksBeyondK, repeatedToolCalls, toolCallsNotOffered and unresolvedCitations rows (n counts them), with what ran before each failed',
    );

    // --no-retry-failed keeps them as they are, and every line that counts the skipped items says so
    // (before: "7 of 7 items already done" and "skipped 7 (already done), failed 0" above a report of 5 failures).
    setLogLevel('info');
    let stderr = '';
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((t: string | Uint8Array) => ((stderr += String(t)), true));
    const kept = await run(srv.url, { retryFailed: false }).finally(() => spy.mockRestore());
    setLogLevel('silent');
    expect(kept).toMatchObject({ ran: 0, skipped: 7, keptFailed: 5, retried: 0 });
    // the "resuming …" line and the run's counts line word the kept failures with one phrase
    const keptPhrase = '5 failed earlier, kept as failed by --no-retry-failed';
    expect(stderr).toContain(`resuming ${dir}: 7 of 7 items already done (${keptPhrase}; without it they run again)`);
    expect(formatRun({ runDir: dir, ...kept, metrics: caseMetrics(kept.results, new Map()), markdown: '' }, 'CASE')).toContain(
      `ran 0, skipped 7 (already done; ${keptPhrase}), failed 0`,
    );
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).resumes.at(-1)).toMatchObject({ skipped: 7, keptFailed: 5 });

    down = false;
    setLogLevel('info');
    stderr = '';
    const spy2 = vi.spyOn(process.stderr, 'write').mockImplementation((t: string | Uint8Array) => ((stderr += String(t)), true));
    const second = await run(srv.url).finally(() => spy2.mockRestore());
    setLogLevel('silent');
    expect(second).toMatchObject({ ran: 5, skipped: 2, retried: 5, failed: 0 });
    // and the retried ones with one phrase too (before: "retrying 5 failed" beside "5 failed earlier, retried")
    expect(stderr).toContain(`resuming ${dir}: 2 of 7 items already done; 5 failed earlier, run again`);
    expect(formatRun({ runDir: dir, ...second, metrics: caseMetrics(second.results, new Map()), markdown: '' }, 'CASE')).toContain(
      'ran 5 (5 failed earlier, run again), skipped 2 (already done), failed 0',
    );
    expect(second.results.filter((r) => r.correct)).toHaveLength(7);
    const lines = readFileSync(resultsPath(dir), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id).sort()).toEqual(ITEMS.map((q) => q.id));
    expect(lines.every((l) => l.error === undefined)).toBe(true);
    const report2 = await writeReport(dir);
    expect((report2.json.sections as any).failures.count).toBe(0);
    expect((await readRun(dir)).results).toHaveLength(7);

    // A third call has nothing left to do.
    expect(await run(srv.url)).toMatchObject({ ran: 0, skipped: 7, retried: 0 });
  }, 60_000);

  it('a failed item\'s tokens spent before its error are their own part of the Tokens line, not "other" (the query rewrites)', async () => {
    // mbe_1's advocate B searches (one reply, tokens spent), then its next request is refused (HTTP 400):
    // the item fails with advocate A finished and B's search call in no stage its trace counts
    const perItem = new Map<string, number>();
    srv = await startScriptedServer((req) => {
      const item = itemOf(req);
      const n = (perItem.get(item) ?? 0) + 1;
      perItem.set(item, n);
      return item === 'mbe_1' && n === 4 ? { status: 400, error: 'context length exceeded' } : healthy(req);
    });
    const llm = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: false, maxRetries: 0, timeoutMs: 5000 }));
    const out = await runExperiment({
      lexcaseSystem: 'case',
      runDir: dir,
      system: createCase({ k: 2, tools: ['bm25'] }),
      items: ITEMS.slice(0, 2),
      gold: (q) => q.answer,
      makeContext: (_q, { seed }): SystemContext => ({
        seed,
        tools: [searchTool('bm25_search', bm25, PASSAGES)],
        retrievers: { bm25 },
        llm,
        getPassage: getPassageFrom(PASSAGES),
        options: { k: 2 },
      }),
      config: { system: 'case', mode: 'llm', jurors: 3 },
      seed: 7,
    });
    expect(out).toMatchObject({ ran: 2, failed: 1 });
    const run = await readRun(dir);
    const failed = run.results.find((r) => r.id === 'mbe_1')!;
    const stages = run.traces.get('mbe_1')!.tokens as Record<string, number>;
    const unstaged = failed.tokens!.total - stages.hypotheses - stages.advocates - stages.jury;
    expect(unstaged).toBeGreaterThan(0); // advocate B's search reply
    const m = caseMetrics(run.results, run.traces);
    // before: byStage.other = unstaged, printed as "other N" though no rewrite_query call was made
    expect(m.tokens.byStage.other).toBeUndefined();
    expect(m.tokens.byStage.failedUnstaged).toBe(unstaged);
    const parts = Object.values(m.tokens.byStage).reduce((a, b) => a + b, 0);
    expect(parts).toBe(m.tokens.total);
    expect(caseMetricsMarkdown(m)).toContain(`${FAILED_UNSTAGED_LABEL} ${unstaged})`);
  }, 60_000);

  it('a trace of the old shape (jurors: 3) no longer crashes the report: it is skipped with a warning', async () => {
    srv = await startScriptedServer(healthy);
    await run(srv.url);
    const t = JSON.parse(readFileSync(tracePath(dir, 'mbe_0'), 'utf8'));
    writeFileSync(tracePath(dir, 'mbe_0'), JSON.stringify({ ...t, jurors: 3 }));
    const runData = await readRun(dir);
    expect(runData.traces.has('mbe_0')).toBe(false);
    expect(runData.traces.size).toBe(6);
    const report = await writeReport(dir);
    expect((report.json.sections as any).case).toBeDefined();
  }, 60_000);
});
