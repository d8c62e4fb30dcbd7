/**
 * `lexcase run threeply` end to end in-process: real ChatOpenAI client configured through the
 * environment, against the scripted server playing a rule-following team; then resume, and the
 * clear failures (no endpoint, unknown scenario).
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rulesScript, threeplyRole } from '../../../agents/threeply/test-support/scripted-threeply.js';
import { startScriptedServer, type ScriptedServer } from '../../../tests/support/scripted-openai-server.js';
import { register } from './run-plugins.js';
import { expectResumeOnOtherServerRefused } from '../../../tests/support/resume-other-server.js';
import { programWith, runCli } from '../../../tests/support/run-cli.js';

let dir: string;
let srv: ScriptedServer;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'threeply-cli-'));
  srv = await startScriptedServer(rulesScript());
});
afterAll(async () => {
  // the LLM_* variables set here are put back by the per-file reset (tests/support/shared-state-setup.ts)
  await srv.close();
  rmSync(dir, { recursive: true, force: true });
});

const useServer = () => Object.assign(process.env, { LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'scripted', LEXCASE_LLM_MAX_RETRIES: '0' });

const cli = (...args: string[]) => runCli(args, programWith(register));

describe('lexcase run threeply', () => {
  it('runs the reflective system over all three scenarios and reports the paper’s metrics per scenario', async () => {
    useServer();
    const out = join(dir, 'reflective');
    const r = await cli(
      '--json',
      'run',
      'threeply',
      '--scenarios',
      'arguable,mismatched,non-arguable',
      '--n',
      '2',
      '--seed',
      '5',
      '--run-dir',
      out,
      '--no-cache',
    );
    expect(r.code, r.err).toBe(0);
    const j = JSON.parse(r.out);
    expect(j).toMatchObject({ ran: 6, skipped: 0, failed: 0 });
    const by = Object.fromEntries(j.scenarios.map((s: { mode: string }) => [s.mode, s]));
    expect(by.arguable).toMatchObject({ n: 2, abstained: 0, hallucinationAccuracy: 1 });
    expect(by.arguable.factorUtilizationRecall).toBeGreaterThan(0);
    expect(by.mismatched).toMatchObject({ n: 2, abstained: 2, abstentionRatio: 1, factorUtilizationRecall: 0 });
    expect(by['non-arguable']).toMatchObject({ n: 2, abstained: 2, abstentionRatio: 1 });

    const results = readFileSync(join(out, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(results.map((x) => x.id).sort()).toEqual([
      'arguable-001',
      'arguable-002',
      'mismatched-001',
      'mismatched-002',
      'non-arguable-001',
      'non-arguable-002',
    ]);
    expect(results.every((x) => x.correct)).toBe(true);
    expect(results.find((x) => x.id === 'arguable-001').tokens.calls).toBe(10); // 3 plies × (developer, analyst, polisher) + distiller
    expect(readdirSync(join(out, 'traces'))).toHaveLength(6);
    const trace = JSON.parse(readFileSync(join(out, 'traces', 'mismatched-001.json'), 'utf8'));
    expect(trace).toMatchObject({ system: 'reflective', abstained: true, terminatedAt: 'plaintiff' });
    expect(trace.steps.map((s: { role: string }) => s.role)).toEqual(['developer', 'analyst']);
    const report = readFileSync(join(out, 'report.md'), 'utf8');
    expect(report).toMatch(/## 3-ply arguments[\s\S]*\| reflective \| non-arguable +\| +2 \|/);
    expect(report).toMatch(/## Accuracy/i);
    const rj = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(rj.sections.threeply.scenarios.map((x: { mode: string }) => x.mode)).toEqual(['arguable', 'mismatched', 'non-arguable']);
    // generation at the paper's max_tokens, the distiller at temperature 0
    const gen = srv.requests.find((q) => threeplyRole(q) === 'developer')!;
    expect(gen.body.max_tokens ?? gen.body.max_completion_tokens).toBe(1000);
    expect(srv.requests.find((q) => threeplyRole(q) === 'distiller')!.body.temperature).toBe(0);
  });

  it('resumes a finished run without calling the model again', async () => {
    useServer();
    const before = srv.requests.length;
    const r = await cli(
      '--json',
      'run',
      'threeply',
      '--scenarios',
      'arguable,mismatched,non-arguable',
      '--n',
      '2',
      '--seed',
      '5',
      '--run-dir',
      join(dir, 'reflective'),
      '--no-cache',
    );
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ ran: 0, skipped: 6 });
    expect(srv.requests.length).toBe(before);
  });

  it("a resumed run's summary prints the whole run's tokens (report.md's total), not this call's 0", async () => {
    useServer();
    const out = join(dir, 'reflective');
    const args = ['run', 'threeply', '--scenarios', 'arguable,mismatched,non-arguable', '--n', '2', '--seed', '5', '--run-dir', out, '--no-cache'];
    const r = await cli(...args);
    expect(r.code, r.err).toBe(0);
    const total = readFileSync(join(out, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .reduce((s, l) => s + JSON.parse(l).tokens.total, 0);
    expect(total).toBeGreaterThan(1000);
    expect(readFileSync(join(out, 'report.md'), 'utf8')).toMatch(new RegExp(`\\| total +\\| +${total.toLocaleString('en-US')} \\|`));
    // before: "run dir: … (ran 0, resumed past 6, failed 0); tokens 0"
    expect(r.out).toContain(`run dir: ${out}: ran 0, skipped 6 (already done), failed 0; tokens ${total.toLocaleString('en-US')} (whole run; this call 0)`);
    expect(JSON.parse((await cli('--json', ...args)).out)).toMatchObject({ runTokens: total, tokens: { total: 0 } });
  });

  it('--limit N runs the first N triples (scenario order), as on the other systems; a larger --limit grows the run', async () => {
    useServer();
    const out = join(dir, 'limited');
    const args = (limit: string) =>
      cli('--json', 'run', 'threeply', '--scenarios', 'mismatched,arguable', '--n', '2', '--limit', limit, '--seed', '5', '--run-dir', out, '--no-cache');
    const r = await args('3');
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ ran: 3, skipped: 0, failed: 0 });
    const ids = () =>
      readFileSync(join(out, 'results.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id)
        .sort();
    expect(ids()).toEqual(['arguable-001', 'mismatched-001', 'mismatched-002']);
    expect(JSON.parse(readFileSync(join(out, 'config.json'), 'utf8')).config).toMatchObject({ n: 2, limit: 3 });
    const grown = await args('4');
    expect(grown.code, grown.err).toBe(0);
    expect(JSON.parse(grown.out)).toMatchObject({ ran: 1, skipped: 3 });
    expect(ids()).toEqual(['arguable-001', 'arguable-002', 'mismatched-001', 'mismatched-002']);
    const zero = await args('0');
    expect(zero.code).toBe(1);
    expect(zero.err).toMatch(/--limit/);
  });

  it('config.json records the endpoint, provider and sampling: a resume against another server is refused (field "model" differs)', async () => {
    useServer();
    const out = join(dir, 'endpoint');
    await expectResumeOnOtherServerRefused(
      {
        other: await startScriptedServer(rulesScript()),
        primary: srv.url,
        out,
        run: (limit) =>
          cli('--json', 'run', 'threeply', '--scenarios', 'arguable', '--n', '2', '--limit', limit, '--seed', '5', '--run-dir', out, '--no-cache'),
      },
      (model) => {
        expect(model).toMatchObject({ maxTokens: 1000, temperature: 0 });
        expect(model.apiKey).toBeUndefined(); // no key configured; a key would read '***'
      },
    );
  });

  it("config.json records the temperature each role sends: the agents' (llm.temperature 0.9) and the Factor Distiller's (0)", async () => {
    useServer();
    process.env.LEXCASE_LLM_TEMPERATURE = '0.9';
    const out = join(dir, 'role-temperatures');
    const before = srv.requests.length;
    try {
      const r = await cli('--json', 'run', 'threeply', '--scenarios', 'arguable', '--n', '1', '--seed', '5', '--run-dir', out, '--no-cache');
      expect(r.code, r.err).toBe(0);
    } finally {
      delete process.env.LEXCASE_LLM_TEMPERATURE;
    }
    const sent = srv.requests.slice(before);
    // the paper's top_p 1 and max_tokens 1000 on every request, the evaluator's too (before: top_p declared, never sent)
    expect([...new Set(sent.map((x) => x.body.top_p))]).toEqual([1]);
    expect([...new Set(sent.map((x) => x.body.max_tokens))]).toEqual([1000]);
    const wire = (distiller: boolean) => [...new Set(sent.filter((x) => (threeplyRole(x) === 'distiller') === distiller).map((x) => x.body.temperature))];
    const config = JSON.parse(readFileSync(join(out, 'config.json'), 'utf8')).config;
    expect(wire(true)).toEqual([config.evaluatorTemperature]);
    expect(config.evaluatorTemperature).toBe(0);
    expect(wire(false)).toEqual([config.temperature]);
    expect(config.temperature).toBe(0.9);
  });

  it('runs a baseline as a different system in its own run dir', async () => {
    useServer();
    const r = await cli(
      '--json',
      'run',
      'threeply',
      '--scenarios',
      'non-arguable',
      '--n',
      '1',
      '--system',
      'single',
      '--run-dir',
      join(dir, 'single'),
      '--no-cache',
    );
    // the rules script's single agent argues whatever the triple (SA's prompt asks for no TERMINATE)
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ ran: 1, failed: 0 });
    expect(JSON.parse(readFileSync(join(dir, 'single', 'config.json'), 'utf8')).config.variant).toBe('single');
    expect(readFileSync(join(dir, 'single', 'results.jsonl'), 'utf8')).toContain('"prediction":"argue"');
  });

  it('--evaluator-model on a server that lists both models runs, and says no server change (before: stopped as a model swap)', async () => {
    const both = await startScriptedServer(rulesScript(), { models: ['scripted', 'judge-model'] });
    try {
      Object.assign(process.env, { LEXCASE_LLM_BASE_URL: both.url, LEXCASE_LLM_MODEL: 'scripted', LEXCASE_LLM_MAX_RETRIES: '0' });
      const out = join(dir, 'evaluator');
      const r = await cli(
        '--json',
        'run',
        'threeply',
        '--scenarios',
        'arguable',
        '--n',
        '2',
        '--system',
        'single',
        '--evaluator-model',
        'judge-model',
        '--run-dir',
        out,
        '--no-cache',
      );
      expect(r.code, r.err).toBe(0);
      expect(JSON.parse(r.out)).toMatchObject({ ran: 2, failed: 0 });
      expect(both.requests.some((q) => q.body.model === 'judge-model')).toBe(true);
      expect(r.err).not.toMatch(/described the model otherwise/);
      const line = JSON.parse(readFileSync(join(out, 'results.jsonl'), 'utf8').split('\n')[0]);
      // each model's replies under its own identity, both recorded
      expect(Object.keys(line.serverIdentities).sort()).toEqual([
        expect.stringMatching(/^"judge-model" \(GET \/models entry [0-9a-f]{12}\)$/),
        expect.stringMatching(/^"scripted" \(GET \/models entry [0-9a-f]{12}\)$/),
      ]);
      expect(readFileSync(join(out, 'report.md'), 'utf8')).not.toMatch(/server identities/);
    } finally {
      await both.close();
    }
  });

  it('refuses a scenario listed twice and more case-base triples than there are, before any request (helper audit)', async () => {
    useServer();
    const before = srv.requests.length;
    // before: arguable ran once and config.json recorded it once, with no word
    const twice = await cli('run', 'threeply', '--scenarios', 'arguable,arguable', '--n', '1', '--run-dir', join(dir, 'twice'), '--no-cache');
    expect(twice.code).toBe(1);
    expect(twice.err).toContain('--scenarios entry "arguable" is listed twice: list each --scenarios entry once.');
    // before: 300 items over 205 distinct triples, 95 of them copies scored as more items (narrower intervals)
    const many = await cli(
      'run',
      'threeply',
      '--scenarios',
      'non-arguable',
      '--source',
      'casebase',
      '--n',
      '300',
      '--run-dir',
      join(dir, 'many'),
      '--no-cache',
    );
    expect(many.code).toBe(1);
    expect(many.err).toMatch(/the case base holds 205 distinct non-arguable triples; 300 would repeat 95 of them/);
    expect(srv.requests.length).toBe(before);
    expect(existsSync(join(dir, 'many', 'results.jsonl'))).toBe(false);
  });

  it('stops with LLM_NOT_CONFIGURED guidance when no endpoint is configured', async () => {
    Object.assign(process.env, { LEXCASE_LLM_BASE_URL: '', LEXCASE_LLM_MODEL: '', OPENAI_BASE_URL: '' });
    const r = await cli('run', 'threeply', '--n', '1', '--run-dir', join(dir, 'none'));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/this command needs an LLM, and no endpoint is configured[\s\S]*LEXCASE_LLM_BASE_URL/);
    expect(existsSync(join(dir, 'none'))).toBe(false);
  });

  it('rejects an unknown scenario, naming the valid ones', async () => {
    useServer();
    const r = await cli('run', 'threeply', '--scenarios', 'arguable,easy', '--n', '1', '--run-dir', join(dir, 'bad'));
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/unknown scenario "easy"[\s\S]*arguable, mismatched, non-arguable/);
  });

  it('refuses --complexity with --source casebase: real cases keep their own factors (it reseeded their order and was recorded as if it set them)', async () => {
    useServer();
    const before = srv.requests.length;
    const out = join(dir, 'casebase-k3');
    const r = await cli('run', 'threeply', '--source', 'casebase', '--complexity', '3', '--n', '1', '--run-dir', out);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/--complexity 3: it sets the factor counts of synthetic triples .*--source casebase runs real CATO cases with their own factors/);
    expect(srv.requests.length).toBe(before);
    expect(existsSync(out)).toBe(false);
  });
});
