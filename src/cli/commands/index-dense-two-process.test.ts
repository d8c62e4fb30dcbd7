/**
 * Two `lexcase index dense DIR` at once (the built CLI, two child processes): the second is refused
 * at once with LOCKED naming the first (`index dense`, its pid), and the first builds the dense
 * index with every passage embedded once. Before, `index dense` took no lock although a build of
 * the same dir does: both embedded every passage into the one LanceDB table, then both failed
 * "index file is corrupt: the table has 480 rows for 240 passages" (hint: rebuild the index).
 *
 * Data: 120 passages in a JSONL file, embedded by an OpenAI-compatible server on 127.0.0.1 that
 * holds its replies until the second command has either exited or sent a request of its own.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readManifest } from '../../../indexer/manifest.js';
import { runBuiltCli } from '../../../tests/support/run-built-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'lexcase-index-dense-two-'));
const DIM = 8;
const N = 120;
let server: Server;
let baseURL: string;
const embedded = new Map<string, number>();
/** Requests being held (each a callback that answers it); once released, requests are answered at once. */
let held: (() => void)[] = [];
let released = false;
let onRequest: (() => void) | undefined;

const vectorFor = (s: string) => Float32Array.from({ length: DIM }, (_, j) => ((s.length * (j + 3) + s.charCodeAt(j % s.length)) % 29) + 1);

function answer(res: ServerResponse, body: { input: string[]; encoding_format?: string }): void {
  for (const t of body.input) embedded.set(t, (embedded.get(t) ?? 0) + 1);
  const enc = (t: string) => (body.encoding_format === 'base64' ? Buffer.from(vectorFor(t).buffer).toString('base64') : Array.from(vectorFor(t)));
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ object: 'list', data: body.input.map((t, index) => ({ object: 'embedding', index, embedding: enc(t) })) }));
}

const release = () => {
  released = true;
  for (const a of held) a();
  held = [];
};

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { input: string[]; encoding_format?: string };
      if (released) return answer(res, body);
      held.push(() => answer(res, body));
      onRequest?.();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const lines = Array.from({ length: N }, (_, i) =>
    JSON.stringify({ id: `p${i}`, text: `passage ${i} on ${['hearsay', 'easements', 'consideration'][i % 3]} number ${i * 7}` }),
  );
  writeFileSync(join(dir, 'passages.jsonl'), lines.join('\n') + '\n');
});
afterAll(async () => {
  release();
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

it('a second `index dense` of a dir being embedded is refused LOCKED naming the first; the first embeds every passage once', async () => {
  const b = await runBuiltCli(['index', 'build', 'passages.jsonl', '--out', 'idx'], { cwd: dir, timeoutMs: 60_000 });
  expect(b.code, b.stderr).toBe(0);
  const env = { LEXCASE_EMBED_BASE_URL: baseURL, LEXCASE_EMBED_MODEL: 'local-embed', LEXCASE_EMBED_API_KEY: undefined };
  const args = ['index', 'dense', 'idx', '--embedder', 'openai', '--embed-batch', '40'];

  // the first command is embedding (its first request held by the server)
  const firstAsked = new Promise<void>((r) => (onRequest = r));
  const first = runBuiltCli(args, { cwd: dir, env, timeoutMs: 120_000 });
  await firstAsked;
  // the second: refused before it asks the server anything — or, without the lock, its own request arrives
  const secondAsked = new Promise<void>((r) => (onRequest = r));
  const second = runBuiltCli(args, { cwd: dir, env, timeoutMs: 120_000 });
  await Promise.race([second, secondAsked]);
  release();
  const [r1, r2] = await Promise.all([first, second]);

  expect(r2.code).toBe(1);
  expect(r2.stderr).toMatch(/\[error\] idx is locked: it is in use by index dense \(pid \d+, since /);
  expect(r1.code, r1.stderr).toBe(0);
  const m = await readManifest(join(dir, 'idx'));
  expect(m.methods).toContain('dense');
  expect((m.dense as unknown as { rows: number }).rows).toBe(N);
  const passageTexts = [...embedded.keys()].filter((t) => t.startsWith('passage '));
  expect(passageTexts).toHaveLength(N);
  expect(passageTexts.every((t) => embedded.get(t) === 1)).toBe(true);
}, 240_000);
