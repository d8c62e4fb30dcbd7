/**
 * Issue 37, item 13: replies too large to read. A 300 MB LLM reply crashed the run ("Invalid string
 * length", 3 GB RSS) and every resume hit it again; a 1 MB gzip bomb reached 2.3 GB RSS. Now every
 * reply is read under a cap on its decompressed bytes (core/llm/bounded-reply.ts): the request fails
 * at once with one clear error (not retried), the item fails, the run goes on, a resume does the
 * same. The caps are small here (LEXCASE_LLM_MAX_REPLY_BYTES, LEXCASE_EMBED_MAX_REPLY_BYTES) so the
 * replies need not be large: 8 MB plain, and a gzip body of ~40 KB that inflates to 40 MB.
 * The built CLI as a child process against local servers on 127.0.0.1.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, isolatedEnv, lexcase, ROOT, STACK_TRACE } from '../../tests/support/spawn-cli.js';

const completion = (content: string) =>
  JSON.stringify({
    id: 'c',
    object: 'chat.completion',
    created: 1,
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
  });
/** ~40 KB of gzip that inflates to a 40 MB completion. */
const BOMB = gzipSync(Buffer.from(completion('x'.repeat(40e6))), { level: 9 });
const BIG = completion('y'.repeat(8e6));

let dir: string;
const servers: Server[] = [];
async function serve(handler: (req: { url: string; body: string }, res: import('node:http').ServerResponse) => void): Promise<string> {
  const s = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler({ url: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') }, res));
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  servers.push(s);
  return `http://127.0.0.1:${(s.address() as AddressInfo).port}/v1`;
}

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'lexcase-reply-size-'));
}, 300_000);
afterAll(() => {
  for (const s of servers) s.closeAllConnections(), s.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('an LLM reply over llm.maxReplyBytes', () => {
  it('fails its item with one clear error (8 MB plain, a gzip bomb), the run goes on; a resume does the same, and peak RSS stays low', async () => {
    // The 1st question is answered, the 2nd gets 8 MB, the 3rd a gzip bomb (by prompt, so a resume meets the same).
    const order: string[] = [];
    const chats = new Map<string, number>();
    const url = await serve((req, res) => {
      if (req.url.endsWith('/models')) return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: [{ id: 'm' }] }));
      const key = createHash('sha256')
        .update(JSON.stringify(JSON.parse(req.body).messages))
        .digest('hex');
      if (!order.includes(key)) order.push(key);
      chats.set(key, (chats.get(key) ?? 0) + 1);
      const which = order.indexOf(key);
      if (which === 1) return res.writeHead(200, { 'content-type': 'application/json' }).end(BIG);
      if (which === 2) return res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(BOMB);
      res.writeHead(200, { 'content-type': 'application/json' }).end(completion(JSON.stringify({ reasoning: 'r', answer: 'B' })));
    });
    const rss = join(dir, 'rss');
    const env = isolatedEnv({
      LEXCASE_LLM_BASE_URL: url,
      LEXCASE_LLM_MODEL: 'm',
      LEXCASE_LLM_MAX_REPLY_BYTES: String(1024 * 1024),
      LEXCASE_LLM_RETRY_BASE_MS: '1',
      LEXCASE_TEST_MAX_RSS_FILE: rss,
      NODE_OPTIONS: `--import ${pathToFileURL(join(ROOT, 'tests', 'support', 'max-rss-on-exit.mjs')).href}`,
    });
    const args = ['--json', 'run', 'baseline', '--mode', 'llm-only', '--limit', '3', '--run-dir', join(dir, 'run')];
    const errorsOf = () =>
      readFileSync(join(dir, 'run', 'results.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { error?: string }).error ?? null);
    const TOO_LARGE =
      'LLM_REQUEST_FAILED: LLM request failed: reply too large: the reply is larger than 1 MiB (llm.maxReplyBytes / LEXCASE_LLM_MAX_REPLY_BYTES; decompressed bytes count): it was not read';

    const r = await lexcase(args, { cwd: dir, env, timeoutMs: 120_000 });
    expect(r.signal, r.stderr).toBeNull();
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ ran: 3, failed: 2 });
    expect(errorsOf()).toEqual([null, TOO_LARGE, TOO_LARGE]);
    expect([...chats.values()]).toEqual([1, 1, 1]); // not retried: the same request gets the same reply
    // 8 MB and 40 MB were never held as strings (before: the bomb alone was inflated into memory whole)
    expect(Number(readFileSync(rss, 'utf8'))).toBeLessThan(400 * 1024);

    // a resume asks for the failed items again and meets the same: one clear error each, no crash
    const again = await lexcase(args, { cwd: dir, env, timeoutMs: 120_000 });
    expect(again.stderr).not.toMatch(STACK_TRACE);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ ran: 2, failed: 2 });
    expect(errorsOf()).toEqual([null, TOO_LARGE, TOO_LARGE]);
  }, 240_000);
});

describe('an embeddings reply over LEXCASE_EMBED_MAX_REPLY_BYTES', () => {
  it('index dense --embedder openai stops with one line naming the cap; the bomb is asked for once', async () => {
    writeFileSync(
      join(dir, 'p.jsonl'),
      ['contract offer acceptance', 'negligence duty breach', 'hearsay out of court statement']
        .map((t, i) => JSON.stringify({ id: `p${i}`, text: t }))
        .join('\n') + '\n',
    );
    const b = await lexcase(['index', 'build', 'p.jsonl', '--out', 'ix'], { cwd: dir, timeoutMs: 120_000 });
    expect(b.code, b.stderr).toBe(0);
    let embeds = 0;
    const url = await serve((req, res) => {
      const input = (JSON.parse(req.body) as { input: string[] }).input;
      if (embeds++ === 0)
        return res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ data: input.map((_, index) => ({ index, embedding: [1, 2, 3, 4] })) }));
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }).end(BOMB);
    });
    const r = await lexcase(['index', 'dense', 'ix', '--embedder', 'openai'], {
      cwd: dir,
      env: isolatedEnv({ LEXCASE_EMBED_BASE_URL: url, LEXCASE_EMBED_MODEL: 'e', LEXCASE_EMBED_MAX_REPLY_BYTES: '65536' }),
      timeoutMs: 120_000,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(STACK_TRACE);
    expect(r.stderr).toMatch(
      /\[error\] embedding request to http:\/\/127\.0\.0\.1:\d+\/v1 failed: reply too large: the reply is larger than 64 KiB \(LEXCASE_EMBED_MAX_REPLY_BYTES; decompressed bytes count\): it was not read/,
    );
    expect(r.stderr.match(/\[error\]/g)).toHaveLength(1);
    expect(embeds).toBe(2); // the dimension probe, then the one batch: not retried
  }, 240_000);
});
