/**
 * A failed item retried by a resume whose disk fills up before the retry's line is written, as a user
 * meets it: the built CLI (`run threeply`, ten model calls per triple) in a child process against a
 * local OpenAI-compatible server, the disk filled by a preload (tests/support/full-disk-preload.mjs).
 * The first run's triple fails at its 4th request (HTTP 400); the resume's retry makes its ten
 * requests, and its trace write fails with ENOSPC: nothing is recorded.
 *
 * The retry's exchanges are put in place only with its line (eval/llm-exchanges.ts stageExchanges):
 * the failed line that stays keeps its own llm/<item>.jsonl. Before, the retry's exchanges had
 * replaced it (10 exchanges beside a line recording 3 calls and 1 refused). And the ten requests the
 * stopped resume sent stay in its request journal (under-way/, eval/run-start-undo.ts): the next
 * resume records them in config.json `interrupts` and report.md counts them. Before, the stopped
 * resume removed the journal with the rest of what it wrote: report.md accounted 14 requests (10
 * calls; 3 calls and 1 refused on the attempt a retry replaced) of the 24 the server received.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { scriptedAll } from '../../tests/support/scripted-all.js';
import { ensureBuilt, isolatedEnv, lexcase, ROOT } from '../../tests/support/spawn-cli.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';

const PRELOAD = pathToFileURL(join(ROOT, 'tests', 'support', 'full-disk-preload.mjs')).href;
const ARGS = ['run', 'threeply', '--limit', '1', '--no-cache', '--seed', '7', '--run-dir', 'run'];

let dir: string;
let srv: ScriptedServer;
/** The chat request (1-based) answered with HTTP 400; 0: none. */
let refuse = 0;
let chat = 0;

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-retry-disk-full-'));
  const script = scriptedAll();
  srv = await startScriptedServer(
    (r) => {
      chat++;
      if (chat === refuse) return { status: 400, error: 'refused by the test' };
      return { ...script(r), usage: { prompt_tokens: 100, completion_tokens: 10 } };
    },
    { models: ['m'] },
  );
}, 300_000);

afterAll(async () => {
  await srv?.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) =>
  isolatedEnv({ LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'm', LEXCASE_PROGRESS: 'off', LEXCASE_LLM_MAX_RETRIES: '0', ...extra });
const runDir = () => join(dir, 'run');
const exchangesFile = () => join(runDir(), 'llm', 'arguable-001.jsonl');
const exchangeCount = () => readFileSync(exchangesFile(), 'utf8').split('\n').filter(Boolean).length;
type Tokens = { calls: number; refused?: number; interrupted?: { items: number; requests: number } };
type Replaced = { tokens: { calls: number; refused?: number } };

it('a retry stopped by a full disk keeps the failed line its llm/<item>.jsonl, and the next resume counts the requests it sent', async () => {
  refuse = 4;
  const first = await lexcase(ARGS, { cwd: dir, env: env() });
  expect(first.code, first.stderr).toBe(1); // no item succeeded
  expect(exchangeCount()).toBe(4); // 3 answered, 1 refused
  const failedExchanges = readFileSync(exchangesFile());
  const failedLine = readFileSync(join(runDir(), 'results.jsonl'));

  // the resume writes config.json, llm/model.json and the retry's exchanges; its trace is the first write that fails
  refuse = 0;
  const full = await lexcase(ARGS, {
    cwd: dir,
    env: env({ NODE_OPTIONS: `--import ${PRELOAD}`, LEXCASE_TEST_FULL_DISK_DIR: runDir(), LEXCASE_TEST_FULL_DISK_AFTER: '3' }),
  });
  expect(full.code).toBe(1);
  expect(full.stderr).toMatch(/cannot write the run dir .*ENOSPC.*traces\/arguable-001\.json.*the run stopped after 0 of 1 items/);
  expect(readFileSync(join(runDir(), 'results.jsonl')).equals(failedLine)).toBe(true);
  expect(exchangeCount()).toBe(4); // before: the retry's 10
  expect(readFileSync(exchangesFile()).equals(failedExchanges)).toBe(true);
  expect(readdirSync(runDir(), { recursive: true, encoding: 'utf8' }).filter((f) => /\.tmp-\d+$/.test(f))).toEqual([]);
  expect(
    readFileSync(join(runDir(), 'under-way', 'arguable-001.sent'), 'utf8')
      .split('\n')
      .filter(Boolean),
  ).toHaveLength(10); // before: under-way/ gone

  const again = await lexcase(ARGS, { cwd: dir, env: env() });
  expect(again.code, again.stderr).toBe(0);
  expect(again.stderr).toMatch(/10 requests sent by 1 item under way/);
  expect(chat).toBe(4 + 10 + 10);
  const line = JSON.parse(readFileSync(join(runDir(), 'results.jsonl'), 'utf8')) as { replacedAttempts: Replaced };
  expect(line.replacedAttempts.tokens).toMatchObject({ calls: 3, refused: 1 });
  const tokens = (JSON.parse(readFileSync(join(runDir(), 'report.json'), 'utf8')) as { sections: { tokens: Tokens } }).sections.tokens;
  expect(tokens.interrupted).toEqual({ items: 1, requests: 10 });
  // every request the server received is in a figure of report.md: the recorded attempt's, the replaced one's, the stopped one's
  expect(
    tokens.calls + (tokens.refused ?? 0) + line.replacedAttempts.tokens.calls + (line.replacedAttempts.tokens.refused ?? 0) + tokens.interrupted!.requests,
  ).toBe(chat);
  expect(readFileSync(join(runDir(), 'report.md'), 'utf8')).toContain('10 requests sent by 1 item under way at an interrupt');
  expect(existsSync(join(runDir(), 'under-way'))).toBe(false);
}, 300_000);
