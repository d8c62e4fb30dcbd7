/**
 * LLM faults as a user meets them: `lexcase run case` (the built CLI, a child process) against
 * local servers on 127.0.0.1 that misbehave (issue 26, items 4, 5, 7 and 10):
 *  - credentials in the endpoint URL are written nowhere (config.json, report.json, traces, output);
 *  - a server that sends `200` headers and then nothing no longer keeps the run waiting: the item
 *    fails with a timeout after about LEXCASE_LLM_TIMEOUT_MS per attempt;
 *  - an HTML `200` is retried and the item's error says an HTML page came back;
 *  - items that failed on malformed output recover on resume once the server is fixed (the cache
 *    no longer serves the malformed replies), and the resume may raise maxRetries / timeoutMs and
 *    turn the cache off (only result-changing config fields must match).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPassages, loadQuestions } from '../../corpora/registry.js';
import type { Passage } from '../../corpora/types.js';
import { buildIndex } from '../../indexer/build.js';
import { cliChild } from '../../tests/support/cli-child.js';
import { startFaultyServer } from '../../tests/support/faulty-http-server.js';
import { startScriptedServer, type RecordedRequest, type ScriptReply } from '../../tests/support/scripted-openai-server.js';

let dir: string;
let index: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-llm-faults-'));
  index = join(dir, 'idx');
  const gold = new Set((await loadQuestions('barexam', 'val')).slice(0, 2).flatMap((q) => q.goldPassageIds));
  const passages: Passage[] = [];
  for await (const p of loadPassages('barexam')) if (gold.has(p.id)) passages.push(p);
  let n = 0;
  for await (const p of loadPassages('legal_corpus')) if (n++ < 200) passages.push(p);
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out: index, corpusName: 'test', workers: 0 },
  );
}, 120_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const body = (req: RecordedRequest) => JSON.stringify(req.body.messages);

/** Advocates search once and cite what came back; jurors vote B (or answer `juror` when given). */
function caseScript(juror: () => ScriptReply = () => ({ content: JSON.stringify({ reasoning: 'weighed', vote: 'B' }) })) {
  return (req: RecordedRequest): ScriptReply => {
    if (/juror on a panel/.test(body(req))) return juror();
    const toolMsgs = (req.body.messages as { role: string; content: string }[]).filter((m) => m.role === 'tool');
    if (toolMsgs.length === 0) return { toolCalls: [{ name: 'bm25_search', args: { query: 'negligence duty of care', k: 3 } }] };
    const ids = toolMsgs.flatMap((m) => JSON.parse(m.content).results.map((x: { id: string }) => x.id));
    return { content: JSON.stringify({ evidence: ids.slice(0, 2).map((id: string) => ({ id, justification: 'on point' })) }) };
  };
}

const llmEnv = (url: string, extra: Record<string, string> = {}) => ({
  LEXCASE_LLM_BASE_URL: url,
  LEXCASE_LLM_MODEL: 'scripted',
  LEXCASE_LLM_API_KEY: '',
  OPENAI_API_KEY: '',
  LEXCASE_LLM_RETRY_BASE_MS: '1',
  LEXCASE_CACHE_DIR: join(dir, 'cache'),
  // these servers misbehave on purpose per request: the per-request guarantees are under test here,
  // not the preflight before the first item (core/llm/preflight.test.ts, src/cli/llm-process.test.ts)
  LEXCASE_LLM_PREFLIGHT: '0',
  ...extra,
});

const runCase = (runDir: string, limit = 1, extra: string[] = []) => [
  '--json',
  'run',
  'case',
  '--index',
  index,
  '--limit',
  String(limit),
  '--tools',
  'bm25',
  '--run-dir',
  runDir,
  ...extra,
];

/** Every file under `d`, as text. */
function filesOf(d: string): { path: string; text: string }[] {
  return readdirSync(d, { recursive: true, encoding: 'utf8' })
    .map((f) => join(d, f))
    .filter((p) => statSync(p).isFile())
    .map((p) => ({ path: p, text: readFileSync(p, 'utf8') }));
}

const results = (runDir: string) =>
  readFileSync(join(runDir, 'results.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

describe('credentials in the endpoint URL (item 4)', () => {
  it('alice:PASS@ and ?api-key= appear in no file of the run and in no output; config.json shows them masked', async () => {
    const srv = await startScriptedServer(caseScript());
    try {
      const PASS = 's3cretPASSword';
      const KEY = 'k3yABCDEFG12345';
      const url = srv.url.replace('http://', `http://alice:${PASS}@`) + `?api-key=${KEY}`;
      const runDir = join(dir, 'creds');
      const r = await cliChild(runCase(runDir), { env: llmEnv(url) });
      const files = filesOf(runDir);
      expect(files.length).toBeGreaterThan(3);
      for (const f of [...files, { path: 'stdout', text: r.stdout }, { path: 'stderr', text: r.stderr }]) {
        expect(f.text, f.path).not.toContain(PASS);
        expect(f.text, f.path).not.toContain(KEY);
        expect(f.text, f.path).not.toContain('alice');
      }
      const config = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8'));
      expect(config.config.model.baseUrl).toBe(`http://***:***@${new URL(srv.url).host}/v1?api-key=***`);
    } finally {
      await srv.close();
    }
  }, 180_000);
});

describe('a server that sends 200 headers and then nothing (item 5)', () => {
  it('LEXCASE_LLM_TIMEOUT_MS=2000: the item fails with a timeout within seconds, the run ends', async () => {
    const srv = await startFaultyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '500' });
      res.flushHeaders();
    });
    try {
      const runDir = join(dir, 'stall');
      const r = await cliChild(runCase(runDir), { env: llmEnv(srv.url, { LEXCASE_LLM_TIMEOUT_MS: '2000', LEXCASE_LLM_MAX_RETRIES: '1' }), timeoutMs: 150_000 });
      expect(r.signal).toBeNull();
      expect(r.code).toBe(1); // no item succeeded (issue 37 item 17)
      expect(r.stderr).toMatch(/no item succeeded: 1 of 1 failed \(first error: LLM_REQUEST_FAILED: LLM request failed: timeout after 2 attempts/);
      expect(JSON.parse(r.stdout)).toMatchObject({ ran: 1, failed: 1 });
      expect(results(runDir)[0].error).toMatch(/LLM request failed: timeout after 2 attempts: no complete reply within 2000 ms/);
      expect(srv.requests).toBe(2);
    } finally {
      await srv.close();
    }
  }, 180_000);
});

describe('an HTML 200 (item 10)', () => {
  it('is retried, and the failed item says an HTML page came back', async () => {
    const srv = await startFaultyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><head><title>Welcome to nginx!</title></head><body></body></html>');
    });
    try {
      const runDir = join(dir, 'html');
      const r = await cliChild(runCase(runDir), { env: llmEnv(srv.url, { LEXCASE_LLM_MAX_RETRIES: '2' }) });
      expect(r.code).toBe(1); // its only item failed: no item succeeded (issue 37 item 17)
      expect(results(runDir)[0].error).toMatch(/malformed response after 3 attempts: the endpoint answered HTTP 200 with an HTML page \("Welcome to nginx!"\)/);
      expect(srv.requests).toBe(3);
    } finally {
      await srv.close();
    }
  }, 180_000);
});

describe('failed items whose failure was malformed output (item 7)', () => {
  it('recover on resume once the server is fixed; the resume may raise maxRetries and timeoutMs and turn the cache off', async () => {
    let broken = true;
    const srv = await startScriptedServer(
      caseScript(() => (broken ? { content: 'I decline to vote.' } : { content: JSON.stringify({ reasoning: 'weighed', vote: 'B' }) })),
    );
    try {
      const runDir = join(dir, 'malformed');
      const env = llmEnv(srv.url, { LEXCASE_LLM_MAX_RETRIES: '0' });
      const first = await cliChild(runCase(runDir, 2), { env });
      expect(first.code).toBe(1); // no item succeeded (issue 37 item 17); the resume below recovers them
      expect(JSON.parse(first.stdout)).toMatchObject({ ran: 2, failed: 2 });
      broken = false;
      const before = srv.requests.length;
      const resumed = await cliChild(runCase(runDir, 2), { env: { ...env, LEXCASE_LLM_MAX_RETRIES: '6', LEXCASE_LLM_TIMEOUT_MS: '90000' } });
      expect(resumed.stderr).not.toMatch(/differs/);
      expect(resumed.code).toBe(0);
      expect(JSON.parse(resumed.stdout)).toMatchObject({ ran: 2, failed: 0 });
      expect(srv.requests.length - before).toBeGreaterThanOrEqual(6); // 3 jurors per item asked again (before: 0 requests)
      expect(results(runDir).map((x) => x.error ?? null)).toEqual([null, null]);
      const config = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8'));
      expect(config.resumes.at(-1).changed).toMatchObject({ 'model.maxRetries': { from: 0, to: 6 }, 'model.timeoutMs': { from: 120000, to: 90000 } });
      // --no-cache on a resume is accepted too.
      const noCache = await cliChild([...runCase(runDir, 2), '--no-cache'], { env });
      expect(noCache.code).toBe(0);
      expect(JSON.parse(noCache.stdout)).toMatchObject({ ran: 0, skipped: 2 });
    } finally {
      await srv.close();
    }
  }, 300_000);
});
