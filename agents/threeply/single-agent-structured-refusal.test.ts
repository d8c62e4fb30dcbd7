/**
 * The 3-ply single agents (SA, SA-EP) against an endpoint that refuses structured output (HTTP 400
 * naming response_format): they switch to prompt-only JSON with one warning per model, as every other
 * structured request does (core/llm/structured.ts), and the run records the switch in config.json.
 * Before, they sent response_format on every request, so every triple failed with
 * LLM_REQUEST_FAILED … HTTP 400 while CASE and MAD switched.
 * The Factor Distiller's own model switches too, and the run records and reports that switch by its
 * role: before, only the run model's switch was recorded, so a run whose distiller alone switched
 * (--evaluator-model on a model that refuses json_schema) read in config.json and report.md as one
 * that never switched.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { register } from '../../src/cli/commands/run-plugins.js';
import { programWith, runCli } from '../../tests/support/run-cli.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { rulesScript } from './test-support/scripted-threeply.js';

let dir: string;
let srv: ScriptedServer | undefined;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'threeply-refusal-'));
});
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const REFUSAL = 'response_format json_schema is not supported by this server';

describe('3-ply single agents on an endpoint that refuses structured output', () => {
  it.each(['single', 'single-enhanced'])('%s switches to prompt-only JSON once, with one warning per model, and answers every triple', async (system) => {
    const rules = rulesScript();
    srv = await startScriptedServer((r) => (r.body.response_format || r.body.tool_choice ? { status: 400, error: REFUSAL } : rules(r)));
    // the per-file reset (tests/support/shared-state-setup.ts) puts the LLM_* variables back
    Object.assign(process.env, { LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'scripted', LEXCASE_LLM_MAX_RETRIES: '0' });
    const runDir = join(dir, system);
    const args = ['--scenarios', 'arguable,mismatched', '--n', '2', '--seed', '5', '--concurrency', '1', '--system', system, '--run-dir', runDir, '--no-cache'];
    const r = await runCli(['--json', 'run', 'threeply', ...args], programWith(register));
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ ran: 4, failed: 0 });
    const records = readFileSync(join(runDir, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; prediction: string | null; error?: string });
    expect(records.filter((x) => x.error)).toEqual([]);
    // SA argues every triple; SA-EP follows its prompt and abstains on the mismatched ones
    expect(records.map((x) => x.prediction)).toEqual(system === 'single' ? ['argue', 'argue', 'argue', 'argue'] : ['argue', 'argue', 'abstain', 'abstain']);
    // one refused request and one warning per model (the agent's, then the Factor Distiller's), then prompt mode for the rest of the run
    expect(r.err.match(/the endpoint rejected structured output \(json_schema\)/g)).toHaveLength(2);
    expect(srv.requests.filter((q) => q.body.response_format).map((q) => q.body.response_format.json_schema.name)).toEqual([
      system === 'single' ? 'single-agent' : 'single-agent-enhanced',
      'Factor_Distiller',
    ]);
    const config = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8'));
    expect(config.structuredOutputSwitches).toEqual([
      { from: 'json_schema', to: 'prompt', item: 'arguable-001', at: expect.any(String) },
      { from: 'json_schema', to: 'prompt', item: 'arguable-001', at: expect.any(String), model: 'Factor Distiller' },
    ]);
  });

  it("records and reports the Factor Distiller's switch when only the evaluator model refuses json_schema", async () => {
    const rules = rulesScript();
    // the run model takes json_schema; the evaluator model (--evaluator-model) refuses it
    srv = await startScriptedServer((r) => (r.body.model === 'distiller-model' && r.body.response_format ? { status: 400, error: REFUSAL } : rules(r)));
    Object.assign(process.env, { LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'scripted', LEXCASE_LLM_MAX_RETRIES: '0' });
    const runDir = join(dir, 'distiller-only');
    const args = [
      '--scenarios',
      'arguable',
      '--n',
      '2',
      '--seed',
      '5',
      '--system',
      'single',
      '--evaluator-model',
      'distiller-model',
      '--run-dir',
      runDir,
      '--no-cache',
    ];
    const r = await runCli(['--json', 'run', 'threeply', ...args], programWith(register));
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ ran: 2, failed: 0 });
    expect(r.err.match(/the endpoint rejected structured output \(json_schema\)/g)).toHaveLength(1);
    // the agent kept json_schema: every single-agent request carried it
    expect(srv.requests.filter((q) => q.body.model === 'scripted').every((q) => q.body.response_format?.json_schema)).toBe(true);
    const config = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8'));
    expect(config.structuredOutputSwitches).toEqual([
      { from: 'json_schema', to: 'prompt', item: 'arguable-001', at: expect.any(String), model: 'Factor Distiller' },
    ]);
    const report = readFileSync(join(runDir, 'report.md'), 'utf8');
    expect(report).toContain('- **structured output switched (Factor Distiller)**: json_schema → prompt from item arguable-001 on');
  });
});
