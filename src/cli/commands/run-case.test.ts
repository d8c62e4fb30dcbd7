/**
 * `lexcase run case|baseline` and `lexcase evidence` in-process on a small real index (gold passages
 * of the first val questions + legal_corpus distractors): offline runs, resume after an
 * interruption, the no-LLM stop, and LLM runs through the real OpenAI client against the scripted
 * server (CASE advocates + jury; baselines incl. the gold-leak check against the oracle).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadPassages, loadQuestions } from '../../../corpora/registry.js';
import type { Passage, Question } from '../../../corpora/types.js';
import { buildIndex } from '../../../indexer/build.js';
import { closeSparseIndexes } from '../../../retrieval/open.js';
import { startScriptedServer, type RecordedRequest, type ScriptReply } from '../../../tests/support/scripted-openai-server.js';
import { runCli } from '../../../tests/support/run-cli.js';
import { registerReportSection } from '../../../eval/report/registry.js';
import { lockRunDir } from '../../../eval/run-dir-guard.js';
import { PACKAGE_ROOT } from '../../../core/version.js';

const cli = (...args: string[]) => runCli(args);

const LLM_VARS = ['LEXCASE_LLM_BASE_URL', 'OPENAI_BASE_URL', 'LEXCASE_LLM_MODEL', 'LEXCASE_LLM_API_KEY', 'OPENAI_API_KEY'];
let dir: string;
let index: string;
let val: Question[];
let goldText: Map<string, string>;
/** Every indexed passage's text by id. */
const indexedText = new Map<string, string>();

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-run-case-'));
  index = join(dir, 'idx');
  val = (await loadQuestions('barexam', 'val')).slice(0, 4);
  const gold = new Set(val.flatMap((q) => q.goldPassageIds));
  const passages: Passage[] = [];
  goldText = new Map();
  for await (const p of loadPassages('barexam')) if (gold.has(p.id)) passages.push(p), goldText.set(p.id, p.text);
  let n = 0;
  for await (const p of loadPassages('legal_corpus')) if (n++ < 300) passages.push(p);
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: index, corpusName: 'test', workers: 0 },
  );
  for (const p of passages) indexedText.set(p.id, p.text);
}, 60_000);

afterAll(async () => {
  await closeSparseIndexes();
  rmSync(dir, { recursive: true, force: true });
});

afterEach(() => vi.unstubAllEnvs());

const noLlm = () => LLM_VARS.forEach((v) => vi.stubEnv(v, undefined as unknown as string));
const lines = (f: string) => readFileSync(f, 'utf8').split('\n').filter(Boolean);

describe('lexcase run case --offline', () => {
  it('runs, writes results + traces + metrics, and resumes only the missing items after an interruption', async () => {
    noLlm();
    const runDir = join(dir, 'run-offline');
    const r1 = await cli('--json', 'run', 'case', '--offline', '--index', index, '--limit', '4', '--run-dir', runDir);
    expect(r1.code).toBe(0);
    const j1 = JSON.parse(r1.stdout);
    expect(j1).toMatchObject({ ran: 4, skipped: 0, failed: 0 });
    expect(j1.metrics.label).toBe('offline heuristic, no LLM');
    expect(j1.metrics.evidenceRecall.goldEverReturned.n).toBe(4);
    expect(lines(join(runDir, 'results.jsonl'))).toHaveLength(4);
    const trace = JSON.parse(readFileSync(join(runDir, 'traces', `${val[0].id}.json`), 'utf8'));
    expect(trace.mode).toBe('offline heuristic, no LLM');
    // the learned evidence selector (default): the option's queries (hypothesis first) through bm25 and qld
    expect(trace.evidenceSelection).toMatch(/learned evidence selector/);
    expect(trace.advocates[0].toolCalls.slice(0, 2).map((c: any) => c.tool)).toEqual(['bm25_search', 'qld_search']);
    expect(trace.advocates[0].toolCalls[0].query).toBe(trace.advocates[0].hypothesis);
    expect(JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')).config.evidence).toBe('learned');
    // --evidence plan: the query plan alone (hypothesis, key terms, facts + hypothesis, each through bm25)
    const planDir = join(dir, 'run-offline-plan');
    expect((await cli('--json', 'run', 'case', '--offline', '--evidence', 'plan', '--index', index, '--limit', '1', '--run-dir', planDir)).code).toBe(0);
    const planTrace = JSON.parse(readFileSync(join(planDir, 'traces', `${val[0].id}.json`), 'utf8'));
    expect(planTrace.advocates[0].toolCalls.map((c: any) => c.tool)).toEqual(['bm25_search', 'bm25_search', 'bm25_search']);
    expect(planTrace.evidenceSelection).toBe('query plan');
    expect(readFileSync(join(runDir, 'report.md'), 'utf8')).toContain('## CASE metrics (offline heuristic, no LLM)');

    // interrupt: keep the first result and half of the second line (a crash mid-write)
    const kept = lines(join(runDir, 'results.jsonl'));
    writeFileSync(join(runDir, 'results.jsonl'), kept[0] + '\n' + kept[1].slice(0, 20));
    const r2 = await cli('--json', 'run', 'case', '--offline', '--index', index, '--limit', '4', '--run-dir', runDir);
    expect(r2.code).toBe(0);
    expect(JSON.parse(r2.stdout)).toMatchObject({ ran: 3, skipped: 1 });
    const after = lines(join(runDir, 'results.jsonl')).map((l) => JSON.parse(l));
    expect(after.map((x) => x.id).sort()).toEqual(val.map((q) => q.id).sort());
    expect(after.find((x) => x.id === val[0].id)).toEqual(JSON.parse(kept[0])); // kept as it was, not rerun
  }, 60_000);

  it("records the Bar Exam QA file's path and sha256 in config.json (as LegalBench runs do), said in report.md and checked on resume (before: item checksums only)", async () => {
    noLlm();
    const runDir = join(dir, 'run-offline-datafile');
    const args = ['run', 'case', '--offline', '--index', index, '--run-dir', runDir];
    expect((await cli(...args, '--limit', '1')).code).toBe(0);
    // the sha256 corpora/data/SHA256SUMS lists for the file (of its decompressed content)
    const sums = readFileSync(join(PACKAGE_ROOT, 'corpora', 'data', 'SHA256SUMS'), 'utf8');
    const sha256 = /^([0-9a-f]{64}) {2}barexam\/qa\.jsonl\.gz$/m.exec(sums)![1];
    const cfgFile = join(runDir, 'config.json');
    const cfg = JSON.parse(readFileSync(cfgFile, 'utf8'));
    expect(cfg.config.dataFiles).toEqual({ val: { dataset: 'barexam', split: 'val', source: 'bundled', file: 'corpora/data/barexam/qa.jsonl.gz', sha256 } });
    expect(readFileSync(join(runDir, 'report.md'), 'utf8')).toContain(
      `- **data file (val)**: barexam val: bundled corpora/data/barexam/qa.jsonl.gz, sha256 ${sha256}`,
    );
    // a run dir that read another file (its sha256 differs) is refused on resume, naming both
    cfg.config.dataFiles.val.sha256 = '0'.repeat(64);
    writeFileSync(cfgFile, JSON.stringify(cfg));
    const refused = await cli(...args, '--limit', '2');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      `read barexam val from bundled corpora/data/barexam/qa.jsonl.gz (sha256 0000000000000000…), the command now reads bundled corpora/data/barexam/qa.jsonl.gz (sha256 ${sha256.slice(0, 16)}…)`,
    );
  }, 60_000);

  it('the printed metrics and the report name the evidence selection the run used: an index without a dense part gets the selector without dense signals, and says why', async () => {
    // Which selector model runs follows from the index (the default one is the cwd's
    // .lexcase/demo/index, which gains a dense part when `lexcase demo` runs there), and the two
    // models' figures differ: the summary a user reads must say which one made them.
    noLlm();
    const runDir = join(dir, 'run-offline-selection');
    const r = await cli('run', 'case', '--offline', '--index', index, '--limit', '2', '--run-dir', runDir);
    expect(r.code, r.stderr).toBe(0);
    const line =
      'Evidence: learned evidence selector (trained on the train split) — without the dense and phrase signals: the index has no exact use-lite dense part';
    expect(r.stdout).toContain(line);
    expect(readFileSync(join(runDir, 'report.md'), 'utf8')).toContain(line);
    const j = JSON.parse((await cli('--json', 'run', 'case', '--offline', '--index', index, '--limit', '2', '--run-dir', runDir)).stdout);
    expect(j.metrics.evidenceSelection).toBe('learned evidence selector (trained on the train split)');
    // --tools leaves the learned selector out (it needs bm25 + qld and no --tools): the query plan, said so
    const tools = await cli('run', 'case', '--offline', '--tools', 'bm25', '--index', index, '--limit', '1', '--run-dir', join(dir, 'run-offline-tools'));
    expect(tools.code, tools.stderr).toBe(0);
    expect(tools.stdout).toContain('Evidence: query plan.');
  }, 60_000);

  it('config.json records the evidence selection that ran: --tools runs the query plan and records "plan" (was "learned"); an older run dir that recorded "learned" resumes with a warning', async () => {
    noLlm();
    const learned = join(dir, 'run-offline-evidence-learned');
    expect((await cli('run', 'case', '--offline', '--index', index, '--limit', '1', '--run-dir', learned)).code).toBe(0);
    expect(JSON.parse(readFileSync(join(learned, 'config.json'), 'utf8')).config.evidence).toBe('learned');
    const runDir = join(dir, 'run-offline-evidence-plan');
    const args = ['run', 'case', '--offline', '--tools', 'bm25', '--index', index, '--run-dir', runDir];
    const r = await cli(...args, '--limit', '1');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('Evidence: query plan.');
    const cfgFile = join(runDir, 'config.json');
    const cfg = JSON.parse(readFileSync(cfgFile, 'utf8'));
    expect(cfg.config.evidence).toBe('plan');
    // a run dir an older lexcase wrote recorded "learned" while the query plan ran: its resume goes on, saying so
    cfg.config.evidence = 'learned';
    writeFileSync(cfgFile, JSON.stringify(cfg));
    const resumed = await cli(...args, '--limit', '2');
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain('does not record evidence (the evidence selection that ran: an older lexcase recorded "learned" where the query plan ran');
    const after = JSON.parse(readFileSync(cfgFile, 'utf8'));
    expect(after.config.evidence).toBe('plan');
    expect(after.resumes.at(-1).unchecked).toEqual(['evidence']);
  }, 60_000);

  it("writes report.md before it unlocks the run dir: a resume waiting for the lock sees this run's report, not the one before it", async () => {
    noLlm();
    const runDir = join(dir, 'run-offline-report-locked');
    // what a resume finds while report.md is being built: before, the lock was already released (its lockRunDir succeeded)
    const found: string[] = [];
    registerReportSection(
      'test-lock-probe',
      (run) => {
        if (resolve(run.dir) !== resolve(runDir)) return null;
        try {
          lockRunDir(run.dir, 'a resume').release();
          found.push('unlocked');
        } catch (e) {
          found.push((e as Error).message.includes('run case') ? 'locked by run case' : String(e));
        }
        return null;
      },
      { systems: ['case'] },
    );
    for (const limit of ['1', '2']) {
      const r = await cli('run', 'case', '--offline', '--index', index, '--limit', limit, '--run-dir', runDir);
      expect(r.code, r.stderr).toBe(0);
    }
    expect(found).toEqual(['locked by run case', 'locked by run case']);
    expect(readFileSync(join(runDir, 'report.md'), 'utf8')).toContain('- **items in results**: 2');
    expect(existsSync(join(runDir, 'run.lock'))).toBe(false);
    // a report that fails still unlocks the run dir (the items kept): the next resume is not refused as locked
    registerReportSection(
      'test-lock-probe',
      (run) => {
        if (resolve(run.dir) === resolve(runDir)) throw new Error('the report section failed');
        return null;
      },
      { systems: ['case'] },
    );
    const bad = await cli('run', 'case', '--offline', '--index', index, '--limit', '3', '--run-dir', runDir);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('the report section failed');
    expect(existsSync(join(runDir, 'run.lock'))).toBe(false);
    expect(lines(join(runDir, 'results.jsonl'))).toHaveLength(3);
    registerReportSection('test-lock-probe', () => null, { systems: ['case'] });
    const again = await cli('run', 'case', '--offline', '--index', index, '--limit', '3', '--run-dir', runDir);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('3 of 3 items already done');
  }, 60_000);

  it('without an LLM and without --offline, LLM modes stop at once with how to configure one', async () => {
    noLlm();
    for (const args of [
      ['run', 'case'],
      ['run', 'baseline', '--mode', 'llm-only'],
    ]) {
      const runDir = join(dir, `never-${args.length}`);
      const r = await cli(...args, '--index', index, '--run-dir', runDir);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/no endpoint is configured/);
      expect(r.stderr).toMatch(/LEXCASE_LLM_BASE_URL/);
      expect(existsSync(runDir)).toBe(false);
    }
  });

  it('settings the index or mode cannot serve stop before the run starts', async () => {
    noLlm();
    const runDir = join(dir, 'never-bad');
    const a = await cli('run', 'case', '--offline', '--hypotheses', 'exploratory', '--index', index, '--run-dir', runDir);
    expect(a.code).toBe(1);
    expect(a.stderr).toMatch(/exploratory needs an LLM/);
    const b = await cli('run', 'case', '--offline', '--tools', 'dense', '--index', index, '--run-dir', runDir);
    expect(b.code).toBe(1);
    expect(b.stderr).toMatch(/none of the retrievers dense is available \(index has: bm25, qld\)/);
    expect(existsSync(runDir)).toBe(false);
  });

  it('run case --offline refuses --jurors / --max-steps / --max-tokens, which it ignored (config.json recorded the typed --max-tokens as in force)', async () => {
    noLlm();
    const runDir = join(dir, 'never-offline-llm-flags');
    const r = await cli('run', 'case', '--offline', '--jurors', '2', '--max-tokens', '50', '--limit', '1', '--index', index, '--run-dir', runDir);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--jurors, --max-tokens: the offline heuristic \(--offline\) has no jury and makes no model call/);
    expect(existsSync(runDir)).toBe(false);
    // --model / --endpoint beside --offline: run, and said not to be read (before: no word)
    const m = await cli(
      'run',
      'case',
      '--offline',
      '--model',
      'foo',
      '--endpoint',
      'http://127.0.0.1:9/v1',
      '--limit',
      '1',
      '--index',
      index,
      '--run-dir',
      runDir,
    );
    expect(m.code, m.stderr).toBe(0);
    expect(m.stderr).toContain('[warn] --endpoint, --model are not read: --offline runs the heuristic, which asks no LLM (config.json records no model)');
  });

  it('lexcase evidence --offline prints passages, justifications and tool calls, and says when it returns fewer than k', async () => {
    noLlm();
    const q = val[0];
    const r = await cli('evidence', q.choices[0], '--question', q.id, '--index', index, '--offline', '-k', '3');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Evidence for: /);
    expect(r.stdout).toContain('(offline heuristic, no LLM)');
    expect(r.stdout.match(/^ {1,2}\d\. \S+ {2}score /gm)).toHaveLength(3);
    expect(r.stdout).toMatch(/Tool calls \(3\):\n {2}bm25_search: /);
    // fewer passages than -k: said on stderr and in --json, with the reason (each search fetches 100 hits)
    const many = await cli('--json', 'evidence', q.choices[0], '--question', q.id, '--index', index, '--offline', '-k', '300');
    expect(many.code).toBe(0);
    const j = JSON.parse(many.stdout);
    expect(j.evidence.length).toBeLessThan(300);
    expect(j.shortfall).toEqual({ k: 300, returned: j.evidence.length, reason: expect.stringMatching(/the top 100 hits of each/) });
    expect(many.stderr).toContain(
      `[warn] ${j.evidence.length} of the 300 passages asked for: the offline advocate ranks only the passages its 3 searches returned`,
    );
    const enough = await cli('--json', 'evidence', q.choices[0], '--question', q.id, '--index', index, '--offline', '-k', '3');
    expect(JSON.parse(enough.stdout).shortfall).toBeUndefined();
    expect(enough.stderr).not.toMatch(/\[warn\]/);
    const bad = await cli('evidence', 'x', '--facts', 'a', '--question', q.id, '--index', index, '--offline');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--facts or --question, not both/);
  });
});

function useScriptedLlm(url: string) {
  noLlm();
  vi.stubEnv('LEXCASE_LLM_BASE_URL', url);
  vi.stubEnv('LEXCASE_LLM_MODEL', 'scripted');
  vi.stubEnv('LEXCASE_LLM_RETRY_BASE_MS', '1');
}

const body = (req: RecordedRequest) => JSON.stringify(req.body.messages);
/** Jurors vote A; an advocate searches bm25 once, then cites the first two passages it got. */
const oneSearchThenEvidence = (req: RecordedRequest): ScriptReply => {
  if (/juror on a panel/.test(body(req))) return { content: JSON.stringify({ reasoning: 'step by step', vote: 'A' }) };
  const toolMsgs = (req.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool');
  if (toolMsgs.length === 0) return { toolCalls: [{ name: 'bm25_search', args: { query: 'negligence duty of care' } }] };
  const ids = toolMsgs.flatMap((m) => JSON.parse(m.content).results.map((x: { id: string }) => x.id));
  return { content: JSON.stringify({ evidence: ids.slice(0, 2).map((id: string) => ({ id, justification: 'relevant rule' })) }) };
};

describe('lexcase run case|baseline with an LLM (scripted OpenAI-compatible server)', () => {
  it('run case with an LLM refuses --evidence, which only the offline heuristic reads (it was accepted, ignored and recorded nowhere)', async () => {
    const srv = await startScriptedServer(() => ({ content: '{}' }));
    try {
      useScriptedLlm(srv.url);
      const runDir = join(dir, 'never-llm-evidence');
      const r = await cli('run', 'case', '--evidence', 'plan', '--index', index, '--limit', '1', '--run-dir', runDir, '--no-cache');
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /--evidence plan: it chooses the offline heuristic's evidence selection \(--offline\); with an LLM the advocates choose their evidence/,
      );
      expect(srv.requests.filter((q) => q.path.includes('chat')).length).toBe(0);
      expect(existsSync(runDir)).toBe(false);
    } finally {
      await srv.close();
    }
  });

  it('run case: advocates call the index tools, three jurors vote, tool calls and tokens land in the run', async () => {
    const srv = await startScriptedServer((req): ScriptReply => {
      if (/juror on a panel/.test(body(req))) return { content: JSON.stringify({ reasoning: 'step by step', vote: 'A' }) };
      const toolMsgs = (req.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool');
      if (toolMsgs.length === 0) return { toolCalls: [{ name: 'bm25_search', args: { query: 'negligence duty of care', k: 4 } }] };
      if (toolMsgs.length === 1) return { toolCalls: [{ name: 'qld_search', args: { query: 'proximate cause' } }] };
      const ids = toolMsgs.flatMap((m) => JSON.parse(m.content).results.map((x: { id: string }) => x.id));
      return { content: JSON.stringify({ evidence: ids.slice(0, 2).map((id: string) => ({ id, justification: 'relevant rule' })) }) };
    });
    try {
      useScriptedLlm(srv.url);
      const runDir = join(dir, 'run-llm');
      const r = await cli('--json', 'run', 'case', '--index', index, '--limit', '1', '--tools', 'bm25,qld', '--run-dir', runDir, '--no-cache');
      expect(r.stderr).not.toMatch(/error/i);
      expect(r.code).toBe(0);
      const j = JSON.parse(r.stdout);
      expect(j).toMatchObject({ ran: 1, failed: 0 });
      expect(j.metrics.tools.calls).toEqual({ bm25_search: 4, qld_search: 4 });
      expect(j.metrics.byConfidence.high.n).toBe(1);
      const q = val[0];
      const trace = JSON.parse(readFileSync(join(runDir, 'traces', `${q.id}.json`), 'utf8'));
      expect(trace.panel).toHaveLength(3);
      expect(trace.verdict).toMatchObject({ answer: 'A', confidence: 'high' });
      expect(trace.runner.toolCalls).toHaveLength(8); // the runner's recorder saw the same calls
      expect(trace.runner.tokens.total).toBeGreaterThan(0);
      expect(srv.requests.length).toBe(4 * 3 + 3);
      expect(srv.requests[0].body.tools.map((t: any) => t.function.name)).toEqual(['bm25_search', 'qld_search']);
      const config = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8'));
      expect(config.config).toMatchObject({ system: 'case', mode: 'llm', jurors: 3, k: 5 });
      // the jurors read each evidence passage to 1,200 characters: each one cut is marked, and report.md counts them
      const evidence = (trace.advocates as { evidence: { id: string; cutFrom?: number }[] }[]).flatMap((a) => a.evidence);
      expect(evidence.length).toBeGreaterThan(0);
      const length = (id: string) => indexedText.get(id)!.replace(/\s+/g, ' ').length;
      for (const e of evidence) expect([e.id, e.cutFrom]).toEqual([e.id, length(e.id) > 1200 ? length(e.id) : undefined]);
      const jurorPrompt = JSON.stringify(srv.requests.find((q) => /juror on a panel/.test(body(q)))!.body.messages);
      for (const e of evidence)
        expect([e.id, jurorPrompt.includes(JSON.stringify(indexedText.get(e.id)!.replace(/\s+/g, ' ')).slice(1, -1))]).toEqual([e.id, e.cutFrom === undefined]);
      const cut = evidence.filter((e) => e.cutFrom !== undefined).length;
      const report = readFileSync(join(runDir, 'report.md'), 'utf8');
      expect(report).toContain(
        cut
          ? `**${cut} of ${evidence.length} evidence passages** (in 1 of 1 items) **were cut to their first 1,200 characters** in the jurors' case file`
          : `All ${evidence.length} evidence passages of 1 item were shown whole to the jurors (none longer than 1,200 characters).`,
      );
    } finally {
      await srv.close();
    }
  }, 60_000);

  it('run case --k 2: an advocate that picks 4 passages keeps 2; the 2 beyond k are listed in the trace with the reason and counted in results, --json metrics and report.md; a pick written again is listed as picked again (before: left out unlisted)', async () => {
    const srv = await startScriptedServer((req): ScriptReply => {
      if (/juror on a panel/.test(body(req))) return { content: JSON.stringify({ reasoning: 'step by step', vote: 'A' }) };
      const toolMsgs = (req.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool');
      if (toolMsgs.length === 0) return { toolCalls: [{ name: 'bm25_search', args: { query: 'negligence duty of care', k: 4 } }] };
      const ids = toolMsgs.flatMap((m) => JSON.parse(m.content).results.map((x: { id: string }) => x.id));
      return { content: JSON.stringify({ evidence: [...ids.slice(0, 4), ids[0], 'P999'].map((id: string) => ({ id, justification: 'relevant rule' })) }) };
    });
    try {
      useScriptedLlm(srv.url);
      const runDir = join(dir, 'run-llm-beyond-k');
      const r = await cli('--json', 'run', 'case', '--index', index, '--limit', '1', '--tools', 'bm25', '--k', '2', '--run-dir', runDir, '--no-cache');
      expect(r.code, r.stderr).toBe(0);
      const trace = JSON.parse(readFileSync(join(runDir, 'traces', `${val[0].id}.json`), 'utf8'));
      const advocates = trace.advocates as {
        evidence: { id: string }[];
        toolCalls: { ids: string[] }[];
        rejected: { id: string; reason: string }[];
        rejectedIds: string[];
      }[];
      expect(advocates).toHaveLength(4);
      for (const a of advocates) {
        const returned = a.toolCalls[0].ids;
        expect(a.evidence.map((e) => e.id)).toEqual(returned.slice(0, 2));
        expect(a.rejected).toEqual([
          { id: returned[2], reason: 'beyond k' },
          { id: returned[3], reason: 'beyond k' },
          { id: returned[0], reason: 'picked again' },
          { id: 'P999', reason: 'names no handle' },
        ]);
        expect(a.rejectedIds).toEqual([returned[2], returned[3], returned[0], 'P999']);
      }
      // counted where the picks naming no handle shown are: results.jsonl, the CLI's metrics, report.md's table
      expect(JSON.parse(lines(join(runDir, 'results.jsonl'))[0]).metrics).toMatchObject({ picksBeyondK: 8, unresolvedCitations: 4 });
      expect(JSON.parse(r.stdout).metrics).toMatchObject({ picksBeyondK: { picks: 8, items: 1 }, unresolvedCitations: { citations: 4, items: 1 } });
      const report = readFileSync(join(runDir, 'report.md'), 'utf8');
      expect(report).toMatch(/\| advocate picks beyond k \(dropped from the evidence\) +\| 8 in 1 item +\|/);
    } finally {
      await srv.close();
    }
  }, 60_000);

  it("run case: an advocate's note longer than 300 characters is cut for the jurors, its length kept in the trace (noteCutFrom) and counted in report.md", async () => {
    const long = `The voucher rule ${'bars a party from impeaching its own witness '.repeat(10)}end.`; // 461 characters
    const srv = await startScriptedServer((req): ScriptReply => {
      if (/juror on a panel/.test(body(req))) return { content: JSON.stringify({ reasoning: 'step by step', vote: 'A' }) };
      const toolMsgs = (req.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool');
      if (toolMsgs.length === 0) return { toolCalls: [{ name: 'bm25_search', args: { query: 'negligence duty of care' } }] };
      const ids = toolMsgs.flatMap((m) => JSON.parse(m.content).results.map((x: { id: string }) => x.id));
      return {
        content: JSON.stringify({
          evidence: [
            { id: ids[0], justification: long },
            { id: ids[1], justification: 'relevant rule' },
          ],
        }),
      };
    });
    try {
      useScriptedLlm(srv.url);
      const runDir = join(dir, 'run-llm-note-cut');
      const r = await cli('--json', 'run', 'case', '--index', index, '--limit', '1', '--tools', 'bm25', '--k', '2', '--run-dir', runDir, '--no-cache');
      expect(r.code, r.stderr).toBe(0);
      const trace = JSON.parse(readFileSync(join(runDir, 'traces', `${val[0].id}.json`), 'utf8'));
      expect(trace.advocateNoteChars).toBe(300);
      const evidence = (trace.advocates as { evidence: { justification: string; noteCutFrom?: number }[] }[]).flatMap((a) => a.evidence);
      expect(evidence).toHaveLength(8);
      for (const [i, e] of evidence.entries()) {
        if (i % 2) expect([e.justification, e.noteCutFrom]).toEqual(['relevant rule', undefined]);
        else expect([e.justification, e.noteCutFrom]).toEqual([`${long.slice(0, 299)}…`, long.length]);
      }
      const report = readFileSync(join(runDir, 'report.md'), 'utf8');
      expect(report).toContain(" **4 of 8 advocates' notes** (in 1 of 1 items) **were cut to their first 300 characters** (config.json `advocateNoteChars`;");
      expect(JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8')).sections.case.contextCut).toMatchObject({
        notes: 8,
        notesCut: 4,
      });
    } finally {
      await srv.close();
    }
  }, 60_000);

  it("run case --k 3: a search call that names no k returns the run's 3 passages (the CLI k reaches the tools)", async () => {
    const srv = await startScriptedServer(oneSearchThenEvidence);
    try {
      useScriptedLlm(srv.url);
      const runDir = join(dir, 'run-llm-k3');
      const r = await cli('--json', 'run', 'case', '--index', index, '--limit', '1', '--tools', 'bm25', '--k', '3', '--run-dir', runDir, '--no-cache');
      expect(r.code, r.stderr).toBe(0);
      const toolResults = srv.requests.flatMap((q) => (q.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool'));
      expect(toolResults.length).toBeGreaterThan(0);
      for (const m of toolResults) expect(JSON.parse(m.content).results).toHaveLength(3);
      expect(JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')).config).toMatchObject({ system: 'case', k: 3 });
    } finally {
      await srv.close();
    }
  }, 60_000);

  it('a resume that sets LEXCASE_LLM_TEMPERATURE to the 0.3 run case used by default resumes; 0.5 is refused naming 0.3 and 0.5', async () => {
    const srv = await startScriptedServer(oneSearchThenEvidence);
    try {
      useScriptedLlm(srv.url);
      vi.stubEnv('LEXCASE_LLM_TEMPERATURE', undefined as unknown as string);
      const runDir = join(dir, 'run-llm-temperature');
      const args = ['--json', 'run', 'case', '--index', index, '--limit', '1', '--tools', 'bm25', '--run-dir', runDir, '--no-cache'];
      const first = await cli(...args);
      expect(first.code, first.stderr).toBe(0);
      const sent = srv.requests.map((q) => q.body.temperature);
      expect(new Set(sent)).toEqual(new Set([0.3]));
      const recorded = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8')).config.model;
      expect(recorded).toMatchObject({ temperature: 0.3, paperDefaults: { system: 'case', lexcaseDefaults: ['temperature'] } });
      // the same temperature given explicitly: nothing a model receives changes, so the run resumes (it was refused: "model.paperDefaults.lexcaseDefaults")
      vi.stubEnv('LEXCASE_LLM_TEMPERATURE', '0.3');
      const same = await cli(...args);
      expect(same.code, same.stderr).toBe(0);
      expect(JSON.parse(same.stdout)).toMatchObject({ ran: 0, skipped: 1 });
      expect(srv.requests.length).toBe(sent.length);
      // another temperature would change the answers: refused, naming both values
      vi.stubEnv('LEXCASE_LLM_TEMPERATURE', '0.5');
      const other = await cli(...args);
      expect(other.code).not.toBe(0);
      expect(other.stderr).toContain('model.temperature 0.3 recorded, 0.5 now');
      expect(srv.requests.length).toBe(sent.length);
    } finally {
      await srv.close();
    }
  }, 60_000);

  it('lexcase evidence --against with an LLM: the advocate is told to challenge, uses the index tools, prints its picks', async () => {
    const srv = await startScriptedServer((req): ScriptReply => {
      const toolMsgs = (req.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool');
      if (toolMsgs.length === 0) return { toolCalls: [{ name: 'qld_search', args: { query: 'exception to the rule' } }] };
      const id = JSON.parse(toolMsgs[0].content).results[0].id;
      return { content: JSON.stringify({ analysis: 'an exception applies', evidence: [{ id, justification: 'states the exception' }] }) };
    });
    try {
      useScriptedLlm(srv.url);
      const q = val[1];
      const r = await cli('evidence', q.choices[0], '--question', q.id, '--index', index, '--against', '-k', '2', '--no-cache');
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^Counter-evidence to: /);
      expect(r.stdout).toContain('(llm)');
      expect(r.stdout).toContain('Analysis: an exception applies');
      expect(r.stdout).toMatch(/ 1\. \S+ {2}score \d\.\d{4}\n {4}states the exception/);
      expect(r.stdout).toMatch(/qld_search \[step 1\]: "exception to the rule" → \d+ ids/);
      expect(JSON.stringify(srv.requests[0].body.messages)).toContain('AGAINST the hypothesis');
      expect(srv.requests[0].body.tools.map((t: any) => t.function.name)).toEqual(['bm25_search', 'qld_search', 'rewrite_query']);
      // the advocate at run case's sampling (CASE's temperature 0.3), and --json says it; a temperature set in the environment wins
      expect(srv.requests.map((q) => q.body.temperature)).toEqual(srv.requests.map(() => 0.3));
      const j = await cli('--json', 'evidence', q.choices[0], '--question', q.id, '--index', index, '-k', '2', '--no-cache');
      expect(JSON.parse(j.stdout)).toMatchObject({ temperature: 0.3 });
      vi.stubEnv('LEXCASE_LLM_TEMPERATURE', '0');
      const before = srv.requests.length;
      const z = await cli('--json', 'evidence', q.choices[0], '--question', q.id, '--index', index, '-k', '2', '--no-cache');
      expect(JSON.parse(z.stdout)).toMatchObject({ temperature: 0 });
      expect(srv.requests[before].body.temperature).toBe(0);
    } finally {
      await srv.close();
    }
  }, 60_000);

  it('run baseline --mode llm-only without --index builds no default index (it searches none) and resumes a run dir that recorded one', async () => {
    const srv = await startScriptedServer(() => ({ content: '{"reasoning":"r","answer":"B"}' }));
    const cwd = process.cwd();
    const work = mkdtempSync(join(dir, 'llm-only-cwd-'));
    try {
      useScriptedLlm(srv.url);
      process.chdir(work);
      const runDir = join(work, 'run');
      const r = await cli('run', 'baseline', '--mode', 'llm-only', '--limit', '2', '--run-dir', runDir, '--no-cache');
      expect(r.code).toBe(0);
      expect(r.stderr).not.toMatch(/default index/);
      expect(existsSync(join(work, '.lexcase'))).toBe(false);
      expect(srv.requests).toHaveLength(2);
      // a run dir an older lexcase wrote records the index it opened: a resume (here a grow) takes it, the index not being read
      const file = join(runDir, 'config.json');
      const cfg = JSON.parse(readFileSync(file, 'utf8'));
      cfg.config = { ...cfg.config, index: resolve(index), indexContent: { corpus: 'test', passages: 306 }, retrievers: ['bm25', 'qld'] };
      writeFileSync(file, JSON.stringify(cfg, null, 2));
      const g = await cli('run', 'baseline', '--mode', 'llm-only', '--limit', '3', '--index', index, '--run-dir', runDir, '--no-cache');
      expect(g.stderr).not.toMatch(/different config/);
      expect(g.stderr).toContain(`--index ${index} is not read: --mode llm-only retrieves no passage (config.json records no index)`);
      expect(g.code).toBe(0);
      expect(srv.requests).toHaveLength(3);
      expect(existsSync(join(work, '.lexcase'))).toBe(false);
    } finally {
      process.chdir(cwd);
      await srv.close();
    }
  }, 60_000);

  it('run baseline: RAG prompts carry only retrieved passages; only the oracle prompt carries the gold passage', async () => {
    const srv = await startScriptedServer(() => ({ content: '{"reasoning":"r","answer":"B"}' }));
    try {
      useScriptedLlm(srv.url);
      const q = val[0];
      const gold = goldText.get(q.goldPassageIds[0])!.slice(0, 80);
      const prompts: Record<string, string> = {};
      for (const mode of ['llm-only', 'bm25-rag', 'qld-rag', 'oracle']) {
        const before = srv.requests.length;
        const runDir = join(dir, `base-${mode}`);
        const seed = mode === 'bm25-rag' ? ['--seed', '999'] : [];
        const r = await cli(
          '--json',
          'run',
          'baseline',
          '--mode',
          mode,
          '--k',
          '3',
          '--index',
          index,
          '--limit',
          '1',
          '--run-dir',
          runDir,
          '--no-cache',
          ...seed,
        );
        expect(r.code).toBe(0);
        // a baseline draws nothing and sends no seed: --seed 999 sends the prompts --seed 13 does (before: no word)
        if (seed.length) expect(r.stderr).toContain('[warn] --seed 999 changes nothing: a baseline draws nothing and its requests carry no seed');
        // llm-only retrieves nothing: the -k given is said to be ignored (it was dropped without a word)
        if (mode === 'llm-only') expect(r.stderr).toContain('[warn] -k 3 is ignored: --mode llm-only retrieves no passage (config.json records k 0)');
        // the oracle shows the gold passage whatever k (-k 1 and -k 10 sent the same prompts, with no word)
        else if (mode === 'oracle')
          expect(r.stderr).toContain("[warn] -k 3 changes nothing: --mode oracle shows each question's gold passage(s), not a search's top k");
        else if (!seed.length) expect(r.stderr).not.toMatch(/is ignored|changes nothing/);
        expect(srv.requests.length).toBe(before + 1);
        prompts[mode] = JSON.stringify(srv.requests[before].body.messages);
        // the CASE paper's sampling temperature (0.3) is the default, on the wire and in config.json
        expect(srv.requests[before].body.temperature).toBe(0.3);
        const cfg = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8'));
        expect(cfg.config?.model?.temperature ?? cfg.model?.temperature).toBe(0.3);
        // one naming scheme: a baseline is a variant (`baseline/<mode>`), its mode kept; its report gets CASE's section
        expect(cfg.config).toMatchObject({ system: `baseline/${mode}`, mode });
        // llm-only searches no index: none recorded as if it had; the others record theirs
        if (mode === 'llm-only') {
          expect(Object.keys(cfg.config).filter((k) => /^(index|indexContent|retrievers)$/.test(k))).toEqual([]);
        } else expect(cfg.config).toMatchObject({ index: resolve(index), retrievers: ['bm25', 'qld'] });
        expect(readFileSync(join(runDir, 'report.md'), 'utf8')).toMatch(/CASE metrics/);
        const trace = JSON.parse(readFileSync(join(runDir, 'traces', `${q.id}.json`), 'utf8'));
        if (mode.endsWith('-rag')) {
          const retrieved: string[] = trace.retrieval.ids;
          expect(retrieved).toHaveLength(3);
          // numbered [1]..[3], never with their ids (ids like mbe_N would cue the gold passage)
          expect(prompts[mode].match(/\[\d\] /g)).toHaveLength(3);
          for (const id of retrieved) expect(prompts[mode]).not.toContain(id);
          // the gold text may only appear if retrieval itself returned the gold passage
          if (!retrieved.some((id) => q.goldPassageIds.includes(id))) expect(prompts[mode]).not.toContain(gold);
        }
      }
      expect(prompts['llm-only']).not.toContain(gold);
      expect(prompts.oracle).toContain(gold);
    } finally {
      await srv.close();
    }
  }, 60_000);
});
