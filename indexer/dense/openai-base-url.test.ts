/**
 * A dense index embedded by an OpenAI-compatible server whose base URL carries a key (`?api-key=…`)
 * or userinfo: the manifest (what `index info` and `index info --json` show) records the base URL
 * with them masked (`?api-key=***`) and `baseURLRedacted: true`; a search must be given the whole base URL again
 * (LEXCASE_EMBED_BASE_URL or the retriever's baseURL option) and, without it, fails with one clear
 * error before any request goes to the mangled URL.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Passage } from '../../corpora/types.js';
import { BAREXAM_PASSAGES, bundledLines } from '../../tests/support/bundled-data.js';
import { manifestSummary } from '../../src/cli/commands/index-cmd.js';
import { openDenseRetriever } from '../../retrieval/dense.js';
import { openDenseFromOptions } from '../../retrieval/dense-open.js';
import { createEmbedder } from '../embed/create-embedder.js';
import { buildIndex } from '../build.js';
import { readManifest } from '../manifest.js';
import { addDenseIndex } from './add-dense.js';
import type { DenseSection } from './dense-section.js';

const KEY = 'XYZ-secret-4711';
const passages: Passage[] = bundledLines(BAREXAM_PASSAGES)
  .filter(Boolean)
  .slice(0, 24)
  .map((l) => ({ ...(JSON.parse(l) as { id: string; text: string }), source: 'barexam_qa' }));
const vectorFor = (s: string) => Array.from({ length: 8 }, (_, j) => [...s].reduce((a, c, i) => a + ((c.charCodeAt(0) * (i + 1) * (j + 3)) % 17), 0) + 1);

let server: Server;
let base: string;
let tmp: string;
/** Requests the server got: their path and query as sent. */
const requests: string[] = [];

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'lexcase-embed-url-'));
  // answers only POST /v1/embeddings?api-key=KEY, as a gateway keyed by its query does
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      requests.push(req.url ?? '');
      if (req.url !== `/v1/embeddings?api-key=${KEY}`) {
        res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":{"message":"bad key or path"}}');
        return;
      }
      const input: string[] = JSON.parse(raw).input;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: input.map((t, index) => ({ object: 'embedding', index, embedding: vectorFor(t) })) }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  await rm(tmp, { recursive: true, force: true });
});

async function sparseIndex(name: string): Promise<string> {
  const out = join(tmp, name);
  await buildIndex(
    (async function* () {
      yield* passages;
    })(),
    { out, corpusName: 'barexam-sample', methods: ['bm25'], workers: 0 },
  );
  return out;
}

describe('the openai embedder base URL in an index manifest', () => {
  it('records a base URL with a key in its query without the key, and a search needs the whole URL again', async () => {
    const out = await sparseIndex('query-key');
    const keyed = `${base}?api-key=${KEY}`;
    await addDenseIndex(out, { embedder: { provider: 'openai', baseURL: keyed, model: 'local-embed' }, batchSize: 8 });

    const onDisk = await readFile(join(out, 'manifest.json'), 'utf8'); // what `index info --json` prints
    expect(onDisk).not.toContain(KEY);
    const m = await readManifest(out);
    const d = m.dense as unknown as DenseSection;
    expect(d.spec).toMatchObject({ provider: 'openai', baseURL: `${base}?api-key=***`, baseURLRedacted: true });
    expect(d.rows).toBe(passages.length);
    expect(manifestSummary(out, m, { total: 0, parts: {} })).not.toContain(KEY);

    // without the base URL again: one clear error, and no request to the recorded (keyless) URL
    const sent = requests.length;
    vi.stubEnv('LEXCASE_EMBED_BASE_URL', '');
    await expect(openDenseRetriever(out)).rejects.toMatchObject({
      code: 'EMBEDDER_UNAVAILABLE',
      message: expect.stringContaining(`with its userinfo and query values masked, and lexcase sends no request to it as recorded: ${base}?api-key=***`),
      details: { hint: expect.stringContaining('set LEXCASE_EMBED_BASE_URL to the whole base URL') },
    });
    expect(requests.length).toBe(sent);

    try {
      // given again in the environment (the CLI's way) or as the retriever's baseURL option (a library's)
      vi.stubEnv('LEXCASE_EMBED_BASE_URL', keyed);
      const viaEnv = await openDenseRetriever(out);
      vi.stubEnv('LEXCASE_EMBED_BASE_URL', '');
      const viaOption = await openDenseFromOptions(out, { baseURL: keyed });
      for (const r of [viaEnv, viaOption]) {
        const hits = await r.search(passages[5].text, { k: 3 });
        expect(hits[0].id).toBe(passages[5].id);
        expect(hits[0].score).toBeCloseTo(1, 4);
        await r.close();
      }
    } finally {
      vi.unstubAllEnvs();
    }
    expect(requests.slice(sent).every((u) => u === `/v1/embeddings?api-key=${KEY}`)).toBe(true);
  });

  it('records a base URL with userinfo without it; the embedder refuses one without echoing the password', async () => {
    const withUser = base.replace('http://', 'http://me:s3cret@');
    await expect(createEmbedder({ provider: 'openai', baseURL: withUser, model: 'local-embed', maxRetries: 0 })).rejects.toSatisfy(
      (e: Error & { code?: string }) => e.code === 'EMBEDDER_UNAVAILABLE' && /user name or password/.test(e.message) && !e.message.includes('s3cret'),
    );
    // a library caller's own embedder, with the spec it was made with recorded
    const out = await sparseIndex('userinfo');
    const own = await createEmbedder({ provider: 'openai', baseURL: `${base}?api-key=${KEY}`, model: 'local-embed' });
    await addDenseIndex(out, { embedder: own, spec: { provider: 'openai', baseURL: withUser, model: 'local-embed' }, batchSize: 8 });
    const onDisk = await readFile(join(out, 'manifest.json'), 'utf8');
    expect(onDisk).not.toContain('s3cret');
    expect((JSON.parse(onDisk).dense as DenseSection).spec).toMatchObject({ baseURL: base.replace('http://', 'http://***:***@'), baseURLRedacted: true });
  });

  it('records a base URL without userinfo or query as given (existing indexes keep comparing equal)', async () => {
    const out = await sparseIndex('plain');
    const open = await createEmbedder({ provider: 'openai', baseURL: `${base}?api-key=${KEY}`, model: 'local-embed' });
    await addDenseIndex(out, { embedder: open, spec: { provider: 'openai', baseURL: `${base}/`, model: 'local-embed' }, batchSize: 8 });
    const d = (await readManifest(out)).dense as unknown as DenseSection;
    expect(d.spec).toEqual({ provider: 'openai', baseURL: `${base}/`, model: 'local-embed' });
  });
});
