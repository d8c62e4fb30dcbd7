/**
 * Ctrl-C during `lexcase run <system>`, as a user meets it: the built CLI in a child process against
 * a local OpenAI-compatible server that answers the first item and holds the others, so the run is
 * always mid-way when the signal comes. Before, SIGINT killed the process at once (exit status
 * null, signal SIGINT) without a word on what was saved; now it prints once on stderr how many
 * items results.jsonl holds, the run dir and the command that resumes, and exits 130 (SIGTERM: 143).
 * Resuming with that command completes the run with the metrics of an uninterrupted one.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, isolatedEnv, lexcase, startLexcase, STACK_TRACE } from '../../tests/support/spawn-cli.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';

let dir: string;
let srv: ScriptedServer;
let env: Record<string, string | undefined>;
/** While closed, every chat request after the first waits for it to open. */
let gate: { open: boolean; answered: number; release: () => void; opened: Promise<void> };
function closeGate(): void {
  let release!: () => void;
  const opened = new Promise<void>((r) => (release = r));
  gate = { open: false, answered: 0, release, opened };
}
function openGate(): void {
  gate.open = true;
  gate.release();
}

/** Set: the next chat request calls it and waits for the gate (a run stopped with its first request under way). */
let holdFirst: (() => void) | undefined;

/** One answer per question, fixed by its prompt: the same on every run and resume (A–D, not all right). */
function reply(r: RecordedRequest) {
  const letter = 'ABCD'[createHash('sha256').update(JSON.stringify(r.body.messages)).digest()[0] % 4];
  return { json: { reasoning: 'r', answer: letter } };
}

const ARGS = ['run', 'baseline', '--mode', 'llm-only', '--limit', '6', '--no-cache'];
const lines = (runDir: string) => readFileSync(join(dir, runDir, 'results.jsonl'), 'utf8');
const figures = (runDir: string) =>
  (JSON.parse(readFileSync(join(dir, runDir, 'report.json'), 'utf8')) as { sections: { figures: { figures: unknown[] } } }).sections.figures.figures;
const predictions = (runDir: string) =>
  Object.fromEntries(
    lines(runDir)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; prediction: string | null })
      .map((r) => [r.id, r.prediction]),
  );

/** Starts the run, waits until results.jsonl holds a line (polling the file), sends `signal`, returns how it ended. */
async function interrupted(runDir: string, signal: NodeJS.Signals) {
  closeGate();
  const s = startLexcase([...ARGS, '--run-dir', runDir], { cwd: dir, env });
  const file = join(dir, runDir, 'results.jsonl');
  for (;;) {
    if (existsSync(file) && readFileSync(file, 'utf8').includes('\n')) break;
    if (s.child.exitCode !== null || s.child.signalCode !== null) throw new Error(`the run ended before its first item:\n${s.stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return s.stop(signal);
}

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-run-interrupt-'));
  closeGate();
  srv = await startScriptedServer(
    async (r) => {
      const reached = holdFirst;
      holdFirst = undefined;
      if (reached) {
        reached();
        await gate.opened;
      } else if (gate.answered++ >= 1 && !gate.open) await gate.opened;
      return reply(r);
    },
    { models: ['m'] },
  );
  env = isolatedEnv({ LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'm', LEXCASE_PROGRESS: 'off' });
}, 300_000);

afterAll(async () => {
  openGate();
  await srv?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Ctrl-C during lexcase run', () => {
  it('SIGINT: exit 130, one message with the items saved, the run dir and the resume command; that command completes the run with the uninterrupted metrics', async () => {
    openGate();
    const full = await lexcase(['--json', ...ARGS, '--run-dir', 'full'], { cwd: dir, env, timeoutMs: 180_000 });
    expect(full.code, full.stderr).toBe(0);

    const r = await interrupted('cut', 'SIGINT');
    expect(r.signal, r.stderr).toBeNull(); // before: killed by the signal (code null, signal SIGINT), nothing said
    expect(r.code, r.stderr).toBe(130);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    // every line whole: the writes under way finished, none was started after the signal
    const saved = lines('cut');
    expect(saved.endsWith('\n')).toBe(true);
    const n = saved.trim().split('\n').length;
    for (const l of saved.trim().split('\n')) expect(() => JSON.parse(l)).not.toThrow();
    expect(n).toBeGreaterThanOrEqual(1);
    expect(n).toBeLessThan(6);
    expect(r.stderr.match(/interrupted \(SIGINT\)/g)).toHaveLength(1);
    expect(r.stderr).toContain(`${n} item${n === 1 ? '' : 's'} completed and saved in cut/results.jsonl; run dir: cut`);
    const resume = r.stderr.match(/^to resume: lexcase (.+)$/m)?.[1];
    expect(resume).toBe('run baseline --mode llm-only --limit 6 --no-cache --run-dir cut');

    openGate();
    const again = await lexcase(['--json', ...resume!.split(' ')], { cwd: dir, env, timeoutMs: 180_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ ran: 6 - n, skipped: n });
    expect(predictions('cut')).toEqual(predictions('full'));
    expect(figures('cut')).toEqual(figures('full'));
  }, 300_000);

  it('SIGINT with a trace write under way: its traces/<id>.json.tmp-<pid> is removed before the exit, not left in the run dir', async () => {
    closeGate();
    const s = startLexcase([...ARGS, '--run-dir', 'tmpleft'], { cwd: dir, env });
    const file = join(dir, 'tmpleft', 'results.jsonl');
    while (!(existsSync(file) && readFileSync(file, 'utf8').includes('\n'))) {
      if (s.child.exitCode !== null || s.child.signalCode !== null) throw new Error(`the run ended before its first item:\n${s.stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    // the temp file of a trace the process is writing (named with its pid, as writeAtomic names it), half written
    const tmp = join(dir, 'tmpleft', 'traces', `held.json.tmp-${s.child.pid}`);
    writeFileSync(tmp, '{"id":"held","ste');
    const r = await s.stop('SIGINT');
    expect(r.code, r.stderr).toBe(130);
    expect(existsSync(tmp)).toBe(false); // before: left until the next resume removed it
    expect(readdirSync(join(dir, 'tmpleft', 'traces')).filter((n) => /\.tmp-\d+$/.test(n))).toEqual([]);
    openGate();
  }, 120_000);

  it('SIGINT with the first request under way (config.json written, no line yet): no item said saved, the resume command runs every item and counts the request', async () => {
    closeGate();
    const reached = new Promise<void>((r) => (holdFirst = r));
    const s = startLexcase([...ARGS, '--run-dir', 'first'], { cwd: dir, env });
    await reached;
    expect(existsSync(join(dir, 'first', 'config.json'))).toBe(true);
    const r = await s.stop('SIGINT');
    openGate();
    expect(r.code, r.stderr).toBe(130);
    // before: "0 items completed and saved in first/results.jsonl", a file the run had not written
    expect(r.stderr).toContain('interrupted (SIGINT):\n  no item completed yet (first/results.jsonl not written); run dir: first\n');
    expect(r.stderr).toContain('1 request sent by 1 item under way at an interrupt is in no results.jsonl line');
    const resume = r.stderr.match(/^to resume: lexcase (.+)$/m)?.[1];
    expect(resume).toBe('run baseline --mode llm-only --limit 6 --no-cache --run-dir first');

    const again = await lexcase(resume!.split(' '), { cwd: dir, env, timeoutMs: 180_000 });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain('resuming first: 0 of 6 items already done; 1 request sent by 1 item under way at an interrupt');
    expect(predictions('first')).toEqual(predictions('full'));
    expect(readFileSync(join(dir, 'first', 'report.md'), 'utf8')).toContain('1 request sent by 1 item under way at an interrupt');
  }, 300_000);

  it('SIGTERM: exit 143 and the same message', async () => {
    const r = await interrupted('term', 'SIGTERM');
    expect(r.signal, r.stderr).toBeNull();
    expect(r.code, r.stderr).toBe(143);
    const n = lines('term').trim().split('\n').length;
    expect(r.stderr).toContain(`interrupted (SIGTERM):\n  ${n} item${n === 1 ? '' : 's'} completed and saved in term/results.jsonl; run dir: term`);
    expect(r.stderr).toContain('to resume: lexcase run baseline --mode llm-only --limit 6 --no-cache --run-dir term');
  }, 300_000);
});
