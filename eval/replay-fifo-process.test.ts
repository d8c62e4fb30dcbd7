/**
 * Issue 37, item 15: `--replay` hung on a FIFO in the recording (llm/<item>.jsonl or llm/model.json
 * made with mkfifo): the replay opened it for a blocking read and waited forever. Now every file of
 * a run dir is read through readRunFile (core/read-regular.ts): anything but a regular file is
 * RUN_INVALID naming it, before any item runs. The built CLI records a run against a local server,
 * then replays copies holding a FIFO.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, isolatedEnv, lexcase, STACK_TRACE } from '../tests/support/spawn-cli.js';

let dir: string;
let server: Server;
const ARGS = ['run', 'baseline', '--mode', 'llm-only', '--limit', '2'];
const completion = (content: string) =>
  JSON.stringify({
    id: 'c',
    object: 'chat.completion',
    created: 1,
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
  });

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-replay-fifo-'));
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url?.endsWith('/models')) return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ id: 'm' }] }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(completion(JSON.stringify({ reasoning: 'r', answer: 'B' })));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const r = await lexcase([...ARGS, '--run-dir', 'rec'], {
    cwd: dir,
    env: isolatedEnv({ LEXCASE_LLM_BASE_URL: url, LEXCASE_LLM_MODEL: 'm' }),
    timeoutMs: 120_000,
  });
  expect(r.code, r.stderr).toBe(0);
}, 300_000);
afterAll(() => {
  server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('lexcase run … --replay over a recording holding a FIFO', () => {
  it('the recording as it was replays (the control)', async () => {
    const r = await lexcase([...ARGS, '--replay', 'rec', '--run-dir', 'rep-ok'], { cwd: dir, timeoutMs: 60_000 });
    expect(r.code, r.stderr).toBe(0);
  }, 120_000);

  it.each([
    ['llm/model.json', 'waited forever'],
    ['llm/ITEM.jsonl', 'waited forever'],
    ['config.json', '"config.json is not valid JSON"'],
    ['results.jsonl', 'a bare error and "run with --debug for a stack trace"'],
  ])(
    '%s a FIFO: exit 1 at once naming it, nothing run (before: %s)',
    async (name) => {
      const copy = join(dir, `fifo-${name.replace(/\W/g, '-')}`);
      cpSync(join(dir, 'rec'), copy, { recursive: true });
      const path = join(copy, name === 'llm/ITEM.jsonl' ? `llm/${readdirSync(join(copy, 'llm')).find((f) => f.endsWith('.jsonl'))}` : name);
      rmSync(path);
      execFileSync('mkfifo', [path]);
      const out = join(dir, `rep-${name.replace(/\W/g, '-')}`);
      // a replay that waits on the FIFO is killed after 60 s: signal SIGKILL
      const r = await lexcase([...ARGS, '--replay', copy, '--run-dir', out], { cwd: dir, timeoutMs: 60_000 });
      expect(r.signal, r.stderr).toBeNull();
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`[error] run ${copy}: ${path} is not a regular file (a FIFO, socket or device); a run dir holds only files: not read`);
      expect(r.stderr).not.toMatch(STACK_TRACE);
      expect(existsSync(join(out, 'results.jsonl'))).toBe(false);
    },
    120_000,
  );
});
