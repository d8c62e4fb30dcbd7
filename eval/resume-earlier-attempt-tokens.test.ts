/**
 * A run killed and resumed with the same cache dir: the resumed attempt is answered from the cache
 * for the replies the killed attempt paid for but did not record. Before, those hits counted 0
 * tokens and nothing else, so the run's token total dropped what it had spent (audit: 86,845 tokens
 * for a full MAD run, 61,474 after a kill and resume, "cache hits 6"). Now results.jsonl's
 * `tokens.earlierAttempts` holds their stored usage, and report.md and the summaries say so; hits on
 * entries an earlier, other run wrote add nothing to it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HumanMessage } from '@langchain/core/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { llmConfigSchema } from '../core/config.js';
import { createChatModel } from '../core/llm/factory.js';
import { loadQuestions } from '../corpora/registry.js';
import type { Question } from '../corpora/types.js';
import { startScriptedServer, type ScriptedServer } from '../tests/support/scripted-openai-server.js';
import { writeReport } from './report/write-report.js';
import { readResults } from './run-dir.js';
import { caseMetrics, caseMetricsMarkdown } from '../agents/case/metrics.js';
import { runSummary } from '../web/server/run-summary-api.js';
import { runTokensText } from './run-counts.js';
import { contextFrom, runExperiment } from './runner.js';
import { noteSentRequest } from './sent-journal.js';

let dir: string;
let srv: ScriptedServer;
let questions: Question[];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-earlier-attempt-'));
  srv = await startScriptedServer(() => ({ content: 'A', usage: { prompt_tokens: 900, completion_tokens: 100 } }));
  questions = (await loadQuestions('barexam', 'val')).slice(0, 3);
});
afterAll(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * `run baseline --mode llm-only` on the scripted server (`server`, default `srv`) with cache dir `cache`: one call per
 * item, or with `askTwice` two (the question, then "second: " and the question, whose reply is the prediction).
 */
const run = (runDir: string, cache: string, server: ScriptedServer = srv, askTwice = false, replayFrom?: string) => {
  const model = createChatModel(
    llmConfigSchema.parse({ baseUrl: server.url, model: 'scripted', cacheDir: cache, maxRetries: 0 }),
    replayFrom ? { replayFrom } : {},
  );
  return runExperiment({
    runDir,
    // the model the runner hands the item (its exchanges recorded in llm/, and served from them in a replay)
    system: async (q, ctx) => {
      const llm = ctx.llm!;
      if (askTwice) await llm.invoke([new HumanMessage(q.question)]);
      return { prediction: String((await llm.invoke([new HumanMessage(`${askTwice ? 'second: ' : ''}${q.question}`)])).content), trace: {} };
    },
    items: questions,
    gold: (q) => q.answer,
    makeContext: contextFrom({ llm: model }),
    config: { system: 'baseline', mode: 'llm-only', dataset: 'barexam', split: 'val', limit: 3 },
    seed: 13,
    // it stands in for `run baseline`: config.json records that writer, as the baseline's experiment does
    lexcaseSystem: 'baseline',
  });
};

/** A server that answers each request with 1,000 tokens, but refuses (HTTP 400, not retried) each "second: " request until `answer()`. */
async function startRefusingSeconds(): Promise<{ server: ScriptedServer; answer: () => void }> {
  let refuse = true;
  const server = await startScriptedServer((req) =>
    refuse && String(req.body.messages[0].content).startsWith('second: ')
      ? { status: 400, error: 'maximum context length exceeded' }
      : { content: 'A', usage: { prompt_tokens: 900, completion_tokens: 100 } },
  );
  return { server, answer: () => (refuse = false) };
}
const tokensOf = async (rd: string) => (await readResults(rd)).records.map((r) => r.tokens);

describe('tokens of a run killed and resumed with the same cache dir', () => {
  it('the cache hits the killed attempt paid for count in tokens.earlierAttempts, said in report.md and the summary; another run’s entries do not', async () => {
    const rd = join(dir, 'r1');
    const cache = join(dir, 'cache');
    await run(rd, cache);
    expect(srv.requests).toHaveLength(3);
    // killed after the 3 replies were cached but before items 2 and 3 were recorded
    const file = join(rd, 'results.jsonl');
    writeFileSync(file, `${readFileSync(file, 'utf8').split('\n')[0]}\n`);
    await run(rd, cache);
    expect(srv.requests).toHaveLength(3); // answered from the cache
    const t = await tokensOf(rd);
    expect(t[0]).toMatchObject({ total: 1000, cached: 0 });
    expect(t[0]?.earlierAttempts).toBeUndefined();
    // before: { total: 0, cached: 1 } and nothing else: the run's total said 1,000 of the 3,000 spent
    for (const x of t.slice(1)) expect(x).toMatchObject({ total: 0, calls: 1, cached: 1, earlierAttempts: 1000 });
    const { records } = await readResults(rd);
    expect(runTokensText(records, 0)).toBe(
      'tokens 1,000 (whole run; this call 0); 2 cache hits (no tokens; 2,000 tokens of them paid by an earlier attempt of this run, not in the total)',
    );
    await writeReport(rd);
    const md = readFileSync(join(rd, 'report.md'), 'utf8');
    expect(md).toMatch(/\| paid by an earlier attempt of this run \(cache hits; not in total\) \| 2,000 \| +666.7 \|/);
    expect(md).toContain('at least 3,000 tokens were spent on the run in all');

    // a new run over the same cache: its hits were paid for by another run, not by an earlier attempt of this one
    const other = join(dir, 'r2');
    await run(other, cache);
    for (const x of await tokensOf(other)) {
      expect(x).toMatchObject({ total: 0, cached: 1 });
      expect(x?.earlierAttempts).toBeUndefined();
    }
  }, 60_000);

  it("the replay of a killed-and-resumed run keeps its earlierAttempts and interrupts: results.jsonl byte for byte, report.md's rows (before: both dropped, and a warning blamed another lexcase's usage reading)", async () => {
    const rd = join(dir, 'r6');
    const cache = join(dir, 'cache6');
    await run(rd, cache);
    // killed while item 2 had sent a request (its journal line kept) and before items 2 and 3 were recorded
    const file = join(rd, 'results.jsonl');
    writeFileSync(file, `${readFileSync(file, 'utf8').split('\n')[0]}\n`);
    noteSentRequest(rd, questions[1].id);
    await run(rd, cache);
    const interrupts = JSON.parse(readFileSync(join(rd, 'config.json'), 'utf8')).interrupts;
    expect(interrupts).toMatchObject([{ signal: 'killed', items: 1, requests: 1 }]);
    const replayed = join(dir, 'r6-replay');
    await run(replayed, join(dir, 'cache6-replay'), srv, false, rd);
    expect(readFileSync(join(replayed, 'results.jsonl'), 'utf8')).toBe(readFileSync(file, 'utf8'));
    const copied = JSON.parse(readFileSync(join(replayed, 'config.json'), 'utf8')).interrupts;
    expect(copied).toEqual(interrupts.map((x: object) => ({ ...x, recording: true })));
    await writeReport(rd);
    await writeReport(replayed);
    const rows = (d: string) =>
      readFileSync(join(d, 'report.md'), 'utf8')
        .split('\n')
        .filter((l) => /paid by an earlier attempt|under way at an interrupt/.test(l));
    expect(rows(rd).length).toBeGreaterThanOrEqual(2);
    expect(rows(replayed)).toEqual(rows(rd));
  }, 60_000);

  it("a Ctrl-C that counted its items' replies (interrupts[].tokens), then a resume: the cache hits on those replies are not counted again in earlierAttempts (before: 660 in one row and 220 of them again in the next)", async () => {
    const rd = join(dir, 'r7');
    const cache = join(dir, 'cache7');
    await run(rd, cache);
    // stopped by SIGINT with items 2 and 3 under way, each answered (1,000 tokens) before the stop: the handler's entry
    const file = join(rd, 'results.jsonl');
    writeFileSync(file, `${readFileSync(file, 'utf8').split('\n')[0]}\n`);
    const cfgPath = join(rd, 'config.json');
    const cfg = JSON.parse(readFileSync(cfgPath, 'utf8'));
    writeFileSync(cfgPath, JSON.stringify({ ...cfg, interrupts: [{ signal: 'SIGINT', at: new Date().toISOString(), items: 2, requests: 2, tokens: 2000 }] }));
    await run(rd, cache);
    for (const x of (await tokensOf(rd)).slice(1)) {
      expect(x).toMatchObject({ total: 0, cached: 1 });
      expect(x?.earlierAttempts).toBeUndefined();
    }
    await writeReport(rd);
    const md = readFileSync(join(rd, 'report.md'), 'utf8');
    expect(md).toMatch(/\| tokens their answered requests reported \(spent by a stopped attempt; not in total\) \| 2,000 \|/);
    expect(md).not.toContain('paid by an earlier attempt');
  }, 60_000);

  it('a fully cached run says its 0 tokens are 3 cache hits: the CLI summaries and the explorer (before: no Tokens line, `tokens 0`, tokens 0 with no note)', async () => {
    const rd = join(dir, 'r2');
    const { records } = await readResults(rd);
    expect(runTokensText(records, 0)).toBe('tokens 0; 3 cache hits (no tokens)');
    expect(caseMetricsMarkdown(caseMetrics(records, new Map()))).toContain('Tokens: 0 total, 0.0 per item; 3 cache hits (no tokens).');
    const s = await runSummary({ id: 'r2', dir: rd, root: dir, kind: 'case', items: 3, correct: 0, graphs: 0 });
    expect(s).toMatchObject({ tokens: 0, cacheHits: 3, cacheNote: '3 cache hits (no tokens)' });
  });

  it('a failed item retried on resume: the cache hits on replies its failed attempt got count in replacedAttempts only, not also in earlierAttempts (before: 3,000 tokens in both, "paid by an earlier attempt … (killed)")', async () => {
    // each item asks twice; until `answer()`, the second request gets HTTP 400 (not retried) and fails the item
    const { server: flaky, answer } = await startRefusingSeconds();
    try {
      const rd = join(dir, 'r4');
      const cache = join(dir, 'cache4');
      const runTwice = () => run(rd, cache, flaky, true);
      await runTwice();
      expect((await tokensOf(rd)).map((t) => t?.total)).toEqual([1000, 1000, 1000]);
      answer();
      await runTwice(); // the resume retries the 3 failed items: each first request is a cache hit
      expect(flaky.requests).toHaveLength(9); // 3 + 3 refused + 3 second requests
      const { records } = await readResults(rd);
      for (const r of records) {
        expect(r.error).toBeUndefined();
        expect(r.tokens).toMatchObject({ total: 1000, calls: 2, cached: 1 });
        expect(r.tokens?.earlierAttempts).toBeUndefined(); // before: 1000, the same tokens as replacedAttempts'
        expect(r.replacedAttempts).toMatchObject({ attempts: 1, tokens: { total: 1000, calls: 1, refused: 1 } });
      }
      expect(runTokensText(records, 3000)).toBe(
        "tokens 3,000; plus 3,000 tokens (3 LLM calls) spent on 3 failed attempts a retry replaced (not in the total, which counts each item's recorded attempt); 3 cache hits (no tokens); 3 requests refused (an error instead of a reply after retries, e.g. HTTP 400; not in LLM calls)",
      );
      await writeReport(rd);
      const md = readFileSync(join(rd, 'report.md'), 'utf8');
      // the server answered 6 requests of 1,000 tokens: 6,000 spent in all, counted once
      expect(md).toContain('at least 6,000 tokens were spent in all');
      expect(md).not.toContain('paid by an earlier attempt');
    } finally {
      await flaky.close();
    }
  }, 60_000);

  it('a killed → failed → retried item: the cache hits its killed attempt paid for, kept only in replacedAttempts, are in report.md\'s "spent in all" (before: "at least 4,000" where the server answered 6,000)', async () => {
    // each item asks twice; until `answer()`, the second request gets HTTP 400 (not retried) and fails the item
    const { server: flaky, answer } = await startRefusingSeconds();
    try {
      const rd = join(dir, 'r5');
      const cache = join(dir, 'cache5');
      const attempt = () => run(rd, cache, flaky, true);
      await attempt(); // 3 first requests answered (and cached), 3 second ones refused
      // killed: items 2 and 3 were never recorded (their cached first replies were paid for)
      const file = join(rd, 'results.jsonl');
      writeFileSync(file, `${readFileSync(file, 'utf8').split('\n')[0]}\n`);
      await attempt(); // the resume: each first request a cache hit (items 2, 3: paid by the killed attempt), each second refused again
      answer();
      await attempt(); // the next resume retries the 3 failed items: answered
      // answered: 3 first requests of the killed attempt, 3 second requests of the last: 6,000 tokens; 3 + 3 + 3 refused
      expect(flaky.requests.filter((r) => !String(r.body.messages[0].content).startsWith('second: '))).toHaveLength(3);
      await writeReport(rd);
      const md = readFileSync(join(rd, 'report.md'), 'utf8');
      // before: 'at least 4,000 tokens were spent in all' (3,000 recorded + 1,000 replaced, without the killed attempt's 2,000)
      expect(md).toContain('at least 6,000 tokens were spent in all');
      expect(md).toContain('2,000 tokens of their cache hits paid by an earlier, stopped attempt of this run');
      // the killed attempt's 2,000 (items 2 and 3), kept in their replacedAttempts: report.json's sum over results.jsonl
      const json = JSON.parse(readFileSync(join(rd, 'report.json'), 'utf8')) as { sections: { tokens: { replacedAttempts: { earlierAttempts?: number } } } };
      expect(json.sections.tokens.replacedAttempts.earlierAttempts).toBe(2000);
    } finally {
      await flaky.close();
    }
  }, 60_000);

  it('a server that sends 3 choices per reply: the resume counts each cached reply once, 1,000 tokens, and says the replies carried 3 choices (before: 3,000 each, its usage summed over the choices)', async () => {
    const three = await startScriptedServer(() => ({ content: 'A', choices: 3, usage: { prompt_tokens: 900, completion_tokens: 100 } }));
    try {
      const rd = join(dir, 'r3');
      const cache = join(dir, 'cache3');
      await run(rd, cache, three);
      const file = join(rd, 'results.jsonl');
      writeFileSync(file, `${readFileSync(file, 'utf8').split('\n')[0]}\n`);
      await run(rd, cache, three);
      expect(three.requests).toHaveLength(3);
      const t = await tokensOf(rd);
      expect(t[0]).toMatchObject({ total: 1000, multiChoice: 1, choicesCarried: 3 });
      for (const x of t.slice(1)) expect(x).toMatchObject({ total: 0, cached: 1, earlierAttempts: 1000, multiChoice: 1, choicesCarried: 3 });
      const { records } = await readResults(rd);
      expect(runTokensText(records, 0)).toBe(
        'tokens 1,000 (whole run; this call 0); 2 cache hits (no tokens; 2,000 tokens of them paid by an earlier attempt of this run, not in the total); 3 replies carried 9 choices; the first of each was used',
      );
    } finally {
      await three.close();
    }
  }, 60_000);

  it('an attempt stopped before its first record (its config.json undone, its sent-requests file kept): the next run counts the replies it paid for in earlierAttempts (before: cache hits with no tokens, the run starting at the new attempt)', async () => {
    const rd = join(dir, 'r-first-stopped');
    const cache = join(dir, 'cache-first-stopped');
    const before = srv.requests.length;
    // the stopped attempt: item 1's request sent (journaled) and its reply cached, then a full disk before any line
    noteSentRequest(rd, questions[0].id);
    const model = createChatModel(llmConfigSchema.parse({ baseUrl: srv.url, model: 'scripted', cacheDir: cache, maxRetries: 0 }));
    await model.invoke([new HumanMessage(questions[0].question)]);
    expect(srv.requests.length - before).toBe(1);
    await new Promise((r) => setTimeout(r, 5)); // the next attempt starts after it, as a rerun does
    await run(rd, cache);
    expect(srv.requests.length - before).toBe(3); // item 1 from the cache, items 2 and 3 asked
    const t = await tokensOf(rd);
    expect(t[0]).toMatchObject({ total: 0, cached: 1, earlierAttempts: 1000 });
    const config = JSON.parse(readFileSync(join(rd, 'config.json'), 'utf8'));
    expect(config.interrupts).toMatchObject([{ signal: 'killed', items: 1, requests: 1 }]);
  }, 60_000);
});
