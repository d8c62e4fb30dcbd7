/**
 * `lexcase run <system>` for every system, `report`, `compare`, `acal show|contest`, `evidence`, as a
 * user runs them: the built binary in a child process, offline where a system has an offline path
 * and otherwise against the scripted OpenAI-compatible server (one script answering every system:
 * tests/support/scripted-all.ts) configured through the environment, as a user
 * configures an endpoint. Checks exit codes, run dirs (config.json, results.jsonl, traces/,
 * reports), what the server was asked, and that a missing or unreachable endpoint stops the run.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedAll } from '../support/scripted-all.js';
import { startScriptedServer, type ScriptedServer } from '../support/scripted-openai-server.js';
import { ensureBuilt, isolatedEnv, lexcase, STACK_TRACE } from '../support/spawn-cli.js';
import { sharedUserIndex } from './cli-fixtures.js';

let dir: string;
let idx: string;
let srv: ScriptedServer;
let llmEnv: Record<string, string | undefined>;

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-cli-run-'));
  idx = (await sharedUserIndex(dir, { extra: 200 })).idx;
  srv = await startScriptedServer(scriptedAll());
  llmEnv = isolatedEnv({ LEXCASE_LLM_BASE_URL: srv.url, LEXCASE_LLM_MODEL: 'scripted', LEXCASE_LLM_API_KEY: 'sk-test', LEXCASE_LLM_MAX_RETRIES: '0' });
}, 600_000);

afterAll(async () => {
  await srv?.close();
  rmSync(dir, { recursive: true, force: true });
});

const noTrace = (r: { stdout: string; stderr: string }) => expect(STACK_TRACE.test(r.stdout + r.stderr), r.stderr).toBe(false);
const results = (runDir: string) =>
  readFileSync(join(runDir, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { id: string; prediction: unknown; error?: string });
const llm = (args: string[]) => lexcase(args, { cwd: dir, env: llmEnv });

describe('lexcase run case / baseline / report / compare', () => {
  const offline = () => join(dir, 'runs/case-offline');
  const online = () => join(dir, 'runs/case-llm');

  it('run case --offline: no LLM, a run dir with config, results and traces', async () => {
    const r = await lexcase(['run', 'case', '--offline', '--index', idx, '--limit', '3', '--run-dir', offline()], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    noTrace(r);
    expect(r.stdout).toMatch(/offline heuristic, no LLM/);
    expect(results(offline())).toHaveLength(3);
    const cfg = JSON.parse(readFileSync(join(offline(), 'config.json'), 'utf8'));
    expect(cfg.provenance).toMatchObject({ datasetChecksum: expect.any(String), lexcaseVersion: expect.any(String) });
    expect(readdirSync(join(offline(), 'traces'))).toHaveLength(3);
  });

  it('run case against an endpoint from the environment: advocates call tools, jurors vote, every item answered', async () => {
    const before = srv.requests.length;
    const r = await llm(['run', 'case', '--index', idx, '--limit', '3', '--jurors', '3', '--run-dir', online(), '--no-cache']);
    expect(r.code, r.stderr).toBe(0);
    noTrace(r);
    const rows = results(online());
    expect(rows).toHaveLength(3);
    expect(rows.filter((x) => x.error)).toEqual([]);
    const asked = srv.requests.slice(before);
    expect(asked.some((q) => Array.isArray(q.body.tools) && q.body.tools.length > 0)).toBe(true);
    expect(asked.some((q) => /juror on a panel/.test(JSON.stringify(q.body.messages)))).toBe(true);
    // the key is sent to the endpoint and never written into the run dir
    expect(asked[0].headers.authorization).toBe('Bearer sk-test');
    expect(readFileSync(join(online(), 'config.json'), 'utf8')).not.toMatch(/sk-test/);
  });

  it('report writes report.md and report.json; compare pairs the shared items', async () => {
    const r = await lexcase(['report', online()]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(online(), 'report.md'), 'utf8')).toMatch(/accuracy/i);
    expect(JSON.parse(readFileSync(join(online(), 'report.json'), 'utf8'))).toBeTypeOf('object');
    const c = await lexcase(['--json', 'compare', offline(), online(), '--iterations', '200']);
    expect(c.code, c.stderr).toBe(0);
    expect(JSON.stringify(JSON.parse(c.stdout))).toMatch(/"n":3|"shared":3|"items":3/);
  });

  it('run baseline --mode bm25-rag: one answer per question from the endpoint', async () => {
    const runDir = join(dir, 'runs/bm25-rag');
    const r = await llm(['run', 'baseline', '--mode', 'bm25-rag', '--index', idx, '--limit', '2', '--run-dir', runDir, '--no-cache']);
    expect(r.code, r.stderr).toBe(0);
    expect(results(runDir).filter((x) => !x.error)).toHaveLength(2);
  });

  it('evidence: the offline advocate prints passages for a hypothesis; with --json they are ids with scores', async () => {
    const r = await lexcase(['--json', 'evidence', 'The statement is inadmissible hearsay', '--index', idx, '--offline']);
    expect(r.code, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(JSON.stringify(j)).toMatch(/"id":"[^"]+"/);
  });

  it('with no endpoint configured, an LLM run stops at once and says how to configure one', async () => {
    const r = await lexcase(['run', 'case', '--index', idx, '--limit', '1', '--run-dir', join(dir, 'runs/none')], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/LEXCASE_LLM_BASE_URL/);
    noTrace(r);
  });

  it('an unreachable endpoint stops the run before any item, with one clear error (issue 25: ~15 s of retries per item, exit 0)', async () => {
    const port = await new Promise<number>((res) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => res(p));
      });
    });
    const runDir = join(dir, 'runs/unreachable');
    const r = await lexcase(['run', 'case', '--index', idx, '--limit', '3', '--run-dir', runDir], {
      cwd: dir,
      env: isolatedEnv({ LEXCASE_LLM_BASE_URL: `http://127.0.0.1:${port}/v1`, LEXCASE_LLM_MODEL: 'm', LEXCASE_LLM_API_KEY: 'sk-x' }),
      timeoutMs: 30_000,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/127\.0\.0\.1:\d+/);
    expect(existsSync(join(runDir, 'results.jsonl')) ? results(runDir) : []).toEqual([]);
    noTrace(r);
  });

  it('run case takes --endpoint and --model like reproduce (issue 25: only reproduce had them)', async () => {
    const runDir = join(dir, 'runs/endpoint-flag');
    const r = await lexcase(['run', 'case', '--index', idx, '--limit', '1', '--endpoint', srv.url, '--model', 'scripted', '--run-dir', runDir, '--no-cache'], {
      cwd: dir,
      env: isolatedEnv({ LEXCASE_LLM_API_KEY: 'sk-x' }),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(results(runDir)).toHaveLength(1);
  });
});

describe('lexcase run acal / acal show / acal contest', () => {
  const runDir = () => join(dir, 'runs/acal');

  it('run acal --task hearsay: a graph per item and the ACAL report', async () => {
    const r = await llm(['run', 'acal', '--task', 'hearsay', '--limit', '2', '--index', idx, '--run-dir', runDir(), '--iterations', '200', '--no-cache']);
    expect(r.code, r.stderr).toBe(0);
    noTrace(r);
    expect(results(runDir())).toHaveLength(2);
    expect(existsSync(join(runDir(), 'acal/hearsay-test-0.graph.json'))).toBe(true);
    expect(readFileSync(join(runDir(), 'acal-report.md'), 'utf8')).toMatch(/ACAL/);
  });

  it('acal contest rejects an argument, recomputes and appends to the audit log; acal show prints it', async () => {
    const g = JSON.parse(readFileSync(join(runDir(), 'acal/hearsay-test-0.graph.json'), 'utf8'));
    const arg = g.arguments[0].id as string;
    const c = await lexcase(['--json', 'acal', 'contest', runDir(), '--item', 'hearsay-test-0', '--action', 'reject', '--arg', arg, '--who', 'alice']);
    expect(c.code, c.stderr).toBe(0);
    expect(JSON.parse(c.stdout).entry).toMatchObject({ who: 'alice', revision: 1, action: { type: 'reject', argument: arg } });
    expect(readFileSync(join(runDir(), 'acal/audit.jsonl'), 'utf8').trim().split('\n')).toHaveLength(1);
    const s = await lexcase(['acal', 'show', runDir(), '--item', 'hearsay-test-0', '--audit']);
    expect(s.code, s.stderr).toBe(0);
    expect(s.stdout).toMatch(/alice/);
  });
});

describe('lexcase run mad / threeply / emar', () => {
  it('run mad: debaters, a judge, one result per question', async () => {
    const runDir = join(dir, 'runs/mad');
    const r = await llm(['run', 'mad', '--index', idx, '--limit', '2', '--rounds', '1', '--run-dir', runDir, '--no-cache']);
    expect(r.code, r.stderr).toBe(0);
    noTrace(r);
    expect(results(runDir).filter((x) => !x.error)).toHaveLength(2);
  });

  it('run threeply: the triples of each scenario, with the per-scenario report', async () => {
    const runDir = join(dir, 'runs/threeply');
    const r = await llm(['run', 'threeply', '--scenarios', 'arguable,non-arguable', '--n', '1', '--run-dir', runDir, '--no-cache']);
    expect(r.code, r.stderr).toBe(0);
    noTrace(r);
    expect(results(runDir)).toHaveLength(2);
  });

  it('run emar: facts, argument rounds to convergence, a judge', async () => {
    const runDir = join(dir, 'runs/emar');
    const r = await llm(['run', 'emar', '--limit', '2', '--run-dir', runDir, '--no-cache']);
    expect(r.code, r.stderr).toBe(0);
    noTrace(r);
    expect(results(runDir).filter((x) => !x.error)).toHaveLength(2);
  });
});
