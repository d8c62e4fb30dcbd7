/**
 * Rebuilding an index in place, as a user runs it (the built binary, a child process, a local
 * OpenAI-compatible embeddings server on 127.0.0.1):
 * - Ctrl-C during the embedding step of `index build … --out IX --methods bm25,qld,dense` into an
 *   existing IX leaves IX byte-identical, removes the temp dir and says "nothing was changed" — which
 *   is now true: the new index is swapped in only when every requested method is built. Before
 *   (717d8fa) the sparse part was swapped in first, so the old index was already replaced by a
 *   sparse-only one when the signal came.
 * - A rebuild in place without --methods keeps the methods the index has: dense is re-embedded with
 *   the embedder the index recorded when it runs offline (a local transformers model here), and
 *   refused, naming dense and what to pass, when it needs an endpoint (openai). Before, both rebuilt
 *   bm25,qld only and dropped dense without a word.
 * The embedding step is recognised by the server receiving the first passage batch (after the
 * dimension probe), not by a sleep.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readManifest } from '../../../indexer/manifest.js';
import { runBuiltCli } from '../../../tests/support/run-built-cli.js';
import { isolatedEnv, ROOT, startLexcase } from '../../../tests/support/spawn-cli.js';
import { treeOf } from '../../../tests/support/tree-snapshot.js';

const dir = mkdtempSync(join(tmpdir(), 'lexcase-index-rebuild-'));
const DIM = 8;
const N = 300;
const modelDir = join(ROOT, 'tests/fixtures/tiny-embedder/tiny-bert');
let server: Server;
let baseURL: string;
/** While set, passage batches are held (not answered) and the first one resolves `reached`. */
let hold: { reached: () => void } | undefined;
const held: ServerResponse[] = [];

const vectorFor = (s: string) => Float32Array.from({ length: DIM }, (_, j) => ((s.length * (j + 3) + s.charCodeAt(j % s.length)) % 29) + 1);

function answer(req: IncomingMessage, res: ServerResponse, body: { input: string[]; encoding_format?: string }): void {
  if (hold && body.input.some((t) => t.startsWith('passage '))) {
    held.push(res);
    hold.reached();
    return;
  }
  const enc = (t: string) => (body.encoding_format === 'base64' ? Buffer.from(vectorFor(t).buffer).toString('base64') : Array.from(vectorFor(t)));
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ object: 'list', data: body.input.map((t, index) => ({ object: 'embedding', index, embedding: enc(t) })) }));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => answer(req, res, JSON.parse(Buffer.concat(chunks).toString('utf8'))));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const lines = Array.from({ length: N }, (_, i) =>
    JSON.stringify({ id: `p${i}`, text: `passage ${i} on ${['hearsay', 'easements', 'consideration', 'mens rea'][i % 4]} number ${i * 7}` }),
  );
  writeFileSync(join(dir, 'passages.jsonl'), lines.join('\n') + '\n');
});
afterAll(async () => {
  for (const r of held) r.destroy();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

const embedEnv = () => ({ LEXCASE_EMBED_BASE_URL: baseURL, LEXCASE_EMBED_MODEL: 'local-embed', LEXCASE_EMBED_API_KEY: undefined, LEXCASE_PROGRESS: 'off' });
const leftovers = () => readdirSync(dir).filter((n) => /\.(tmp|old)-\d+$|\.lock$/.test(n));

describe('index build into an existing index', () => {
  it('Ctrl-C during the embedding step leaves the old index as it was', async () => {
    const b = await runBuiltCli(
      ['index', 'build', 'passages.jsonl', '--out', 'idx', '--methods', 'bm25,qld,dense', '--embedder', 'openai', '--embed-batch', '100'],
      { cwd: dir, env: embedEnv(), timeoutMs: 60_000 },
    );
    expect(b.code, b.stderr).toBe(0);
    expect((await readManifest(join(dir, 'idx'))).methods).toEqual(['bm25', 'qld', 'dense']);
    const before = treeOf(join(dir, 'idx'));

    const reached = new Promise<void>((r) => (hold = { reached: r }));
    const child = startLexcase(
      ['index', 'build', 'passages.jsonl', '--out', 'idx', '--methods', 'bm25,qld,dense', '--embedder', 'openai', '--embed-batch', '100'],
      { cwd: dir, env: isolatedEnv(embedEnv()) },
    );
    try {
      await reached; // the server holds the first passage batch: the child is in the embedding step
    } finally {
      hold = undefined;
    }
    const r = await child.stop('SIGINT');
    expect(r.stderr).toMatch(/index build interrupted by SIGINT; idx is as it was \(the partial build was removed\)/);
    expect(r.code).toBe(130); // 128 + SIGINT, as `run <system>` and `eval run` exit
    expect(treeOf(join(dir, 'idx'))).toEqual(before);
    expect(leftovers()).toEqual([]);
  }, 120_000);

  it('without --methods, an index whose dense embedder needs an endpoint is refused, naming dense; nothing changes', async () => {
    const before = treeOf(join(dir, 'idx'));
    const r = await runBuiltCli(['index', 'build', 'passages.jsonl', '--out', 'idx'], { cwd: dir, env: { LEXCASE_PROGRESS: 'off' }, timeoutMs: 60_000 });
    expect(treeOf(join(dir, 'idx'))).toEqual(before);
    expect(r.stderr).toMatch(
      /idx has the dense method \(openai:local-embed\); a rebuild without --methods keeps every method the index has, but its embedder \(openai\) needs an endpoint/,
    );
    expect(r.stderr).toMatch(/re-embed: --methods bm25,qld,dense --embedder openai --model local-embed .*; or drop dense: --methods bm25,qld/);
    expect(r.code).toBe(1);
    expect(treeOf(join(dir, 'idx'))).toEqual(before);
    expect(leftovers()).toEqual([]);
  }, 60_000);

  it('without --methods, the index keeps dense, re-embedded offline with the embedder it recorded', async () => {
    const b = await runBuiltCli(['index', 'build', 'passages.jsonl', '--out', 'tiny', '--model-dir', modelDir], {
      cwd: dir,
      env: { LEXCASE_PROGRESS: 'off' },
      timeoutMs: 90_000,
    });
    expect(b.code, b.stderr).toBe(0);
    const first = await readManifest(join(dir, 'tiny'));
    expect(first.methods).toEqual(['bm25', 'qld', 'dense']);

    const r = await runBuiltCli(['index', 'build', 'passages.jsonl', '--out', 'tiny'], { cwd: dir, env: { LEXCASE_PROGRESS: 'off' }, timeoutMs: 90_000 });
    expect(r.code, r.stderr).toBe(0);
    const again = await readManifest(join(dir, 'tiny'));
    expect(again.methods).toEqual(['bm25', 'qld', 'dense']);
    expect(again.dense).toMatchObject({ embedderId: 'transformers:tiny-bert', rows: N, spec: first.dense!.spec });
    expect(r.stderr).toMatch(
      /rebuilding tiny with the methods it has: bm25, qld, dense; dense re-embedded with transformers:tiny-bert as before \(--methods bm25,qld drops it\)/,
    );
    expect(r.stdout).toMatch(/methods bm25, qld, dense/);
    expect(leftovers()).toEqual([]);
  }, 180_000);
});
