/**
 * The endpoint of an LLM run as a user meets it (issue 37, items 8, 9, 16, 17): the built CLI in a
 * child process (`lexcase run baseline --mode bm25-rag`, one request per item) against scripted
 * OpenAI-compatible servers on 127.0.0.1.
 *  - the response cache answers only for the server that gave the answer: a second server with
 *    the same model name gets the requests (it got none, and its run dir held the first's answers),
 *    also at the same URL when it lists another model under the name (a model swapped behind
 *    llama.cpp's "local-model"), and a rerun from the cache says how many replies and who wrote them;
 *  - a short key (`none`) is sent, and masked only where it is named as a key: passages, prompts
 *    and run-dir paths are written as they are (they read "*** of the cases" and "/tmp/***" + "/run");
 *  - every query value of the endpoint URL (`?pwd=`, `?jwt=`) reaches the server after the path and
 *    is written nowhere (config.json shows `?pwd=***&jwt=***`), also when the server echoes it;
 *  - a run in which every item failed (HTTP 401) exits 1 with one line saying so, and no message
 *    carries LangChain's "Troubleshooting URL".
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedAll } from '../../tests/support/scripted-all.js';
import { runBuiltCli } from '../../tests/support/run-built-cli.js';
import { startScriptedServer, type RecordedRequest, type ScriptedServer } from '../../tests/support/scripted-openai-server.js';
import { buildMixedIndex } from '../../tests/support/five-systems.js';

let dir: string;
let index: string;
const servers: ScriptedServer[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lexcase-llm-endpoint-'));
  index = (await buildMixedIndex(dir, 2, 200, { hearsay: false })).dir;
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function server(
  script: Parameters<typeof startScriptedServer>[0] = scriptedAll(),
  opts?: Parameters<typeof startScriptedServer>[1],
): Promise<ScriptedServer> {
  const s = await startScriptedServer(script, opts);
  servers.push(s);
  return s;
}

const chats = (s: ScriptedServer) => s.requests.filter((r) => /\/chat\/completions/.test(r.path));

/** `lexcase --json run baseline --mode bm25-rag` over the two questions of the index. */
const runBaseline = (runDir: string, endpoint: string, env: Record<string, string> = {}) =>
  runBuiltCli(
    ['--json', 'run', 'baseline', '--mode', 'bm25-rag', '--index', index, '--limit', '2', '--run-dir', runDir, '--endpoint', endpoint, '--model', 'scripted'],
    {
      cwd: dir,
      env: { LEXCASE_PROGRESS: 'off', LEXCASE_LLM_RETRY_BASE_MS: '1', LEXCASE_CACHE_DIR: join(dir, 'cache-default'), ...env },
      timeoutMs: 120_000,
    },
  );

/** Every file under `d` as text, with the CLI's stdout and stderr. */
function written(d: string, r: { stdout: string; stderr: string }): { path: string; text: string }[] {
  const files = readdirSync(d, { recursive: true, encoding: 'utf8' })
    .map((f) => join(d, f))
    .filter((p) => statSync(p).isFile())
    .map((p) => ({ path: p, text: readFileSync(p, 'utf8') }));
  return [...files, { path: 'stdout', text: r.stdout }, { path: 'stderr', text: r.stderr }];
}

const jsonl = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

/** The LLM exchanges a run dir recorded (llm/<item>.jsonl). */
const recordedExchanges = (runDir: string) =>
  readdirSync(join(runDir, 'llm'))
    .filter((f) => f.endsWith('.jsonl'))
    .flatMap((f) => jsonl(join(runDir, 'llm', f)));

describe('the LLM response cache is keyed by the endpoint (item 8)', () => {
  it('a second server with the same model name gets its own requests; the first server is served from the cache, under any spelling of its URL', async () => {
    const a = await server();
    const b = await server();
    const env = { LEXCASE_CACHE_DIR: join(dir, 'cache-shared') };
    const first = await runBaseline(join(dir, 'cache-a'), a.url, env);
    expect(first.code, first.stderr).toBe(0);
    expect(chats(a)).toHaveLength(2);

    const second = await runBaseline(join(dir, 'cache-b'), b.url, env);
    expect(second.code, second.stderr).toBe(0);
    expect(chats(b)).toHaveLength(2); // was 0: server A's cached answers were written into B's run dir
    expect(jsonl(join(dir, 'cache-b', 'results.jsonl')).map((r) => r.tokens.cached)).toEqual([0, 0]);

    const again = await runBaseline(join(dir, 'cache-a2'), `${a.url}/`, env);
    expect(again.code, again.stderr).toBe(0);
    expect(chats(a)).toHaveLength(2); // the same server (a trailing slash is the same URL): all from the cache
    expect(jsonl(join(dir, 'cache-a2', 'results.jsonl')).map((r) => r.tokens.cached)).toEqual([1, 1]);
  }, 240_000);
});

describe('the response cache and a model swapped behind the same name at the same URL', () => {
  it('a server that lists another model under the name gets its requests; a rerun answered from the cache says how many replies and who wrote them', async () => {
    const KEY = 'sk-test-cache-secret-4f1e9a';
    // llama.cpp as it lists its one model (any name is served): meta tells an 8B from a 7B; created is the request's time
    const listing = (meta: Record<string, number>) => ({ created: Math.floor(Date.now() / 1000), owned_by: 'llamacpp', meta });
    const as = (model: string, fp: string) => {
      const answer = scriptedAll();
      return (req: RecordedRequest) => ({ ...answer(req), replyModel: model, systemFingerprint: fp });
    };
    const a = await startScriptedServer(as('llama-3-8b-q4.gguf', 'b4000-aaaa'), { modelFields: listing({ n_params: 8030261248, n_ctx_train: 8192 }) });
    const port = Number(new URL(a.url).port);
    const env = { LEXCASE_CACHE_DIR: join(dir, 'cache-swap'), LEXCASE_LLM_API_KEY: KEY };
    const first = await runBaseline(join(dir, 'swap-a'), a.url, env);
    expect(first.code, first.stderr).toBe(0);
    expect(chats(a)).toHaveLength(2);
    await a.close();

    // the same URL, the same model name: another model
    const b = await server(as('qwen2-7b-q4.gguf', 'b4100-bbbb'), { port, modelFields: listing({ n_params: 7615616512, n_ctx_train: 32768 }) });
    expect(b.url).toBe(a.url);
    const second = await runBaseline(join(dir, 'swap-b'), b.url, env);
    expect(second.code, second.stderr).toBe(0);
    expect(chats(b)).toHaveLength(2); // was 0: the 8B's cached answers were written into the 7B's run dir
    expect(jsonl(join(dir, 'swap-b', 'results.jsonl')).map((r) => r.tokens.cached)).toEqual([0, 0]);
    expect(second.stderr).toMatch(/the response cache holds replies for "scripted" at this endpoint written when the server described the model otherwise/);

    // the 7B again: answered from the cache, and the run says so, naming who wrote the replies
    const third = await runBaseline(join(dir, 'swap-b2'), b.url, env);
    expect(third.code, third.stderr).toBe(0);
    expect(chats(b)).toHaveLength(2);
    const results = jsonl(join(dir, 'swap-b2', 'results.jsonl'));
    expect(results.map((r) => r.tokens.cached)).toEqual([1, 1]);
    const source = Object.keys(results[0].cacheSources)[0];
    expect(source).toMatch(
      /^GET \/models listed "scripted" \(GET \/models entry [0-9a-f]{12}\) when it was written, as now; its reply named model "qwen2-7b-q4.gguf" \(system_fingerprint b4100-bbbb\)$/,
    );
    expect(third.stderr).toContain(`2 of 2 LLM calls were answered from the response cache, not by the server at the endpoint: ${source} ×2 — --no-cache`);
    expect(readFileSync(join(dir, 'swap-b2', 'report.md'), 'utf8')).toContain(`answered from the response cache`);
    // the key is sent, and kept out of the cache entries and of what the runs print
    expect(chats(b).every((q) => q.headers.authorization === `Bearer ${KEY}`)).toBe(true);
    const cacheFiles = readdirSync(join(dir, 'cache-swap'), { recursive: true, encoding: 'utf8' }).map((f) => join(dir, 'cache-swap', f));
    expect(cacheFiles.filter((f) => statSync(f).isFile() && readFileSync(f, 'utf8').includes(KEY))).toEqual([]);
    for (const r of [first, second, third]) expect(`${r.stdout}${r.stderr}`).not.toContain(KEY);
  }, 240_000);
});

describe('a short API key (item 9)', () => {
  it('LEXCASE_LLM_API_KEY=none is sent, and passages, prompts and run-dir paths holding "none" are written unchanged', async () => {
    const a = await server();
    const runDir = join(dir, 'none', 'run');
    const r = await runBaseline(runDir, a.url, { LEXCASE_LLM_API_KEY: 'none', LEXCASE_CACHE_DIR: join(dir, 'cache-none') });
    expect(r.code, r.stderr).toBe(0);
    expect(chats(a).every((q) => q.headers.authorization === 'Bearer none')).toBe(true);
    const config = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8'));
    expect(config.config.index).toBe(index);
    expect(config.config.model.apiKey).toBe('***');
    expect(JSON.parse(readFileSync(join(runDir, 'report.json'), 'utf8')).run).toBe(runDir);
    expect(JSON.parse(r.stdout).runDir).toBe(runDir);
    // what the recording holds is what the server was sent, word for word
    const sent = chats(a)
      .map((q) => JSON.stringify(q.body.messages))
      .sort();
    const recorded = recordedExchanges(runDir)
      .map((x) => JSON.stringify(x.request.messages))
      .sort();
    expect(recorded).toEqual(sent);
    const masked = written(runDir, r).filter((f) => f.text.includes('***'));
    expect(masked.map((f) => f.path)).toEqual([join(runDir, 'config.json'), join(runDir, 'report.json')]); // the apiKey field only
  }, 120_000);
});

describe('credentials in the query of the endpoint URL (item 16)', () => {
  it('?pwd= and ?jwt= reach the server after the path, and no file, output or echoed error holds them', async () => {
    const PWD = 'hunter2';
    const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.c2lnbmF0dXJl';
    const answer = scriptedAll();
    // the first item's request is refused with a message that echoes the request line, as proxies do
    let n = 0;
    const b = await server((req: RecordedRequest) => (n++ === 0 ? { status: 400, error: `bad request: POST ${req.path}` } : answer(req)));
    const runDir = join(dir, 'query-creds');
    const r = await runBaseline(runDir, `${b.url}?pwd=${PWD}&jwt=${JWT}`, { LEXCASE_CACHE_DIR: join(dir, 'cache-query') });
    expect(r.code, r.stderr).toBe(0);
    expect(chats(b).length).toBeGreaterThanOrEqual(2);
    for (const q of chats(b)) expect(q.path).toBe(`/v1/chat/completions?pwd=${PWD}&jwt=${JWT}`);
    // the refused request is recorded with the server's message, its credentials masked where they stand
    const errors = recordedExchanges(runDir).flatMap((x) => (x.error ? [x.error.message] : []));
    expect(errors).toEqual([expect.stringContaining('bad request: POST /v1/chat/completions?pwd=***&jwt=***')]);
    for (const f of written(runDir, r)) {
      expect(f.text, f.path).not.toContain(PWD);
      expect(f.text, f.path).not.toContain(JWT);
    }
    const config = JSON.parse(readFileSync(join(runDir, 'config.json'), 'utf8'));
    expect(config.config.model.baseUrl).toBe(`${b.url}?pwd=***&jwt=***`);
  }, 120_000);
});

describe('a run in which no item succeeded (item 17)', () => {
  it('HTTP 401 on every request: exit 1, one line "no item succeeded: 2 of 2 failed (first error: …)", no Troubleshooting URL, no key', async () => {
    const KEY = 'sk-proj-7Hq2xVb9Lm4Tz8Rc';
    // the model list answers (a gateway whose /models needs no key), every completion is refused
    const c = await server(() => ({
      status: 401,
      error: `Incorrect API key provided: ${KEY}. You can find your API key at https://platform.openai.com/account/api-keys.`,
    }));
    const runDir = join(dir, 'all-401');
    const r = await runBaseline(runDir, c.url, { LEXCASE_LLM_API_KEY: KEY, LEXCASE_CACHE_DIR: join(dir, 'cache-401') });
    expect(r.code).toBe(1);
    expect(r.stderr.match(/\[error\].*/g)).toEqual([
      '[error] no item succeeded: 2 of 2 failed (first error: LLM_REQUEST_FAILED: LLM request failed: HTTP 401: 401 Incorrect API key provided: ***. You can find your API key at https://platform.openai.com/account/api-keys.)',
    ]);
    expect(JSON.parse(r.stdout)).toMatchObject({ ran: 2, failed: 2 });
    expect(existsSync(join(runDir, 'report.md'))).toBe(true);
    for (const f of written(runDir, r)) {
      expect(f.text, f.path).not.toMatch(/Troubleshooting URL|docs\.langchain\.com/);
      expect(f.text, f.path).not.toContain(KEY);
    }
  }, 120_000);
});
