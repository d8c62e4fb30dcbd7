/**
 * LLM commands as a user runs them (the built binary, a child process): a wrong endpoint, key or
 * model stops at once — one clear error, exit 1, no item run — instead of ~15 s of retries per
 * item and exit 0 with "accuracy 0.0%"; `--endpoint/--model/--api-key-env` work on every command
 * that uses an LLM.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedAll } from '../../tests/support/scripted-all.js';
import { runBuiltCli } from '../../tests/support/run-built-cli.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { buildProgram } from './program.js';
import { buildMixedIndex } from '../../tests/support/five-systems.js';

const STACK = /^\s+at .+[:(]/m;
let dir: string;
let index: string;
let srv: ScriptedServer;
let closedUrl: string;
const run = (args: string[], env: Record<string, string> = {}) =>
  runBuiltCli(args, { cwd: dir, env: { LEXCASE_PROGRESS: 'off', LEXCASE_LLM_RETRY_BASE_MS: '1000', ...env }, timeoutMs: 60_000 });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-llm-process-'));
  index = (await buildMixedIndex(dir, 2, 200, { hearsay: false })).dir;
  srv = await startScriptedServer(scriptedAll(), { models: ['scripted'], strictModels: true, apiKey: 'sk-right' });
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  closedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/v1`;
  await new Promise((r) => closed.close(r));
}, 60_000);

afterAll(async () => {
  await srv?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a wrong endpoint, key or model stops an LLM run before its first item', () => {
  it.each([
    [
      'unreachable',
      () => ['--endpoint', closedUrl, '--model', 'scripted'],
      {},
      /the LLM endpoint http:\/\/127\.0\.0\.1:\d+\/v1 is not reachable \(ECONNREFUSED\); nothing was run/,
    ],
    ['401', () => ['--endpoint', srv.url, '--model', 'scripted', '--api-key-env', 'MY_KEY'], { MY_KEY: 'sk-wrong' }, /refused the API key \(HTTP 401/],
    [
      'unknown model',
      () => ['--endpoint', srv.url, '--model', 'scriptd', '--api-key-env', 'MY_KEY'],
      { MY_KEY: 'sk-right' },
      /does not serve the model "scriptd" .*\n {2}hint: did you mean "scripted"\?/,
    ],
  ])('run case, %s: exit 1, one error, no item', async (_what, flags, env, message) => {
    const runDir = join(dir, `case-${_what.replace(/\W/g, '')}`);
    const t0 = performance.now();
    const r = await run(['run', 'case', '--index', index, '--limit', '2', '--run-dir', runDir, ...flags()], env as Record<string, string>);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(STACK);
    expect(r.stderr.match(/\[error\]/g)).toHaveLength(1);
    expect(existsSync(join(runDir, 'results.jsonl'))).toBe(false);
    expect(performance.now() - t0).toBeLessThan(30_000);
  });

  it('reproduce with an unreachable endpoint: exit 1 before the grid', async () => {
    const r = await run(
      ['reproduce', 'case-table2', '--endpoint', closedUrl, '--model', 'scripted', '--limit', '2', '--index', index, '--run-dir', join(dir, 'rep')],
      {},
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/not reachable \(ECONNREFUSED\); nothing was run/);
    expect(existsSync(join(dir, 'rep', 'table.md'))).toBe(false);
  });
});

describe('--endpoint / --model / --api-key-env', () => {
  it('run case takes them (the key from the named variable reaches the server) and runs', async () => {
    const before = srv.requests.length;
    const r = await run(
      [
        '--json',
        'run',
        'case',
        '--index',
        index,
        '--limit',
        '1',
        '--jurors',
        '1',
        '--run-dir',
        join(dir, 'case-ok'),
        '--endpoint',
        srv.url,
        '--model',
        'scripted',
        '--api-key-env',
        'MY_KEY',
        '--no-cache',
      ],
      { MY_KEY: 'sk-right' },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ran: 1, failed: 0 });
    expect(srv.requests.length).toBeGreaterThan(before);
    expect(srv.requests.at(-1)!.headers.authorization).toBe('Bearer sk-right');
  }, 60_000);

  it('every command that uses an LLM has them', () => {
    const all = (c: Command, path: string[] = []): { path: string; cmd: Command }[] => [
      { path: path.join(' '), cmd: c },
      ...c.commands.flatMap((s) => all(s, [...path, s.name()])),
    ];
    const cmds = all(buildProgram()).filter(({ path }) => /^run \w+$|^evidence$|^serve$|^mcp$|^reproduce$/.test(path));
    expect(cmds.map((c) => c.path).sort()).toEqual([
      'evidence',
      'mcp',
      'reproduce',
      'run acal',
      'run baseline',
      'run case',
      'run emar',
      'run mad',
      'run threeply',
      'serve',
    ]);
    for (const { path, cmd } of cmds)
      expect(
        cmd.options.map((o) => o.long),
        path,
      ).toEqual(expect.arrayContaining(['--endpoint', '--model', '--api-key-env']));
  });
});
