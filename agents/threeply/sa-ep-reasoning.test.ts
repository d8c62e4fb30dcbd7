/**
 * SA-EP (`--system single-enhanced`) under structured output: its prompt asks for step-by-step work
 * and a TERMINATE abstention, so its reply schema carries a leading `reasoning` field for the steps
 * and the prompt names where TERMINATE goes (the Plaintiff's Argument, the other plies empty).
 * Before, it was sent SA's schema — exactly the three plies — so a schema-following server let the
 * model neither reason nor abstain as told, and SA-EP's abstention and hallucination figures
 * depended on the structured-output mode. The reasoning stays out of the plies and of the Factor
 * Distiller's input. The change is in the run's request fingerprint: a resume of a run dir an older
 * lexcase started with SA-EP is refused.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { jsonSchemaFor } from '../../core/llm/json-schema.js';
import { loadTradeSecretModel } from '../../corpora/trade-secret.js';
import { requestFingerprint } from '../../eval/request-fingerprint.js';
import { tracePath } from '../../eval/run-dir.js';
import { register } from '../../src/cli/commands/run-plugins.js';
import { programWith, runCli } from '../../tests/support/run-cli.js';
import { startScriptedServer, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { PLY_LABEL } from './format.js';
import { ENHANCED_SINGLE_AGENT_SYSTEM } from './prompts.js';
import { threeplyRequests } from './requests.js';
import { rulesScript, threeplyRole, userText } from './test-support/scripted-threeply.js';

let dir: string;
let srv: ScriptedServer;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'threeply-sa-ep-'));
  srv = await startScriptedServer(rulesScript());
});
afterAll(async () => {
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

const PLY_KEYS = Object.values(PLY_LABEL);
const cli = (system: string, runDir: string) => {
  // the per-file reset (tests/support/shared-state-setup.ts) puts the LLM_* variables back
  Object.assign(process.env, { LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'scripted', LEXCASE_LLM_MAX_RETRIES: '0' });
  const args = ['--scenarios', 'arguable,mismatched', '--n', '2', '--seed', '5', '--concurrency', '1', '--system', system, '--run-dir', runDir, '--no-cache'];
  return runCli(['--json', 'run', 'threeply', ...args], programWith(register));
};

describe('SA-EP under structured output', () => {
  it('is sent a schema with its reasoning first and the three plies, and its prompt names the keys in that order and where TERMINATE goes', () => {
    const [, schema] = threeplyRequests('single-enhanced', loadTradeSecretModel()).argument as [string, z.ZodType];
    const sent = jsonSchemaFor(schema) as { properties: Record<string, unknown>; required: string[] };
    const shape = Object.keys(sent.properties);
    expect(shape).toEqual(['reasoning', ...PLY_KEYS]);
    expect(sent.required).toEqual(shape);
    // every example output in the prompt lists the keys in the schema's order
    const examples = ENHANCED_SINGLE_AGENT_SYSTEM.split('Example output').slice(1);
    expect(examples).toHaveLength(2);
    for (const e of examples)
      expect([...e.matchAll(/"(reasoning|Plaintiff's Argument|Defendant's Counterargument|Plaintiff's Rebuttal)":/g)].map((m) => m[1])).toEqual(shape);
    expect(ENHANCED_SINGLE_AGENT_SYSTEM).toContain(`write "TERMINATE: <reason>" as the "Plaintiff's Argument"`);
    expect(ENHANCED_SINGLE_AGENT_SYSTEM).not.toMatch(/final line must be/);
  });

  it('a run: the reasoning is written first, an abstention in the Plaintiff’s Argument counts, and the Distiller never sees the reasoning', async () => {
    const runDir = join(dir, 'sa-ep');
    const before = srv.requests.length;
    const r = await cli('single-enhanced', runDir);
    expect(r.code, r.err).toBe(0);
    const sent = srv.requests.slice(before);
    const agent = sent.filter((q) => threeplyRole(q) === 'single-enhanced');
    expect(agent).toHaveLength(4);
    for (const q of agent) {
      const schema = q.body.response_format.json_schema.schema;
      expect(Object.keys(schema.properties)).toEqual(['reasoning', ...PLY_KEYS]);
      expect(schema.required).toEqual(['reasoning', ...PLY_KEYS]);
    }
    const ids = ['arguable-001', 'arguable-002', 'mismatched-001', 'mismatched-002'];
    const byId = Object.fromEntries(ids.map((id) => [id, JSON.parse(readFileSync(tracePath(runDir, id), 'utf8'))]));
    // the arguable triples are argued, the mismatched ones abstained on at the Plaintiff's Argument
    expect(ids.map((id) => [byId[id].abstained, byId[id].terminatedAt])).toEqual([
      [false, null],
      [false, null],
      [true, 'plaintiff'],
      [true, 'plaintiff'],
    ]);
    expect(byId['mismatched-001'].plies).toEqual({ plaintiff: 'TERMINATE: a precedent cannot be cited by its side.' });
    expect(Object.keys(byId['arguable-001'].plies)).toEqual(['plaintiff', 'defendant', 'rebuttal']);
    for (const id of ids) expect(JSON.stringify(byId[id].plies)).not.toContain('Step 1');
    // the reasoning is in the trace (the agent's reply) only
    expect(String(byId['arguable-001'].steps[0].output)).toContain('Step 1');
    const distiller = sent.filter((q) => threeplyRole(q) === 'distiller');
    expect(distiller).toHaveLength(2);
    for (const q of distiller) expect(userText(q)).not.toMatch(/reasoning|Step 1/);
  });

  it('is in the request fingerprint: SA keeps the one older runs recorded, SA-EP has a new one, and a resume of an older SA-EP run is refused', async () => {
    const factors = loadTradeSecretModel();
    // the `argument` parts config.json recorded before this change (lexcase ee98543)
    expect(requestFingerprint(threeplyRequests('single', factors)).parts.argument).toBe('86f6e33b385648c5');
    expect(requestFingerprint(threeplyRequests('single-enhanced', factors)).parts.argument).not.toBe('4c58dc64a1cfa000');
    const runDir = join(dir, 'sa-ep-old');
    expect((await cli('single-enhanced', runDir)).code).toBe(0);
    const cfgPath = join(runDir, 'config.json');
    const cfg = JSON.parse(readFileSync(cfgPath, 'utf8'));
    // the run dir as the older lexcase left it: its SA-EP prompt and three-ply schema
    cfg.config.prompts = {
      sha256: '65c29d3ea3d40471e6fbfbd78c808e6784aae787f974569802b0b69604addfa6',
      parts: { argument: '4c58dc64a1cfa000', distiller: cfg.config.prompts.parts.distiller },
    };
    writeFileSync(cfgPath, JSON.stringify(cfg));
    const resumed = await cli('single-enhanced', runDir);
    expect(resumed.code).not.toBe(0);
    expect(resumed.err).toMatch(/prompts\.parts\.argument/);
  });
});
