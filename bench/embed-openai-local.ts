/**
 * Client throughput of the openai embedder (issue 31 target 4): a local OpenAI-compatible
 * /v1/embeddings server on 127.0.0.1 that answers at once (one precomputed body per batch size,
 * 384-dim vectors), and lexcase's client embedding synthetic 128-word passages through it — the
 * embedder alone at 1 and at the default 4 requests in flight, then `addDenseIndex` end to end
 * (embedding overlapped with LanceDB appends) on a small built index.
 *
 *   node dist/bench/embed-openai-local.js [--passages 20000] [--dim 384]
 *
 * Prints JSON: passages/s and the client's CPU µs per passage per configuration, and the load
 * average. The server runs in a child process (this file with --serve) but shares the machine's
 * cores with the client, so passages/s is a lower bound of what the client does against a remote
 * server; 1e6 / (CPU µs per passage) is what one core of client could do.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createEmbedder } from '../indexer/embed/create-embedder.js';
import { syntheticPassagesSync } from './synthetic.js';

/**
 * The instant server: it reads the request (JSON.parse, to count the inputs and see the encoding
 * asked for) and answers with a body precomputed per (inputs, encoding) — base64 when asked for
 * (`honourBase64`), float arrays otherwise, as a server that ignores `encoding_format` does.
 */
function instantServer(dim: number, honourBase64: boolean): Promise<{ server: Server; baseURL: string }> {
  const bodies = new Map<string, Buffer>();
  const values = Array.from({ length: dim }, (_, j) => ((j * 7919) % 97) / 97 - 0.5);
  const asFloat = JSON.stringify(values);
  const asBase64 = JSON.stringify(Buffer.from(Float32Array.from(values).buffer).toString('base64'));
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (d: Buffer) => chunks.push(d));
    req.on('end', () => {
      const q = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { input: string[] | string; encoding_format?: string };
      const n = Array.isArray(q.input) ? q.input.length : 1;
      const b64 = honourBase64 && q.encoding_format === 'base64';
      const key = `${n}:${b64}`;
      let body = bodies.get(key);
      if (!body) {
        const vector = b64 ? asBase64 : asFloat;
        const data = Array.from({ length: n }, (_, i) => `{"object":"embedding","index":${i},"embedding":${vector}}`).join(',');
        bodies.set(key, (body = Buffer.from(`{"object":"list","model":"local","data":[${data}],"usage":{"prompt_tokens":0,"total_tokens":0}}`)));
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    });
  });
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r({ server, baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` })));
}

/** The server in its own process (this file with --serve), so its CPU is not the client's; resolves its base URL. */
function serverProcess(dim: number, honourBase64: boolean): Promise<{ child: ChildProcess; baseURL: string }> {
  const self = fileURLToPath(import.meta.url);
  // From sources (vitest), the child loads this .ts through tsx.
  const execArgv = self.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = fork(self, ['--serve', String(dim), honourBase64 ? 'base64' : 'float'], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv });
  return new Promise((res, rej) => {
    child.once('message', (m) => res({ child, baseURL: String(m) }));
    child.once('error', rej);
    child.once('exit', (code) => rej(new Error(`bench embedding server exited with code ${code}`)));
  });
}

const round = (x: number, d = 0) => Math.round(x * 10 ** d) / 10 ** d;

export interface OpenAiLocalArgs {
  passages?: number;
  dim?: number;
  /** Also time addDenseIndex end to end (default true; false leaves LanceDB unloaded). */
  endToEnd?: boolean;
}

/**
 * Client passages/s and client CPU per passage (this process's user+system CPU: the server runs in
 * a child process) for: the embedder at 1 and 4 requests in flight against a server that honours
 * base64, the same against one that answers float arrays whatever is asked, and addDenseIndex end
 * to end (embedding overlapped with LanceDB appends, base64 server).
 */
export async function runOpenAiLocalBench(args: OpenAiLocalArgs = {}) {
  const passages = args.passages ?? 20_000;
  const dim = args.dim ?? 384;
  const servers = { base64: await serverProcess(dim, true), float: await serverProcess(dim, false) };
  const texts: string[] = [];
  for (const p of syntheticPassagesSync({ n: passages, seed: 42 })) texts.push(p.text.split(' ').slice(0, 128).join(' '));
  const rows: Array<{
    what: string;
    server: string;
    concurrency: number;
    passages: number;
    seconds: number;
    passagesPerS: number;
    clientCpuUsPerPassage: number;
  }> = [];
  const timed = async (what: string, server: 'base64' | 'float', concurrency: number, fn: () => Promise<void>) => {
    const c0 = process.cpuUsage();
    const t = performance.now();
    await fn();
    const s = (performance.now() - t) / 1000;
    const c = process.cpuUsage(c0);
    rows.push({
      what,
      server,
      concurrency,
      passages: texts.length,
      seconds: round(s, 2),
      passagesPerS: round(texts.length / s),
      clientCpuUsPerPassage: round((c.user + c.system) / texts.length, 1),
    });
  };
  const dir = await mkdtemp(join(tmpdir(), 'lexcase-embed-openai-'));
  try {
    for (const [server, concurrency] of [
      ['base64', 1],
      ['base64', 4],
      ['float', 4],
    ] as const) {
      const emb = await createEmbedder({ provider: 'openai', baseURL: servers[server].baseURL, model: 'local-embedder', apiKey: 'not-needed', concurrency });
      await emb.embed(texts.slice(0, 256), { kind: 'passage' }); // warm-up: connections, JIT
      await timed('embedder', server, concurrency, async () => {
        const vecs = await emb.embed(texts, { kind: 'passage' });
        if (vecs.length !== texts.length || vecs[0].length !== dim) throw new Error('wrong vectors');
      });
    }
    if (args.endToEnd === false) return { dim, wordsPerPassage: 128, batchSize: 64, appendBatch: 256, loadAvg: loadavg().map((x) => round(x, 2)), rows };
    // End to end: index dense over a built index (default batch 256 per append, 4 requests in flight).
    const { buildIndex } = await import('../indexer/build.js');
    const { addDenseIndex } = await import('../indexer/dense/add-dense.js');
    const idx = join(dir, 'index');
    await buildIndex(
      (async function* () {
        let i = 0;
        for (const text of texts) yield { id: `p${i++}`, text };
      })(),
      { out: idx, corpusName: 'embed-openai-local', workers: 0 },
    );
    await timed('addDenseIndex (embed + LanceDB append, flat)', 'base64', 4, async () => {
      await addDenseIndex(idx, {
        embedder: { provider: 'openai', baseURL: servers.base64.baseURL, model: 'local-embedder', apiKey: 'not-needed' },
        annThreshold: Number.MAX_SAFE_INTEGER,
      });
    });
  } finally {
    for (const s of Object.values(servers)) s.child.kill();
    await rm(dir, { recursive: true, force: true });
  }
  return { dim, wordsPerPassage: 128, batchSize: 64, appendBatch: 256, loadAvg: loadavg().map((x) => round(x, 2)), rows };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const { values } = parseArgs({
    args: process.argv.slice(2),
    allowPositionals: true,
    options: { passages: { type: 'string' }, dim: { type: 'string' }, serve: { type: 'string' }, 'no-end-to-end': { type: 'boolean' } },
  });
  if (values.serve) {
    const { server, baseURL } = await instantServer(Number(values.serve), process.argv.at(-1) === 'base64');
    process.send?.(baseURL);
    process.on('disconnect', () => server.close(() => process.exit(0)));
  } else {
    runOpenAiLocalBench({ passages: Number(values.passages ?? 20_000), dim: Number(values.dim ?? 384), endToEnd: !values['no-end-to-end'] })
      .then((r) => process.stdout.write(JSON.stringify(r, null, 2) + '\n'))
      .catch((e) => {
        process.stderr.write(`embed-openai-local failed: ${e instanceof Error ? e.message : String(e)}\n`);
        process.exit(1);
      });
  }
}
