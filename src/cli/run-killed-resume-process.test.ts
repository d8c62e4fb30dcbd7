/**
 * A run killed with no handler (kill -9, the out-of-memory killer, a crash) and resumed counts the
 * requests its items under way had sent, as a Ctrl-C's are counted, as a user meets it: the built CLI
 * (`run threeply`, ten model calls per triple, one after another) in a child process against a local
 * OpenAI-compatible server that holds request N until the test has sent SIGKILL, then the same command.
 * Before, those requests (answered ones among them, whose tokens the endpoint spent) were in no
 * results.jsonl line and in no figure: the resumed run's report.md read as an uninterrupted run's
 * (LLM calls 30) while the server had received 36. Now each request is kept on disk as it is sent
 * (eval/sent-journal.ts); the resume records them in config.json `interrupts` (signal "killed"), says
 * so, and report.md counts them; the items' results are the uninterrupted run's.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { scriptedAll } from '../../tests/support/scripted-all.js';
import { ensureBuilt, isolatedEnv, lexcase, startLexcase } from '../../tests/support/spawn-cli.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';

let dir: string;
let srv: ScriptedServer;
let env: Record<string, string | undefined>;
/** The chat request to hold (1-based, counted from `armed`), and what the test waits on. */
let hold: { at: number; reached: () => void; release: Promise<void> } | undefined;
let chat = 0;

const ARGS = ['run', 'threeply', '--limit', '3', '--no-cache', '--seed', '7'];
const script = scriptedAll();

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-run-killed-'));
  srv = await startScriptedServer(
    async (r) => {
      chat++;
      const h = hold;
      if (h && chat === h.at) {
        h.reached();
        await h.release;
      }
      // the completion and tool-call ids from the prompt, not the server's counters: the same request gets the same reply in every attempt
      return { ...script(r), completionId: 'chatcmpl-x', forcedCallId: 'call_x' };
    },
    { models: ['m'] },
  );
  env = isolatedEnv({ LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'm', LEXCASE_PROGRESS: 'off' });
}, 300_000);

afterAll(async () => {
  await srv?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The command into `runDir`, killed (SIGKILL) once the server holds its `at`-th chat request; the requests it sent. */
async function killedAt(runDir: string, at: number): Promise<number> {
  chat = 0;
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const reached = new Promise<void>((r) => (hold = { at, reached: r, release: released }));
  const s = startLexcase([...ARGS, '--run-dir', runDir], { cwd: dir, env });
  const ended = new Promise<never>((_, reject) => s.child.once('exit', () => reject(new Error(`ended before request ${at}:\n${s.stderr}`))));
  ended.catch(() => undefined);
  await Promise.race([reached, ended]);
  const r = await s.stop('SIGKILL');
  expect(r.signal).toBe('SIGKILL');
  hold = undefined;
  release();
  return chat;
}

const lines = (runDir: string) =>
  readFileSync(join(dir, runDir, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => {
      const { ms: _ms, ...rest } = JSON.parse(l) as Record<string, unknown>;
      return rest;
    });
type Tokens = { calls: number; abandoned?: number; refused?: number; retried?: number; interrupted?: { items: number; requests: number } };
const tokensOf = (runDir: string) => (JSON.parse(readFileSync(join(dir, runDir, 'report.json'), 'utf8')) as { sections: { tokens: Tokens } }).sections.tokens;

it('a run killed twice mid-triple (kill -9) and resumed: report.md counts every request the server received, the results are the uninterrupted run', async () => {
  chat = 0;
  const full = await lexcase(['--json', ...ARGS, '--run-dir', 'full'], { cwd: dir, env, timeoutMs: 180_000 });
  expect(full.code, full.stderr).toBe(0);
  const uninterrupted = chat;
  expect(tokensOf('full').calls).toBe(uninterrupted);
  expect(existsSync(join(dir, 'full', 'under-way'))).toBe(false); // no leftover dir in a run that was not stopped

  // the second triple's 4th request held (3 answered before it), then the resumed triple's 2nd
  const first = await killedAt('cut', uninterrupted / 3 + 4);
  const second = await killedAt('cut', 2);
  chat = 0;
  const again = await lexcase(['--json', ...ARGS, '--run-dir', 'cut'], { cwd: dir, env, timeoutMs: 180_000 });
  expect(again.code, again.stderr).toBe(0);
  const received = first + second + chat;
  expect(received).toBe(uninterrupted + 6);
  expect(again.stderr).toMatch(
    /the attempt before this one ended with no record of its items under way \(killed: kill -9, out of memory, a crash; or stopped by an error before its first record, a failed write or a setup error\) and 2 requests sent by 1 item under way/,
  );

  const cfg = JSON.parse(readFileSync(join(dir, 'cut', 'config.json'), 'utf8')) as { interrupts?: { signal: string; items: number; requests: number }[] };
  expect(cfg.interrupts).toMatchObject([
    { signal: 'killed', items: 1, requests: 4 },
    { signal: 'killed', items: 1, requests: 2 },
  ]);
  const tokens = tokensOf('cut');
  // before: calls 30 and nothing else, against the server's 36
  expect(tokens.interrupted).toEqual({ items: 2, requests: 6 });
  expect(tokens.calls + (tokens.abandoned ?? 0) + (tokens.refused ?? 0) + (tokens.retried ?? 0) + tokens.interrupted!.requests).toBe(received);
  expect(readFileSync(join(dir, 'cut', 'report.md'), 'utf8')).toContain('6 requests sent by 2 items under way at an interrupt');
  expect(lines('cut')).toEqual(lines('full'));
  expect(existsSync(join(dir, 'cut', 'under-way'))).toBe(false);

  // resumed again with nothing to run: nothing counted twice
  const idle = await lexcase(['--json', ...ARGS, '--run-dir', 'cut'], { cwd: dir, env, timeoutMs: 180_000 });
  expect(idle.code, idle.stderr).toBe(0);
  expect(tokensOf('cut').interrupted).toEqual({ items: 2, requests: 6 });
}, 300_000);
