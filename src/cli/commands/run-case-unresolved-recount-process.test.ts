/**
 * A whole `run case` recounts: the built CLI (a child process) runs 3 Bar Exam items against an
 * OpenAI-compatible server on 127.0.0.1 whose advocates pick a mix of handles they were shown, an
 * unknown handle ("P999", once written twice), two handles in one pick ("P1, P2") and real passage
 * ids spelled out (the item's gold passage, which models never see). One advocate in four picks
 * nothing it was shown, so its picks are replaced by a compile call, whose first reply the schema
 * refuses (re-asked): neither the replaced picks nor the refused reply's count.
 *
 * The test recounts the citations naming no handle shown twice, independently of the run's own
 * figures: from what the server sent (the accepted reply of each advocate, by its hypothesis) and
 * from each item's trace (`advocates[].rejected`, reason "names no handle", `times`), and compares
 * both with results.jsonl's per-item `metrics.unresolvedCitations`, the `--json` metrics, report.json
 * and report.md.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPassages, loadQuestions } from '../../../corpora/registry.js';
import type { Passage, Question } from '../../../corpora/types.js';
import { buildIndex } from '../../../indexer/build.js';
import { runBuiltCli } from '../../../tests/support/run-built-cli.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer, type ScriptReply } from '../../../tests/support/scripted-openai-server.js';

const N = 3;
let dir: string;
let index: string;
let val: Question[];
let srv: ScriptedServer;
/** Per hypothesis (an option's text), the picks of the reply that stays the advocate's: its final reply, or its accepted compile reply. */
const accepted = new Map<string, string[]>();
/** Compile calls answered, per hypothesis: the first is refused by the schema (no evidence), the second accepted. */
const compileCalls = new Map<string, number>();

const text = (req: RecordedRequest) => (req.body.messages as { content?: unknown }[]).map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');

/** The item and option a hypothesis is (direct hypotheses: the option's text, trimmed). */
function optionOf(hypothesis: string): { item: number; option: number } {
  for (const [item, q] of val.entries()) {
    const option = q.choices.findIndex((c) => c.trim() === hypothesis);
    if (option >= 0) return { item, option };
  }
  throw new Error(`no option is the hypothesis ${JSON.stringify(hypothesis.slice(0, 80))}`);
}

function reply(req: RecordedRequest): ScriptReply {
  const all = text(req);
  if (/juror on a panel/.test(all)) return { json: { reasoning: 'weighing the evidence', vote: 'A' } };
  const compile = /this hypothesis:\n([\s\S]*?)\n\n/.exec(all);
  if (/compiling evidence/.test(all) && compile) {
    const hyp = compile[1].trim();
    const n = (compileCalls.get(hyp) ?? 0) + 1;
    compileCalls.set(hyp, n);
    if (n === 1) return { json: { evidence: [] } }; // refused (min 1), re-asked
    const first = /^(P\d+): /m.exec(all)![1];
    const picks = [first, 'P999'];
    accepted.set(hyp, picks);
    return { json: { analysis: 'compiled', evidence: picks.map((id) => ({ id, justification: 'from the list' })) } };
  }
  const task = (req.body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')?.content ?? '';
  const hyp = (task.split('Hypothesis to support:\n')[1] ?? '').trim();
  const tools = (req.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool');
  if (tools.length === 0) return { toolCalls: [{ name: 'bm25_search', args: { query: hyp.slice(0, 200), k: 4 } }] };
  const shown: string[] = tools.flatMap((m) => JSON.parse(m.content).results.map((r: { id: string }) => r.id));
  const { item, option } = optionOf(hyp);
  const gold = val[item].goldPassageIds[0];
  const picks = [
    [shown[0], shown[1], 'P999'],
    [shown[0], gold, 'P999', 'P999'],
    [shown[0], 'P1, P2', shown[1]],
    ['P999', gold], // nothing it was shown: a compile call replaces these picks
  ][(item + option) % 4];
  accepted.set(hyp, picks);
  return { content: JSON.stringify({ analysis: 'my picks', evidence: picks.map((id) => ({ id, justification: 'relevant' })) }) };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-unresolved-recount-'));
  index = join(dir, 'idx');
  val = (await loadQuestions('barexam', 'val')).slice(0, N);
  const gold = new Set(val.flatMap((q) => q.goldPassageIds));
  const passages: Passage[] = [];
  for await (const p of loadPassages('barexam')) if (gold.has(p.id)) passages.push(p);
  let n = 0;
  for await (const p of loadPassages('legal_corpus')) if (n++ < 200) passages.push(p);
  await buildIndex(passages, { out: index, corpusName: 'test', methods: ['bm25'], workers: 0 });
  srv = await startScriptedServer(reply);
}, 120_000);

afterAll(async () => {
  await srv?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A pick that names a handle shown ("P3"): the server's unknown handle is P999, and no item shows 999 passages. */
const namesHandle = (pick: string) => /^P\d+$/.test(pick) && pick !== 'P999';

describe('run case: the unresolved citations recounted from the server and from the traces', () => {
  it('results.jsonl, --json, report.json and report.md count each item as its traces and the accepted replies do', async () => {
    const runDir = join(dir, 'run');
    const r = await runBuiltCli(
      ['--json', 'run', 'case', '--index', index, '--limit', String(N), '--tools', 'bm25', '--k', '2', '--run-dir', runDir, '--no-cache'],
      { cwd: dir, env: { LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'scripted', LEXCASE_LLM_RETRY_BASE_MS: '1' }, timeoutMs: 240_000 },
    );
    expect(r.code, r.stderr).toBe(0);

    // from the server: per item, the accepted replies' picks naming no handle shown
    const fromServer = val.map(() => 0);
    for (const [hyp, picks] of accepted) fromServer[optionOf(hyp).item] += picks.filter((p) => !namesHandle(p)).length;
    expect(accepted.size).toBe(4 * N);
    expect([...compileCalls.values()].every((n) => n === 2)).toBe(true);
    expect(compileCalls.size).toBe([...Array(N).keys()].flatMap((i) => [0, 1, 2, 3].filter((o) => (i + o) % 4 === 3)).length);

    // from the traces: each advocate's dropped picks that name no handle, each as often as written
    const fromTraces = val.map((q) => {
      const trace = JSON.parse(readFileSync(join(runDir, 'traces', `${q.id}.json`), 'utf8'));
      return (trace.advocates as { rejected: { reason: string; times?: number }[] }[])
        .flatMap((a) => a.rejected)
        .filter((x) => x.reason === 'names no handle')
        .reduce((n, x) => n + (x.times ?? 1), 0);
    });
    expect(fromTraces).toEqual(fromServer);

    const results = readFileSync(join(runDir, 'results.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id: string; metrics: { unresolvedCitations: number } });
    const perItem = val.map((q) => results.find((x) => x.id === q.id)!.metrics.unresolvedCitations);
    expect(perItem).toEqual(fromServer);

    const want = { citations: fromServer.reduce((a, b) => a + b, 0), items: fromServer.filter((n) => n > 0).length };
    expect(want.citations).toBeGreaterThan(N);
    expect(JSON.parse(r.stdout).metrics.unresolvedCitations).toEqual(want);
    const report = JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8'));
    expect(report.sections.case.unresolvedCitations).toEqual(want);
    expect(readFileSync(join(runDir, 'report.md'), 'utf8')).toMatch(
      new RegExp(`\\| evidence cited as no passage handle shown \\(dropped from the evidence\\) +\\| ${want.citations} in ${want.items} items +\\|`),
    );
  }, 300_000);
});
