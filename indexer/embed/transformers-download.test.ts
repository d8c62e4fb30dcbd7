/**
 * The model-download path every online user takes: a `transformers` embedder with a hub model id,
 * served here by a local HTTP server on 127.0.0.1 laid out like the hub (<model>/resolve/main/<file>,
 * HF_ENDPOINT → transformers.js env.remoteHost). First run downloads and caches with a progress line;
 * second run works offline from the cache; a download cut off mid-file fails clearly and caches nothing.
 */
import { readFileSync, existsSync } from 'node:fs';
import { mkdtemp, rm, readFile, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '../../core/log.js';
import { createEmbedder } from './create-embedder.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixture = join(here, '../../tests/fixtures/tiny-embedder/tiny-bert');
const expected = JSON.parse(readFileSync(join(fixture, 'expected.json'), 'utf8')) as { texts: { text: string; embedding: number[] }[] };
const MODEL = 'lexcase-test/tiny-bert';

let server: Server;
let requests: string[] = [];
let truncate: string | null = null;
const dirs: string[] = [];
const prevEndpoint = process.env.HF_ENDPOINT;

beforeAll(async () => {
  server = createServer(async (req, res) => {
    requests.push(req.url ?? '');
    const m = /^\/lexcase-test\/tiny-bert\/resolve\/main\/(.+)$/.exec(req.url ?? '');
    const file = m && !m[1].includes('..') ? join(fixture, decodeURIComponent(m[1])) : null;
    if (!file || !existsSync(file) || !(await stat(file)).isFile()) return void res.writeHead(404).end('not found');
    const body = await readFile(file);
    res.writeHead(200, { 'Content-Length': body.length, 'Content-Type': 'application/octet-stream' });
    if (truncate && file.endsWith(truncate)) {
      // Send half the promised bytes, then drop the connection.
      res.write(body.subarray(0, body.length >> 1), () => res.destroy());
      return;
    }
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  process.env.HF_ENDPOINT = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

afterEach(() => {
  truncate = null;
  requests = [];
  vi.restoreAllMocks();
});

afterAll(async () => {
  if (prevEndpoint === undefined) delete process.env.HF_ENDPOINT;
  else process.env.HF_ENDPOINT = prevEndpoint;
  await new Promise((r) => server.close(r));
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const tmp = async () => {
  const d = await mkdtemp(join(tmpdir(), 'lexcase-hub-cache-'));
  dirs.push(d);
  return d;
};

const spec = (cacheDir: string, offline: boolean) => ({
  provider: 'transformers' as const,
  model: MODEL,
  cacheDir,
  offline,
  queryPrefix: '',
  passagePrefix: '',
});

async function embedsLikeTheReference(cacheDir: string, offline: boolean) {
  const emb = await createEmbedder(spec(cacheDir, offline));
  expect(emb.id).toBe(`transformers:${MODEL}`);
  const [v] = await emb.embed([expected.texts[0].text], { kind: 'passage' });
  const maxDiff = Math.max(...Array.from(v, (x, j) => Math.abs(x - expected.texts[0].embedding[j])));
  expect(maxDiff).toBeLessThan(1e-4);
}

describe('transformers embedder: download from a hub-like server, cache, offline reuse', () => {
  it('downloads and caches on the first run (progress lines), then works offline from the cache', { timeout: 60_000 }, async () => {
    const cacheDir = await tmp();
    const info = vi.spyOn(log, 'info');
    await embedsLikeTheReference(cacheDir, false);
    expect(requests).toContain('/lexcase-test/tiny-bert/resolve/main/onnx/model.onnx');
    expect(existsSync(join(cacheDir, MODEL, 'onnx', 'model.onnx'))).toBe(true);
    const lines = info.mock.calls.map((c) => String(c[0]));
    expect(lines.some((l) => /lexcase-test\/tiny-bert\/onnx\/model\.onnx ready \(\d+\.\d kB/.test(l))).toBe(true);

    requests = [];
    await embedsLikeTheReference(cacheDir, true);
    expect(requests).toEqual([]);
  });

  it('a download cut off mid-file is a clear EMBEDDER_UNAVAILABLE error and leaves no partial file in the cache', { timeout: 60_000 }, async () => {
    const cacheDir = await tmp();
    truncate = 'model.onnx';
    const err = await createEmbedder(spec(cacheDir, false)).then(
      () => null,
      (e: Error & { code?: string }) => e,
    );
    expect(err).not.toBeNull();
    expect(err!.code).toBe('EMBEDDER_UNAVAILABLE');
    expect(err!.message).toMatch(/cut off/);
    expect(err!.message).toMatch(/model\.onnx/);
    expect(existsSync(join(cacheDir, MODEL, 'onnx', 'model.onnx'))).toBe(false);

    // Not poisoned: the next run (server healthy again) downloads the file and works.
    truncate = null;
    await embedsLikeTheReference(cacheDir, false);
    expect(requests).toContain('/lexcase-test/tiny-bert/resolve/main/onnx/model.onnx');
  });
});
