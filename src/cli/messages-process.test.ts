/**
 * Issue 37, item 17: messages that were not true. Each case drives the BUILT CLI (a child process),
 * /v1 over HTTP or MCP over stdio as a user meets it, and checks the one line the user reads — and
 * that nothing else happened (no run dir written, no server left running, no stack trace).
 * Before (717d8fa), in the order below: a corpus file given as --index got "build one with: lexcase
 * index build <corpus> --out p.jsonl"; a folder without passages "corpus not found"; a directory
 * as the run file "run file not found"; a recipe typo no did-you-mean; `search ''` exit 0; `serve
 * --runs nope` started without a word; `reproduce anserini-cacm` without --data wrote a run dir
 * and printed the CACM hint 5 times; `user:pass@` in the endpoint "not reachable"; /v1 and MCP
 * answered offline counter-evidence without facts with "pass --facts TEXT or --question ID".
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, isolatedEnv, lexcase, STACK_TRACE } from '../../tests/support/spawn-cli.js';
import { startServerChild, stdioMcp } from '../mcp/test-support/children.js';

let dir: string;
const run = (args: string[], env?: Record<string, string | undefined>) => lexcase(args, { cwd: dir, env: isolatedEnv(env), timeoutMs: 60_000 });
/** One error line (+ its hint), exit 1, no stack trace, not killed. */
function refused(r: { code: number | null; signal: NodeJS.Signals | null; stderr: string }): string {
  expect(r.signal, r.stderr).toBeNull();
  expect(r.code, r.stderr).toBe(1);
  expect(r.stderr).not.toMatch(STACK_TRACE);
  expect(r.stderr.match(/^\[error\]/gm), r.stderr).toHaveLength(1);
  return r.stderr;
}

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-messages-'));
  writeFileSync(
    join(dir, 'p.jsonl'),
    [
      'a contract needs offer, acceptance and consideration',
      'negligence: duty, breach, causation, damages',
      'hearsay is an out of court statement offered for its truth',
    ]
      .map((t, i) => JSON.stringify({ id: `p${i}`, text: t }))
      .join('\n') + '\n',
  );
  const b = await run(['index', 'build', 'p.jsonl', '--out', 'ix']);
  expect(b.code, b.stderr).toBe(0);
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the CLI says what is wrong with what was given', () => {
  it('a corpus file as --index: "is a file, not a lexcase index", and the hint builds FROM it, not into it', async () => {
    const e = refused(await run(['search', 'contract', '--index', 'p.jsonl']));
    expect(e).toContain('[error] p.jsonl is a file, not a lexcase index (an index is a directory holding manifest.json)');
    expect(e).toContain('hint: give the index directory; to build one from this file: lexcase index build p.jsonl --out DIR');
    expect(e).not.toContain('--out p.jsonl');
  }, 120_000);

  it('a folder without passages: names the folder and the files looked for, not "corpus not found"', async () => {
    mkdirSync(join(dir, 'nopassages'), { recursive: true });
    writeFileSync(join(dir, 'nopassages', 'notes.txt'), 'x');
    const e = refused(await run(['index', 'build', 'nopassages', '--out', 'ix-none']));
    expect(e).toContain(
      '[error] nopassages is a folder without a passages file (looked for passages.jsonl, passages.jsonl.gz, passages.csv, passages.tsv, passages.parquet)',
    );
    expect(e).not.toContain('corpus not found');
    expect(existsSync(join(dir, 'ix-none'))).toBe(false);
  }, 120_000);

  it('a directory as the run file of `eval run`: "is a directory, not a file"', async () => {
    mkdirSync(join(dir, 'a-run-dir'), { recursive: true });
    writeFileSync(join(dir, 'q.qrels'), 'q1 0 p0 1\n');
    const e = refused(await run(['eval', 'run', 'a-run-dir', '--qrels', 'q.qrels']));
    expect(e).toContain('[error] run file a-run-dir is a directory, not a file');
    expect(e).not.toContain('not found');
  }, 120_000);

  it('a recipe typo: did you mean the closest recipe, and the list', async () => {
    const e = refused(await run(['reproduce', 'anserini-cacn']));
    expect(e).toMatch(/^\[error\] recipe "anserini-cacn" not found: .*anserini-cacn\.json$/m);
    expect(e).toMatch(/hint: did you mean "anserini-cacm"\? recipes: acal-table3, .*case-table2, .*threeply-table4/);
  }, 120_000);

  it('`search \'\'` is refused like /v1 and MCP refuse it (before: exit 0, "no hits")', async () => {
    const e = refused(await run(['search', '  ', '--index', 'ix']));
    expect(e).toContain('[error] the query is empty');
  }, 120_000);

  it('`serve --runs nope` stops with one line instead of starting; an empty --runs folder is said', async () => {
    const e = refused(await run(['serve', '--runs', 'nope', '--port', '0']));
    expect(e).toContain('[error] --runs folder not found: nope');
    mkdirSync(join(dir, 'no-runs-yet'), { recursive: true });
    const s = await startServerChild(['serve', '--runs', 'no-runs-yet', '--port', '0'], { cwd: dir, env: isolatedEnv() });
    try {
      expect(s.stderr()).toContain('[warn] --runs no-runs-yet holds no run directory yet: the runs views stay empty until a run is written under it');
    } finally {
      expect(await s.stop()).toBe(0);
    }
  }, 120_000);

  it('`reproduce anserini-cacm` without --data: one error, its hint once, no run dir written', async () => {
    const e = refused(await run(['reproduce', 'anserini-cacm', '--run-dir', 'cacm-repro']));
    expect(e).toContain('[error] the CACM recipe needs your copy of CACM: pass --data FOLDER');
    expect(e.match(/CACM is not bundled/g)).toHaveLength(1);
    expect(existsSync(join(dir, 'cacm-repro'))).toBe(false);
  }, 120_000);

  it('user:pass@ in the endpoint URL: said so (the client cannot send them), not "not reachable"; the password in no output', async () => {
    const r = await run(['run', 'baseline', '--mode', 'llm-only', '--limit', '1', '--run-dir', 'creds-run'], {
      LEXCASE_LLM_BASE_URL: 'http://alice:s3cretPW@127.0.0.1:9/v1',
      LEXCASE_LLM_MODEL: 'm',
    });
    const e = refused(r);
    expect(e).toContain(
      "[error] the LLM endpoint http://***:***@127.0.0.1:9/v1 holds a user name and password (user:pass@), which lexcase's HTTP client cannot send; nothing was run",
    );
    expect(e).toContain('hint: take them out of the URL; give the key in LEXCASE_LLM_API_KEY');
    expect(e).not.toContain('not reachable');
    expect(r.stdout + r.stderr).not.toContain('s3cretPW');
    expect(existsSync(join(dir, 'creds-run'))).toBe(false);
  }, 120_000);
});

describe('/v1 and MCP errors name their own fields, not CLI flags', () => {
  const hypothesis = 'A promise without consideration is enforceable';

  it('/v1/evidence: offline counter-evidence without facts is a 400 naming the field facts', async () => {
    const s = await startServerChild(['serve', '--api', '--index', 'ix', '--port', '0'], { cwd: dir, env: isolatedEnv() });
    try {
      const res = await fetch(`${s.info.url.replace(/\/+$/, '').replace(/\/v1$/, '')}/v1/evidence`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ hypothesis, stance: 'against', mode: 'offline' }),
      });
      const body = JSON.stringify(await res.json());
      expect(res.status, body).toBe(400);
      expect(body).toContain('offline counter-evidence (stance \\"against\\" without an LLM) needs the facts of the case: give facts');
      expect(body).not.toMatch(/--facts|--question/);
    } finally {
      await s.stop();
    }
  }, 120_000);

  it('MCP find_evidence: the same, as a tool error', async () => {
    const m = await stdioMcp(['--index', join(dir, 'ix')], { cwd: dir, env: isolatedEnv() });
    try {
      const r = await m.client.callTool({ name: 'find_evidence', arguments: { index: 'ix', hypothesis, stance: 'against', mode: 'offline' } });
      const text = JSON.stringify(r.content);
      expect(r.isError, text).toBe(true);
      expect(text).toContain('needs the facts of the case: give facts');
      expect(text).not.toMatch(/--facts|--question/);
    } finally {
      await m.close();
    }
  }, 120_000);

  it('the CLI still names its flags', async () => {
    const e = refused(await run(['evidence', hypothesis, '--index', 'ix', '--against', '--offline']));
    expect(e).toContain('[error] offline counter-evidence needs the facts of the case');
    expect(e).toContain('hint: pass --facts TEXT or --question ID (or configure an LLM)');
  }, 120_000);
});
