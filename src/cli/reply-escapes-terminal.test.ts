/**
 * A model reply quoted in an error reaches the terminal with its control characters escaped:
 * `lexcase run threeply` (in-process, the real client against the scripted server) whose Factor
 * Analyst answers an outcome holding escape sequences (clear screen, cursor home, a green fake
 * "passed" line). The item fails with `got "…"` quoting the reply; stderr shows `\u001b`, never
 * the ESC byte, while results.jsonl keeps the error text as it was.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rulesScript, threeplyRole } from '../../agents/threeply/test-support/scripted-threeply.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { programWith, runCli } from '../../tests/support/run-cli.js';
import { register } from './commands/run-plugins.js';

const HOSTILE = '\u001b[2J\u001b[H\u001b[32mall items passed\u001b[0m';

let dir: string;
let srv: ScriptedServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'reply-escapes-'));
  const rules = rulesScript();
  srv = await startScriptedServer((r) => (threeplyRole(r) === 'analyst' ? { content: JSON.stringify({ analysis_outcome: HOSTILE, summary: 'x' }) } : rules(r)));
});
afterAll(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

it('an analyst reply with escape sequences fails the item, and stderr quotes it as \\u001b, never the ESC byte', async () => {
  Object.assign(process.env, { LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'scripted', LEXCASE_LLM_MAX_RETRIES: '0' });
  const out = join(dir, 'run');
  const r = await runCli(
    ['--json', 'run', 'threeply', '--scenarios', 'arguable', '--n', '1', '--seed', '5', '--run-dir', out, '--no-cache'],
    programWith(register),
  );
  expect(r.code).toBe(1); // its only item failed
  expect(r.err).toContain('no item succeeded: 1 of 1 failed');
  expect(r.err).toContain('got "\\u001b[2J\\u001b[H\\u001b[32mall items passed\\u001b[0m"');
  expect(r.err).not.toContain('\u001b');
  const error = JSON.parse(readFileSync(join(out, 'results.jsonl'), 'utf8').split('\n')[0]).error;
  expect(error).toContain(`got "${HOSTILE}"`); // the file keeps the reply as it came
});
