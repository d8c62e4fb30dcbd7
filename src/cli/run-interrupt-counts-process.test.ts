/**
 * The requests of the items under way at a Ctrl-C are counted, as a user meets it: the built CLI in a
 * child process against a local OpenAI-compatible server that answers the first request and holds the
 * others, SIGINT once results.jsonl holds a line and the server has received held requests too, then
 * the printed resume command. Before, those items' requests were in no results.jsonl line and in no
 * figure of report.md, so after the resume its calls + cut off + refused + sent again was less than the
 * requests the server received; now the signal records them in config.json (`interrupts`) and report.md
 * counts them, and the sum equals what the server received.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureBuilt, isolatedEnv, lexcase, startLexcase } from '../../tests/support/spawn-cli.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { runSummary } from '../../web/server/run-summary-api.js';
import { findRun } from '../../web/server/runs.js';

let dir: string;
let srv: ScriptedServer;
let env: Record<string, string | undefined>;
let open = false;
let release!: () => void;
const opened = new Promise<void>((r) => (release = r));
let answered = 0;

/** One answer per question, fixed by its prompt (A–D). */
function reply(r: RecordedRequest) {
  const letter = 'ABCD'[createHash('sha256').update(JSON.stringify(r.body.messages)).digest()[0] % 4];
  return { json: { reasoning: 'r', answer: letter } };
}
const chatRequests = () => srv.requests.filter((r) => /\/chat\/completions/.test(r.path)).length;

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-run-interrupt-counts-'));
  srv = await startScriptedServer(
    async (r) => {
      if (answered++ >= 1 && !open) await opened;
      return reply(r);
    },
    { models: ['m'] },
  );
  env = isolatedEnv({ LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'm', LEXCASE_PROGRESS: 'off' });
}, 300_000);

afterAll(async () => {
  open = true;
  release();
  await srv?.close();
  rmSync(dir, { recursive: true, force: true });
});

it('after a SIGINT and the resume, report.md counts every request the server received: those of the items under way at the signal too', async () => {
  const ARGS = ['run', 'baseline', '--mode', 'llm-only', '--limit', '6', '--no-cache', '--run-dir', 'cut'];
  const s = startLexcase(ARGS, { cwd: dir, env });
  const file = join(dir, 'cut', 'results.jsonl');
  // a line written and a held request received: an item is under way with a request sent
  for (;;) {
    if (existsSync(file) && readFileSync(file, 'utf8').includes('\n') && chatRequests() >= 2) break;
    if (s.child.exitCode !== null || s.child.signalCode !== null) throw new Error(`the run ended before its first item:\n${s.stderr}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const r = await s.stop('SIGINT');
  expect(r.code, r.stderr).toBe(130);
  const saved = readFileSync(file, 'utf8').trim().split('\n').length;
  const sentBeforeSignal = chatRequests();
  const underWay = r.stderr.match(/(\d+) requests? sent by (\d+) items? under way at an interrupt (?:is|are) in no results\.jsonl line/);
  expect(underWay, r.stderr).not.toBeNull();
  // every request the server received was an answered line's or an item's under way
  expect(saved + Number(underWay![1])).toBe(sentBeforeSignal);
  const cfg = JSON.parse(readFileSync(join(dir, 'cut', 'config.json'), 'utf8')) as { interrupts?: { signal: string; items: number; requests: number }[] };
  expect(cfg.interrupts).toMatchObject([{ signal: 'SIGINT', items: Number(underWay![2]), requests: Number(underWay![1]) }]);

  open = true;
  release();
  const again = await lexcase(['--json', ...ARGS], { cwd: dir, env, timeoutMs: 180_000 });
  expect(again.code, again.stderr).toBe(0);
  const tokens = (
    JSON.parse(readFileSync(join(dir, 'cut', 'report.json'), 'utf8')) as {
      sections: { tokens: { calls: number; abandoned?: number; refused?: number; retried?: number; interrupted?: { items: number; requests: number } } };
    }
  ).sections.tokens;
  const counted = tokens.calls + (tokens.abandoned ?? 0) + (tokens.refused ?? 0) + (tokens.retried ?? 0) + (tokens.interrupted?.requests ?? 0);
  // before: 6 (the calls of the 6 recorded lines) against the server's 6 + the requests under way at the signal
  expect(counted).toBe(chatRequests());
  expect(tokens.interrupted).toEqual({ items: Number(underWay![2]), requests: Number(underWay![1]) });
  const md = readFileSync(join(dir, 'cut', 'report.md'), 'utf8');
  expect(md).toContain(`${underWay![1]} request${underWay![1] === '1' ? '' : 's'} sent by ${underWay![2]} item`);
  // the explorer's run summary (runs table, run view, /api/runs/summary) counts them as report.md does
  // (before: no field, the tokens cell said nothing of them)
  const summary = await runSummary(await findRun(dir, 'cut'));
  expect(summary.interrupted).toBe(Number(underWay![1]));
  expect(summary.interruptedNote).toContain(`${underWay![1]} request${underWay![1] === '1' ? '' : 's'} sent by ${underWay![2]} item`);
  expect(summary.tokens).toBe(
    (JSON.parse(readFileSync(join(dir, 'cut', 'report.json'), 'utf8')) as { sections: { tokens: { total: number } } }).sections.tokens.total,
  );
}, 300_000);
