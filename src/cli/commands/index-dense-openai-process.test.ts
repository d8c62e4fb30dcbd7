/**
 * `lexcase index dense <dir> --embedder openai` as a user runs it (the built binary, a child
 * process) against an OpenAI-compatible server on 127.0.0.1 that follows the API: base64 vectors
 * when asked. A server that starts failing (HTTP 500) mid-build stops the command with one clear
 * error naming the server and status, after the committed batches; the rerun resumes after them
 * (each passage embedded once in all) and the dense index searches.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readManifest } from '../../../indexer/manifest.js';
import { runBuiltCli } from '../../../tests/support/run-built-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'lexcase-index-dense-openai-'));
const DIM = 8;
const N = 600;
let server: Server;
let baseURL: string;
/** Fail every request once this many inputs were answered (Infinity: never). */
let failAfter = Infinity;
const embedded = new Map<string, number>();
let answered = 0;

const vectorFor = (s: string) => Float32Array.from({ length: DIM }, (_, j) => ((s.length * (j + 3) + s.charCodeAt(j % s.length)) % 29) + 1);

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { input: string[]; encoding_format?: string };
      if (answered >= failAfter) {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"GPU fell over"}}');
        return;
      }
      answered += body.input.length;
      for (const t of body.input) embedded.set(t, (embedded.get(t) ?? 0) + 1);
      const enc = (t: string) => (body.encoding_format === 'base64' ? Buffer.from(vectorFor(t).buffer).toString('base64') : Array.from(vectorFor(t)));
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ object: 'list', data: body.input.map((t, index) => ({ object: 'embedding', index, embedding: enc(t) })) }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const lines = Array.from({ length: N }, (_, i) =>
    JSON.stringify({ id: `p${i}`, text: `passage ${i} on ${['hearsay', 'easements', 'consideration', 'mens rea'][i % 4]} number ${i * 7}` }),
  );
  writeFileSync(join(dir, 'passages.jsonl'), lines.join('\n') + '\n');
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

describe('lexcase index dense --embedder openai (built CLI, local OpenAI-compatible server)', () => {
  it('fails clearly when the server errors mid-build, then resumes after the committed batches', async () => {
    const b = await runBuiltCli(['index', 'build', 'passages.jsonl', '--out', 'idx'], { cwd: dir, timeoutMs: 60_000 });
    expect(b.code, b.stderr).toBe(0);
    const env = { LEXCASE_EMBED_BASE_URL: baseURL, LEXCASE_EMBED_MODEL: 'local-embed', LEXCASE_EMBED_API_KEY: undefined };

    failAfter = 1 + 200; // the dimension probe, then 200 passages: one whole batch of 100 commits, the rest fail
    const r1 = await runBuiltCli(['index', 'dense', 'idx', '--embedder', 'openai', '--embed-batch', '100'], { cwd: dir, env, timeoutMs: 60_000 });
    expect(r1.code).not.toBe(0);
    expect(r1.stderr).toMatch(
      new RegExp(`embedding request to ${baseURL.replace(/[.:/]/g, '\\$&')} failed: HTTP 500 after 3 attempts: \\{"error":\\{"message":"GPU fell over"\\}\\}`),
    );
    expect(r1.stderr.match(/failed: HTTP 500/g)).toHaveLength(1);
    expect(existsSync(join(dir, 'idx', 'dense-build.json'))).toBe(true);
    expect((await readManifest(join(dir, 'idx'))).methods).not.toContain('dense');

    failAfter = Infinity;
    const r2 = await runBuiltCli(['--json', 'index', 'dense', 'idx', '--embedder', 'openai', '--embed-batch', '100'], { cwd: dir, env, timeoutMs: 60_000 });
    expect(r2.code, r2.stderr).toBe(0);
    const m = await readManifest(join(dir, 'idx'));
    expect(m.methods).toContain('dense');
    expect((m.dense as unknown as { rows: number }).rows).toBe(N);
    // Every passage reached the server; the rerun re-sent only passages of batches that never committed
    // (without resume it would send all 600 again).
    const passages = [...embedded.keys()].filter((t) => t.startsWith('passage '));
    expect(passages).toHaveLength(N);
    const resent = passages.filter((t) => embedded.get(t)! > 1).length;
    expect(resent).toBeLessThanOrEqual(100);

    const s = await runBuiltCli(['--json', 'search', 'hearsay', '--index', 'idx', '--method', 'dense', '-k', '3'], { cwd: dir, env, timeoutMs: 30_000 });
    expect(s.code, s.stderr).toBe(0);
    expect(JSON.parse(s.stdout).hits).toHaveLength(3);
  }, 180_000);
});
