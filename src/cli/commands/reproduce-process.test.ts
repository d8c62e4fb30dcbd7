/**
 * `lexcase reproduce <LLM recipe>` as a user runs it: the BUILT binary in a child process, with the
 * key in LEXCASE_LLM_API_KEY and --endpoint/--model pointing at a scripted OpenAI-compatible server.
 * Each of the four LLM recipes the issue names sends requests, finishes with exit 0 and writes its
 * table (before the fix the process exited 13 with no message and no request: the in-process runner
 * imported the CLI entry while the entry was still in its top-level await).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedAll } from '../../../tests/support/scripted-all.js';
import { runBuiltCli } from '../../../tests/support/run-built-cli.js';
import { startScriptedServer, type ScriptedServer } from '../../../tests/support/scripted-openai-server.js';
import { buildMixedIndex } from '../../../tests/support/five-systems.js';

let dir: string;
let index: string;
let srv: ScriptedServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-reproduce-process-'));
  index = (await buildMixedIndex(dir, 2, 200, { hearsay: false })).dir;
  srv = await startScriptedServer(scriptedAll());
}, 60_000);

afterAll(async () => {
  await srv?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('lexcase reproduce <LLM recipe> in a child process (built binary)', () => {
  it.each(['case-table2', 'acal-table4', 'threeply-table2', 'emar-table4'])(
    '%s --limit 2 sends requests to the endpoint, exits 0 and writes its table',
    async (id) => {
      const before = srv.requests.length;
      const runDir = join(dir, id);
      const r = await runBuiltCli(
        ['reproduce', id, '--endpoint', srv.url, '--model', 'scripted', '--limit', '2', '--run-dir', runDir, '--index', index, '--no-cache'],
        {
          cwd: dir,
          env: { LEXCASE_LLM_API_KEY: 'sk-x', LEXCASE_LLM_MAX_RETRIES: '0', LEXCASE_PROGRESS: 'off' },
          timeoutMs: 170_000,
        },
      );
      expect(r.signal).toBeNull();
      expect(r.code, r.stderr).toBe(0);
      expect(srv.requests.length).toBeGreaterThan(before);
      expect(srv.requests.at(-1)!.headers.authorization).toBe('Bearer sk-x');
      expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
      expect(existsSync(join(runDir, 'table.md'))).toBe(true);
      const t = JSON.parse(readFileSync(join(runDir, 'table.json'), 'utf8'));
      expect(t.runs.filter((s: { status: string }) => s.status === 'done').length).toBeGreaterThan(0);
      expect(r.stdout).toContain(`wrote ${join(runDir, 'table.md')}`);
    },
    180_000,
  );
});
