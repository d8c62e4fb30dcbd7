/**
 * Issue 37, item 14: every long wait ends on a signal, and says so in one line. The built CLI as a
 * child process against local servers on 127.0.0.1 that accept requests and never answer.
 *  - `index dense --embedder openai` ignored SIGTERM for 357 s while its first request (the
 *    dimension probe) stalled: the probe did not get the command's abort signal, and each attempt
 *    waited a fixed 120 s. Now SIGTERM ends it at once with the interrupted line, and
 *    `--embed-timeout S` bounds each attempt.
 *  - `serve --api` and `mcp --http` printed `Error: aborted` with a stack trace when a client
 *    closed its connection mid-request and when SIGTERM arrived with a request in flight; a
 *    /v1/evidence request whose client left kept calling the LLM. Now one line each, no stack, and
 *    the LLM request is cancelled (serve/http/request-life.ts).
 * Each test waits for an event (a request reaching the server, a connection closing), never for time.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, isolatedEnv, lexcase, startLexcase, STACK_TRACE } from '../../tests/support/spawn-cli.js';

let dir: string;
const servers: Server[] = [];

/** A server that reads each request and never answers; `arrived` resolves with each request as it comes, `closed` when its connection closes. */
async function silentServer(answer?: (req: IncomingMessage, body: string) => string | undefined) {
  const arrivals: ((r: { url: string; closed: Promise<void> }) => void)[] = [];
  const waiting: { url: string; closed: Promise<void> }[] = [];
  const s = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const reply = answer?.(req, Buffer.concat(chunks).toString('utf8'));
      if (reply !== undefined) return res.writeHead(200, { 'content-type': 'application/json' }).end(reply);
      const r = { url: req.url ?? '', closed: new Promise<void>((done) => res.once('close', () => done())) };
      const next = arrivals.shift();
      if (next) next(r);
      else waiting.push(r);
    });
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  servers.push(s);
  return {
    url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/v1`,
    /** The next request left unanswered. */
    arrived: () => new Promise<{ url: string; closed: Promise<void> }>((r) => (waiting.length ? r(waiting.shift()!) : arrivals.push(r))),
  };
}

/**
 * A client that opens a request (`Expect: 100-continue`: the server's "100 Continue" says its
 * handler is running), sends half its JSON body, and then either leaves or stays.
 */
function halfRequest(port: number, path: string): Promise<{ leave(): void }> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => {
      s.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\nexpect: 100-continue\r\ncontent-length: 1000\r\n\r\n`,
      );
    });
    let seen = '';
    s.on('data', (d: Buffer) => {
      seen += d.toString('latin1');
      if (/^HTTP\/1\.1 100/.test(seen)) s.write('{"index":', () => resolve({ leave: () => s.destroy() }));
    });
    s.on('error', reject);
  });
}

/** Resolves once `cond()` holds (checked every 50 ms; the test's own timeout bounds it). */
async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 50));
}

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-long-waits-'));
  writeFileSync(
    join(dir, 'p.jsonl'),
    ['a contract needs offer, acceptance and consideration', 'negligence: duty, breach, causation, damages', 'hearsay is an out of court statement']
      .map((t, i) => JSON.stringify({ id: `p${i}`, text: t }))
      .join('\n') + '\n',
  );
  const b = await lexcase(['index', 'build', 'p.jsonl', '--out', 'ix'], { cwd: dir, timeoutMs: 120_000 });
  expect(b.code, b.stderr).toBe(0);
}, 300_000);
afterAll(() => {
  for (const s of servers) s.closeAllConnections(), s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('index dense --embedder openai against an endpoint that never answers', () => {
  it('SIGTERM while the first request stalls: exit 143 with the interrupted line (before: ignored for 357 s; then exit 1)', async () => {
    const srv = await silentServer();
    const env = isolatedEnv({ LEXCASE_EMBED_BASE_URL: srv.url, LEXCASE_EMBED_MODEL: 'e' });
    const c = startLexcase(['index', 'dense', 'ix', '--embedder', 'openai'], { cwd: dir, env });
    const req = await srv.arrived();
    expect(req.url).toBe('/v1/embeddings');
    // stop() sends SIGTERM and SIGKILLs after 10 s: an ignored SIGTERM shows as signal SIGKILL
    const r = await c.stop('SIGTERM');
    expect(r.signal, r.stderr).toBeNull();
    expect(r.code).toBe(143); // 128 + SIGTERM, as `run <system>` and `eval run` exit
    expect(r.stderr).toMatch(/^\[error\] dense build interrupted by SIGTERM; rerun the same command to resume$/m);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    await req.closed; // the stalled request was dropped, not left open
  }, 120_000);

  it('--embed-timeout 1: each attempt ends after 1 s, then one error saying so (before: a fixed 120 s and no flag)', async () => {
    const srv = await silentServer();
    const env = isolatedEnv({ LEXCASE_EMBED_BASE_URL: srv.url, LEXCASE_EMBED_MODEL: 'e' });
    const r = await lexcase(['index', 'dense', 'ix', '--embedder', 'openai', '--embed-timeout', '1'], { cwd: dir, env, timeoutMs: 90_000 });
    expect(r.signal, r.stderr).toBeNull();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\[error\] embedding request to http:\/\/127\.0\.0\.1:\d+\/v1 failed: timeout after 3 attempts: no complete reply within 1000 ms/);
    expect(r.stderr).not.toMatch(STACK_TRACE);
  }, 120_000);

  it('--embed-timeout is refused for a local embedder', async () => {
    const r = await lexcase(['index', 'dense', 'ix', '--embed-timeout', '5'], { cwd: dir, timeoutMs: 60_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--embed-timeout is for the openai embedder/);
  }, 120_000);
});

describe.each([
  ['serve --api', ['serve', '--api'], '/v1/search', 'api'],
  ['mcp --http', ['mcp', '--http'], '/mcp', 'mcp http'],
])('%s: a client that leaves mid-request, SIGTERM with a request in flight', (_name, cmd, path, who) => {
  it('one line each, no stack trace (before: "Error: aborted" and a Node stack, each time)', async () => {
    const s = startLexcase(['--json', ...cmd, '--index', 'ix', '--port', '0'], { cwd: dir });
    const port = Number(new URL((await s.waitFor(/"url": "([^"]+)"/))[1]).port);
    const left = `[warn] ${who}: POST ${path}: the client closed the connection before the reply; the request was cancelled`;
    (await halfRequest(port, path)).leave();
    await until(() => s.stderr.includes(left) || STACK_TRACE.test(s.stderr));
    await halfRequest(port, path); // in flight when SIGTERM comes
    const r = await s.stop('SIGTERM');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(r.stderr).not.toMatch(/Error: aborted/);
    expect(r.stderr.trim().split('\n')).toEqual([left, `[warn] ${who}: stopped with 1 request(s) in flight; they were cancelled`]);
  }, 120_000);
});

describe('serve --api /v1/evidence whose client leaves', () => {
  it('cancels the request to the LLM (before: it kept calling the LLM for the gone client)', async () => {
    const llm = await silentServer((req) => (req.url?.endsWith('/models') ? JSON.stringify({ data: [{ id: 'm' }] }) : undefined));
    const s = startLexcase(['--json', 'serve', '--api', '--index', 'ix', '--port', '0'], {
      cwd: dir,
      env: isolatedEnv({ LEXCASE_LLM_BASE_URL: llm.url, LEXCASE_LLM_MODEL: 'm', LEXCASE_LLM_TIMEOUT_MS: '600000' }),
    });
    try {
      const base = (await s.waitFor(/"url": "([^"]+)"/))[1];
      const body = JSON.stringify({ index: 'ix', hypothesis: 'a contract needs consideration', mode: 'llm' });
      const client = request(`${base}/evidence`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      client.on('error', () => undefined);
      client.end(body);
      const chat = await llm.arrived();
      expect(chat.url).toBe('/v1/chat/completions');
      client.destroy(); // the client leaves
      await chat.closed; // the server dropped its LLM request (before: open until the 600 s timeout)
      expect(s.stderr).not.toMatch(STACK_TRACE);
    } finally {
      const r = await s.stop('SIGTERM');
      expect(r.stderr).not.toMatch(STACK_TRACE);
    }
  }, 120_000);
});
