/**
 * Client throughput of the openai embedder (issue 31 target 4): a local OpenAI-compatible
 * /v1/embeddings server on 127.0.0.1 that answers at once (one precomputed body per batch size,
 * 384-dim vectors), and lexcase's client embedding synthetic 128-word passages through it — the
 * embedder alone at 1 and at the default 4 requests in flight, then `addDenseIndex` end to end
 * (embedding overlapped with LanceDB appends) on a small built index.
 *
 *   node dist/bench/embed-openai-local.js [--passages 20000] [--dim 384]
 *
 * Prints JSON: passages/s per configuration and the load average. The server shares the machine's
 * cores with the client, so this is a lower bound of what the client does against a remote server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createEmbedder } from '../indexer/embed/create-embedder.js';
import { buildIndex } from '../indexer/build.js';
import { addDenseIndex } from '../indexer/dense/add-dense.js';
import { syntheticPassagesSync } from './synthetic.js';

function instantServer(dim: number): Promise<{ server: Server; baseURL: string; requests: () => number }> {
  const bodies = new Map<number, string>();
  const vector = JSON.stringify(Array.from({ length: dim }, (_, j) => ((j * 7919) % 97) / 97 - 0.5));
  let requests = 0;
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (raw += d));
    req.on('end', () => {
      requests++;
      // Count the inputs without parsing the texts' JSON twice: the body is {"model":…,"input":[…]}.
      const n = (JSON.parse(raw) as { input: string[] | string }).input.length;
      let body = bodies.get(n);
      if (!body) {
        const data = Array.from({ length: n }, (_, i) => `{"object":"embedding","index":${i},"embedding":${vector}}`).join(',');
        bodies.set(n, (body = `{"object":"list","model":"local","data":[${data}],"usage":{"prompt_tokens":0,"total_tokens":0}}`));
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(body);
    });
  });
  return new Promise((r) =>
    server.listen(0, '127.0.0.1', () => r({ server, baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests: () => requests })),
  );
}

export async function runOpenAiLocalBench(passages = 20_000, dim = 384) {
  const { server, baseURL, requests } = await instantServer(dim);
  const texts: string[] = [];
  for (const p of syntheticPassagesSync({ n: passages, seed: 42 })) texts.push(p.text.split(' ').slice(0, 128).join(' '));
  const rows: Record<string, unknown>[] = [];
  const dir = await mkdtemp(join(tmpdir(), 'lexcase-embed-openai-'));
  try {
    for (const concurrency of [1, 4]) {
      const emb = await createEmbedder({ provider: 'openai', baseURL, model: 'local-embedder', apiKey: 'not-needed', concurrency });
      const r0 = requests();
      const t = performance.now();
      const vecs = await emb.embed(texts, { kind: 'passage' });
      const s = (performance.now() - t) / 1000;
      if (vecs.length !== texts.length) throw new Error('wrong vector count');
      rows.push({ what: 'embedder', concurrency, batchSize: 64, passages: texts.length, seconds: Math.round(s * 100) / 100, passagesPerS: Math.round(texts.length / s), requests: requests() - r0 });
    }
    // End to end: index dense over a built index (default batch 256 per append, 4 requests in flight).
    const idx = join(dir, 'index');
    await buildIndex(
      (async function* () {
        let i = 0;
        for (const text of texts) yield { id: `p${i++}`, text };
      })(),
      { out: idx, corpusName: 'embed-openai-local', workers: 0 },
    );
    const t = performance.now();
    await addDenseIndex(idx, { embedder: { provider: 'openai', baseURL, model: 'local-embedder', apiKey: 'not-needed' }, annThreshold: Number.MAX_SAFE_INTEGER });
    const s = (performance.now() - t) / 1000;
    rows.push({ what: 'addDenseIndex (embed + LanceDB append, flat)', concurrency: 4, batchSize: 64, appendBatch: 256, passages: texts.length, seconds: Math.round(s * 100) / 100, passagesPerS: Math.round(texts.length / s) });
  } finally {
    server.close();
    await rm(dir, { recursive: true, force: true });
  }
  return { dim, wordsPerPassage: 128, loadAvg: loadavg().map((x) => Math.round(x * 100) / 100), rows };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { passages: { type: 'string' }, dim: { type: 'string' } } });
  runOpenAiLocalBench(Number(values.passages ?? 20_000), Number(values.dim ?? 384))
    .then((r) => process.stdout.write(JSON.stringify(r, null, 2) + '\n'))
    .catch((e) => {
      process.stderr.write(`embed-openai-local failed: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    });
}
