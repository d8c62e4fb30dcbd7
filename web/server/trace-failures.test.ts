/**
 * The JSON the explorer's trace view reads keeps what a run records about a failed step: the trace
 * endpoint (runTrace) passes a CASE advocate's `error` and `raw` and MAD's `refused` through, and
 * the LLM-call inspector's calls from a trace (runCalls, a run without recorded exchanges) give the
 * advocate's unusable reply as its reply and each refused snippet request as a tool call with its
 * reason. Before, the inspector showed that advocate with "no reply" and the debaters' refused
 * requests not at all.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEXT_TOOL_CALL_HINT } from '../../agents/common/text-tool-call.js';
import {
  ADVOCATE_ERROR,
  ADVOCATE_RAW,
  CASE_ITEM,
  caseFailureTrace,
  MAD_ITEM,
  MAD_REFUSED,
  madFailureTrace,
  RECORDED_HINT,
} from '../test-support/failure-traces.js';
import { runTrace } from './case-run-api.js';
import { runCalls } from './llm-calls-api.js';
import { findRun } from './runs.js';
import '../../agents/systems.js'; // the system list: CASE's trace schema, MAD's trace kind

const root = mkdtempSync(join(tmpdir(), 'lexcase-trace-failures-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function runDir(id: string, system: string, item: { id: string; prediction: string; gold: string; ms: number; confidence?: string }, trace: object) {
  const dir = join(root, id);
  mkdirSync(join(dir, 'traces'), { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ seed: 13, config: { system }, provenance: { createdAt: '2026-01-01T00:00:00.000Z' } }));
  const tokens = { input: 5210, output: 640, total: 5850, calls: 7, cached: 0 };
  writeFileSync(join(dir, 'results.jsonl'), `${JSON.stringify({ ...item, correct: item.prediction === item.gold, tokens })}\n`);
  writeFileSync(join(dir, 'traces', `${item.id}.json`), JSON.stringify(trace));
}
runDir('caseRaw', 'case', CASE_ITEM, caseFailureTrace);
runDir('madRefused', 'mad', MAD_ITEM, madFailureTrace);

const noPassage = async () => undefined;

describe('trace JSON: the failed steps a run records reach the trace view', () => {
  it('the fixture traces hold the hint the agents write (agents/common/text-tool-call.ts)', () => {
    expect(RECORDED_HINT).toBe(TEXT_TOOL_CALL_HINT);
  });

  it("CASE: the trace keeps advocate A's error and raw reply; its call in the inspector has that reply and the error", async () => {
    const run = await findRun(root, 'caseRaw');
    const r = await runTrace(run, CASE_ITEM.id, noPassage);
    expect(r.traceProblem).toBeNull();
    expect(r.traceKind).toBe('case');
    expect((r.trace as typeof caseFailureTrace).advocates[0]).toMatchObject({ error: ADVOCATE_ERROR, raw: ADVOCATE_RAW });
    const { source, calls } = await runCalls(run, CASE_ITEM.id);
    expect(source).toBe('trace');
    const a = calls.find((c) => c.stage === 'advocate A')!;
    expect(a.reply).toBe(ADVOCATE_RAW); // before: null ("no reply")
    expect(a.error).toBe(ADVOCATE_ERROR);
    expect(calls.find((c) => c.stage === 'advocate B')!.reply).toContain('caselaw_4411');
  });

  it("MAD: the trace keeps each brief's refused requests; the inspector lists them as tool calls with the reason", async () => {
    const run = await findRun(root, 'madRefused');
    const r = await runTrace(run, MAD_ITEM.id, noPassage);
    expect(r.traceKind).toBe('mad');
    const round2 = (r.trace as typeof madFailureTrace).rounds[1].briefs as { letter: string; refused?: unknown }[];
    expect(round2.map((b) => b.refused)).toEqual([undefined, MAD_REFUSED.B, MAD_REFUSED.C, MAD_REFUSED.D]);
    const { calls } = await runCalls(run, MAD_ITEM.id);
    const tools = (letter: string) => calls.find((c) => c.stage === `debater ${letter} · round 2`)!.toolCalls;
    expect(tools('A')).toBeUndefined();
    expect(tools('B')).toEqual([
      { name: 'bm25_search', args: { query: 'party impeach own witness credibility' } },
      { name: 'bm25_search', args: { refused: 'one snippet per round' } },
    ]);
    expect(tools('C')).toEqual([{ name: 'web_search', args: { refused: 'not a tool offered this round' } }]);
    expect(tools('D')).toEqual([{ name: 'bm25_search', args: { refused: MAD_REFUSED.D[0].reason } }]);
  });
});
