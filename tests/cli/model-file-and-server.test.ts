/**
 * A model file and a server both configured: the built `lexcase`, as a user runs it, never drops one
 * of them silently. Before 2026-12-04:
 * - `--model-file F --model M` ran F and recorded it as F@sha256:…, M dropped without a word;
 * - an endpoint in the environment beside `--model-file` was dropped without a word;
 * - `llm.modelFile` in the config file beside an endpoint in the environment: the run went to the
 *   server, the file dropped without a word;
 * - `reproduce --model-file F` with an endpoint in the environment ran the grid on the server.
 * And `lexcase compare` of a run of the file beside a run of a server under the file's model name says
 * they are of different servers (before, only checked on a config the CLI cannot write).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractFuzz } from '../support/contract-fuzz-server.js';
import { localModelUnavailable } from '../support/local-model.js';
import { runBuiltCli } from '../support/run-built-cli.js';
import { startScriptedServer, type ScriptedServer } from '../support/scripted-openai-server.js';
import { writeTinyGguf } from '../support/tiny-gguf.js';

const unavailable = await localModelUnavailable();
const needs = unavailable ? ` (skipped: ${unavailable})` : '';

const dir = mkdtempSync(join(tmpdir(), 'lexcase-file-and-server-'));
let srv: ScriptedServer;
beforeAll(async () => {
  srv = await startScriptedServer(contractFuzz({ seed: 5 }));
});
afterAll(async () => {
  await srv?.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[], env: Record<string, string> = {}) =>
  runBuiltCli(['run', 'baseline', '--mode', 'llm-only', '--limit', '2', '--no-cache', ...args], { cwd: dir, env, timeoutMs: 240_000 });
const modelOf = (runDir: string) => JSON.parse(readFileSync(join(dir, runDir, 'config.json'), 'utf8')).config.model;

describe.skipIf(!!unavailable)(`a model file beside a server${needs}`, () => {
  it('--model or --endpoint with --model-file is refused before anything runs', async () => {
    const gguf = writeTinyGguf(join(dir, 'tiny.gguf'));
    for (const [flag, value] of [
      ['--model', 'my-model'],
      ['--endpoint', srv.url],
    ]) {
      const r = await run(['--model-file', gguf, flag, value, '--run-dir', 'refused']);
      expect(r.code, r.stderr).not.toBe(0);
      expect(r.stderr).toContain(`${flag} names a server's model, but the model runs in this process from ${gguf}`);
      expect(existsSync(join(dir, 'refused'))).toBe(false);
    }
    const before = srv.requests.length;
    const rep = await runBuiltCli(['reproduce', 'threeply-table2', '--model-file', gguf, '--model', 'm', '--endpoint', srv.url, '--run-dir', 'refused'], {
      cwd: dir,
    });
    expect(rep.code, rep.stderr).not.toBe(0);
    expect(rep.stderr).toContain('--model-file runs the model in this process: it goes without --endpoint and --model');
    expect(srv.requests.length).toBe(before);
  }, 300_000);

  it('the one not used is named: an endpoint and model in the environment beside --model-file, a config file model beside an endpoint; compare names both', async () => {
    const gguf = writeTinyGguf(join(dir, 'tiny.gguf'));
    const before = srv.requests.length;
    const a = await run(['--model-file', gguf, '--run-dir', 'file'], { LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'server-model' });
    expect(a.code, a.stderr).toBe(0);
    expect(a.stderr).toContain(
      `not used: endpoint (LEXCASE_LLM_BASE_URL), model "server-model" (LEXCASE_LLM_MODEL) — the model runs in this process from ${gguf}`,
    );
    expect(srv.requests.length).toBe(before); // the file ran, not the server
    // said once, by the CLI: the library's own line (createChatModel) is not printed again
    expect(a.stderr).not.toContain('provider "local" runs the model');
    const id = modelOf('file').model;
    expect(id).toMatch(/^tiny\.gguf@sha256:[0-9a-f]{16}$/);

    // the file in the config file, an endpoint in the environment: the server takes the run, and says so
    writeFileSync(join(dir, 'lexcase.config.json'), JSON.stringify({ llm: { modelFile: 'tiny.gguf' } }));
    const b = await run(['--run-dir', 'server'], { LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: id });
    expect(b.code, b.stderr).toBe(0);
    expect(b.stderr).toContain(
      `[warn] not used: the model file ${gguf} (llm.modelFile of ${join(dir, 'lexcase.config.json')}) — the run asks the server at ${srv.url}`,
    );
    expect(srv.requests.length).toBeGreaterThan(before);
    rmSync(join(dir, 'lexcase.config.json'));

    // reproduce --model-file with an endpoint in the environment: the grid runs the file
    const served = srv.requests.length;
    const rep = await runBuiltCli(
      ['reproduce', 'threeply-table2', '--only', 'single', '--limit', '1', '--model-file', gguf, '--no-cache', '--run-dir', 'repro'],
      {
        cwd: dir,
        env: { LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'server-model' },
        timeoutMs: 240_000,
      },
    );
    expect(rep.code, rep.stderr).toBe(0);
    expect(rep.stderr).toContain('not used: endpoint (LEXCASE_LLM_BASE_URL), model "server-model" (LEXCASE_LLM_MODEL)');
    expect(srv.requests.length).toBe(served);
    expect(JSON.parse(readFileSync(join(dir, 'repro', 'reproduction.json'), 'utf8')).model).toBe(id);

    const line = `the two runs asked model "${id}" of different servers — A the model file tiny.gguf, run in-process, B ${new URL(srv.url).host}/v1: their figures are not of one server`;
    const c = await runBuiltCli(['compare', 'file', 'server'], { cwd: dir });
    expect(c.code, c.stderr).toBe(0);
    expect(c.stdout).toContain(`- ${line}`);
    const j = await runBuiltCli(['--json', 'compare', 'file', 'server'], { cwd: dir });
    expect(JSON.parse(j.stdout).pairingLines).toContain(line);
  }, 300_000);
});
