/**
 * Issue 36, item 1: a server that repeats completion ids and tool-call ids (some OpenAI-compatible
 * servers and proxies do) changes nothing. LangGraph's message reducer merges messages by id, so
 * before the client gave replies their own identity (core/llm/reply-ids.ts) a CASE advocate's
 * tool-call message was replaced by the next reply: tool calls and the final answer lost, an orphan
 * tool message sent next (OpenAI answers it HTTP 400; these servers do too), and the item still
 * counted as a success.
 *
 *  - The five systems run against the contract-fuzzing server twice, once with distinct ids and once
 *    with every completion and tool call under one id; the seed ignores ids, so the two runs get the
 *    same replies, and results.jsonl (less latencies) and every trace must be equal. The CASE run
 *    against the repeating server replays with no endpoint, byte for byte.
 *  - The built CLI as a user runs it: `lexcase run case`, `lexcase evidence` and MCP find_evidence
 *    (`lexcase mcp` over stdio) against a repeating server give what they give against a
 *    distinct-id one, and the advocate keeps all its tool calls and its final answer.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { describe, expect, it } from 'vitest';
import { readResults, readTrace } from '../eval/run-dir.js';
import { runBuiltCli, stdioMcp } from '../src/mcp/test-support/children.js';
import { contractFuzz, toolPairingProblem } from './support/contract-fuzz-server.js';
import { mixedIndexFixture, modelOn, runSystem, SYSTEMS } from './support/five-systems.js';
import { requestedSchema, startScriptedServer, type RecordedRequest, type ScriptReply } from './support/scripted-openai-server.js';

const N = 4;
const fx = mixedIndexFixture('repeated-ids', N);

/** A run's records (by id, less latencies) and traces (paths into the run dir made relative). */
async function outcome(runDir: string) {
  const records = (await readResults(runDir)).records.sort((a, b) => a.id.localeCompare(b.id));
  const traces: Record<string, unknown> = {};
  for (const r of records) {
    const t = (await readTrace(runDir, r.id)) as { runner?: { toolCalls?: unknown[] } } | undefined;
    // runner.toolCalls is the item's log in completion order: tool calls a model issues together run
    // in parallel, so their order there follows timing (each advocate's own toolCalls keep the model's
    // order). Compared as a multiset, so this test does not depend on machine load.
    if (t?.runner?.toolCalls) t.runner.toolCalls = t.runner.toolCalls.map((c) => JSON.stringify(c, (k, v) => (k === 'ms' ? undefined : v))).sort();
    traces[r.id] = t;
  }
  // exchangesSha256 is the digest of the replies as the server sent them, their ids included, so the
  // repeated-id run's differs by construction; that each line records one is checked here instead.
  for (const r of records) if ((r.tokens?.calls ?? 0) > 0) expect(r.exchangesSha256, r.id).toMatch(/^[0-9a-f]{64}$/);
  const results = records.map(({ ms: _ms, exchangesSha256: _digest, ...r }) => r);
  const text = JSON.stringify({ results, traces }, (k, v) => (k === 'ms' || k === 'startedAt' || k === 'at' ? undefined : v));
  return JSON.parse(text.split(JSON.stringify(runDir).slice(1, -1)).join('<run dir>'));
}

/** CASE advocates' tool calls and evidence over a run's traces. */
function advocateTotals(o: { traces: Record<string, any> }) {
  const advs = Object.values(o.traces).flatMap((t) => (t?.advocates ?? []) as { toolCalls: unknown[]; evidence: unknown[]; stop: string }[]);
  return {
    advocates: advs.length,
    toolCalls: advs.reduce((s, a) => s + a.toolCalls.length, 0),
    evidence: advs.reduce((s, a) => s + a.evidence.length, 0),
    final: advs.filter((a) => a.stop === 'final').length,
  };
}

describe('the five systems against a server that repeats completion and tool-call ids', () => {
  for (const system of SYSTEMS)
    it(`${system}: results and traces equal to the distinct-id run; no request refused`, async () => {
      type Outcome = { results: unknown[]; traces: Record<string, unknown> };
      const runs: Record<string, Outcome> = {};
      for (const repeatIds of [false, true]) {
        const fuzz = contractFuzz({ seed: 36, repeatIds });
        const srv = await startScriptedServer(fuzz);
        const runDir = join(fx.dir, `${system}-${repeatIds ? 'repeat' : 'distinct'}`);
        try {
          await runSystem(system, { llm: modelOn(srv.url), runDir, index: fx.index, n: N, concurrency: 2 });
        } finally {
          await srv.close();
        }
        expect(srv.requests.map(toolPairingProblem).filter(Boolean)).toEqual([]);
        runs[String(repeatIds)] = await outcome(runDir);
      }
      const [distinct, repeated] = [runs.false, runs.true];
      expect(distinct.results).toHaveLength(system === 'threeply' ? 2 * Math.ceil(N / 2) : N);
      if (system === 'case') {
        const d = advocateTotals(distinct);
        // eslint-disable-next-line no-console
        console.log(`CASE advocates, ${N} items, distinct ids: ${JSON.stringify(d)}; repeated ids: ${JSON.stringify(advocateTotals(repeated))}`);
        expect(d.toolCalls).toBeGreaterThan(d.advocates); // loops of several turns, so a merge would show
      }
      if (system === 'mad') {
        const requests = Object.values(distinct.traces).flatMap((t) =>
          ((t as any)?.rounds ?? []).flatMap((r: { briefs: { request?: unknown }[] }) => r.briefs.filter((b) => b.request)),
        );
        expect(requests.length).toBeGreaterThan(0); // snippet requests were made (tool calls under the repeated ids)
      }
      expect(repeated.results).toEqual(distinct.results);
      expect(repeated.traces).toEqual(distinct.traces);
      if (system === 'case') {
        // the advocates' run against the repeating server replays with no endpoint, byte for byte
        const recorded = join(fx.dir, `${system}-repeat`);
        const replayed = join(fx.dir, `${system}-replayed`);
        await runSystem(system, { llm: modelOn('http://127.0.0.1:9/v1', { replayFrom: recorded }), runDir: replayed, index: fx.index, n: N, concurrency: 2 });
        expect(readFileSync(join(replayed, 'results.jsonl'), 'utf8')).toBe(readFileSync(join(recorded, 'results.jsonl'), 'utf8'));
      }
    }, 300_000);
});

/**
 * An advocate that searches twice in one turn (bm25 and qld, two parallel calls), once more with
 * bm25, then selects the first two passages it saw (a compile call, if one comes, gets the first
 * two passages listed). `repeat`: every reply has one completion id and
 * every tool call one id. Tool messages that do not pair with the calls are refused (HTTP 400).
 */
function advocateScript(repeat: boolean) {
  let n = 0;
  return (req: RecordedRequest): ScriptReply => {
    const problem = toolPairingProblem(req);
    if (problem) return { status: 400, error: problem };
    const id = () => (repeat ? 'call_0' : `call_d${n++}`);
    // usage that does not count the ids, so both runs report the same tokens
    const ids = { usage: { prompt_tokens: 100 * req.body.messages.length, completion_tokens: 20 }, ...(repeat ? { completionId: 'chatcmpl-0' } : {}) };
    const tools = (req.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool');
    if (requestedSchema(req)) {
      // the compile call, made only when the loop ended without a parseable selection
      const listed = [...String(req.body.messages.at(-1).content).matchAll(/^(P\d+): /gm)].map((m) => m[1]);
      return { ...ids, json: { analysis: 'compiled after the loop', evidence: listed.slice(0, 2).map((p) => ({ id: p, justification: 'listed' })) } };
    }
    if (tools.length === 0)
      return {
        ...ids,
        toolCalls: [
          { name: 'bm25_search', args: { query: 'hearsay statement offered for its truth', k: null }, id: id() },
          { name: 'qld_search', args: { query: 'out-of-court statement declarant', k: null }, id: id() },
        ],
      };
    if (tools.length === 2) return { ...ids, toolCalls: [{ name: 'bm25_search', args: { query: 'hearsay exception against interest', k: null }, id: id() }] };
    const seen = tools.flatMap((m) => JSON.parse(m.content).results.map((x: { id: string }) => x.id));
    return {
      ...ids,
      content: JSON.stringify({ analysis: 'three searches', evidence: [...new Set(seen)].slice(0, 2).map((p) => ({ id: p, justification: 'on point' })) }),
    };
  };
}

const HYPOTHESIS = 'An out-of-court statement offered for its truth is hearsay';
const llmEnv = (url: string) => ({ LEXCASE_LLM_BASE_URL: url, LEXCASE_LLM_MODEL: 'scripted', LEXCASE_LLM_MAX_RETRIES: '0', NO_COLOR: '1' });

describe('the built CLI against a server that repeats ids', () => {
  it('lexcase evidence: the advocate keeps its 3 tool calls and its final selection, as against distinct ids', async () => {
    const out: Record<string, any> = {};
    for (const repeat of [false, true]) {
      const srv = await startScriptedServer(advocateScript(repeat));
      try {
        const r = await runBuiltCli(['--json', 'evidence', HYPOTHESIS, '--index', fx.index.dir, '--k', '3', '--max-steps', '5', '--no-cache'], {
          cwd: fx.dir,
          env: { ...llmEnv(srv.url), XDG_CACHE_HOME: join(fx.dir, 'cache-ev') },
        });
        expect(r.code, r.stderr.slice(-2000)).toBe(0);
        out[String(repeat)] = JSON.parse(r.stdout);
        expect(srv.requests).toHaveLength(3);
      } finally {
        await srv.close();
      }
    }
    const ev = out.true;
    expect({ mode: ev.mode, stop: ev.stop, toolCalls: ev.toolCalls.length, evidence: ev.evidence.length, error: ev.error }).toEqual({
      mode: 'llm',
      stop: 'final',
      toolCalls: 3,
      evidence: 2,
      error: undefined,
    });
    expect(ev.toolCalls.map((c: { ids: string[] }) => c.ids.length)).toEqual([expect.any(Number), expect.any(Number), expect.any(Number)]);
    expect(ev.toolCalls.every((c: { ids: string[] }) => c.ids.length > 0)).toBe(true);
    expect(ev.analysis).toBe('three searches');
    expect(ev).toEqual(out.false);
  }, 120_000);

  it('MCP find_evidence (lexcase mcp over stdio): the same selection and tool calls against repeated ids as against distinct ids', async () => {
    // one `lexcase mcp` process for both calls: its endpoint answers with distinct ids for the first
    // call, repeated ids for the second (the server, not the client, is what differs)
    const scripts = { false: advocateScript(false), true: advocateScript(true) };
    let repeat: 'false' | 'true' = 'false';
    const srv = await startScriptedServer((req) => scripts[repeat](req));
    const m = await stdioMcp(['--index', fx.index.dir, '--no-cache'], { cwd: fx.dir, env: llmEnv(srv.url) });
    const out: Record<string, any> = {};
    try {
      for (const r of ['false', 'true'] as const) {
        repeat = r;
        const before = srv.requests.length;
        out[r] = await call(m.client, 'find_evidence', { hypothesis: HYPOTHESIS, k: 3 });
        expect(srv.requests.length - before, r).toBe(3);
      }
    } finally {
      await m.close();
      await srv.close();
    }
    expect({ mode: out.true.mode, stop: out.true.stop, toolCalls: out.true.toolCalls.length, evidence: out.true.evidence.length }).toEqual({
      mode: 'llm',
      stop: 'final',
      toolCalls: 3,
      evidence: 2,
    });
    expect(out.true).toEqual(out.false);
  }, 120_000);

  it('lexcase run case: exit 0, results.jsonl (less latencies) and traces equal to the distinct-id run', async () => {
    const runs: Record<string, any> = {};
    for (const repeatIds of [false, true]) {
      const srv = await startScriptedServer(contractFuzz({ seed: 37, repeatIds }));
      const runDir = join(fx.dir, `cli-case-${repeatIds}`);
      try {
        const r = await runBuiltCli(
          [
            '--json',
            'run',
            'case',
            '--index',
            fx.index.dir,
            '--limit',
            '2',
            '--jurors',
            '3',
            '--max-steps',
            '4',
            '--k',
            '3',
            '--run-dir',
            runDir,
            '--no-cache',
          ],
          { cwd: fx.dir, env: { ...llmEnv(srv.url), XDG_CACHE_HOME: join(fx.dir, 'cache-run') } },
        );
        expect(r.code, r.stderr.slice(-2000)).toBe(0);
      } finally {
        await srv.close();
      }
      expect(srv.requests.map(toolPairingProblem).filter(Boolean)).toEqual([]);
      runs[String(repeatIds)] = await outcome(runDir);
      expect(readFileSync(join(runDir, 'results.jsonl'), 'utf8').trim().split('\n')).toHaveLength(2);
    }
    // eslint-disable-next-line no-console
    console.log(
      `lexcase run case, 2 items, CASE advocates: distinct ids ${JSON.stringify(advocateTotals(runs.false))}; repeated ids ${JSON.stringify(advocateTotals(runs.true))}`,
    );
    expect(advocateTotals(runs.false).toolCalls).toBeGreaterThan(0);
    expect(runs.true).toEqual(runs.false);
  }, 180_000);
});

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, any>> {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(JSON.stringify(r.content));
  return r.structuredContent as Record<string, any>;
}
