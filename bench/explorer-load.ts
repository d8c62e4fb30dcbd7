/**
 * Bounded load test of the explorer's search (issue 13, item 10): a synthetic N-passage index
 * (generated and built once under the work dir, then reused), `lexcase serve` started in its own
 * process on 127.0.0.1 (port 0), C concurrent clients sending a fixed number of
 * GET /api/search requests between them (keep-alive), then p50/p95/p99/max latency and the error
 * count. With --explain F, a share F of the searches is followed by GET /api/explain for the top
 * hit (what the app does when a hit's explanation is opened), reported as a second row.
 *
 *   npx tsx bench/explorer-load.ts [--n 300000] [--clients 20] [--requests 400] [--explain 0.2]
 *        [--method bm25] [--k 10] [--words 140-170] [--seed 1] [--work .lexcase/bench] [--json]
 *   (or, after `npm run build`: node dist/bench/explorer-load.js …)
 *
 * Loopback only; nothing is written outside the work dir. Figures depend on the machine's load:
 * the report prints the load average at start and at the end.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { buildIndex } from '../indexer/build.js';
import { PACKAGE_ROOT } from '../core/version.js';
import { ensureCorpus } from './corpus-cache.js';
import { percentile } from './measure.js';
import { readPassagesJsonl } from './read-jsonl.js';
import { syntheticQueries } from './synthetic.js';

interface Row {
  requests: number;
  errors: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
}

const round = (x: number) => Math.round(x * 10) / 10;

function row(ms: number[], errors: number): Row {
  return {
    requests: ms.length + errors,
    errors,
    p50Ms: round(percentile(ms, 50)),
    p95Ms: round(percentile(ms, 95)),
    p99Ms: round(percentile(ms, 99)),
    maxMs: round(ms.length ? Math.max(...ms) : NaN),
    meanMs: round(ms.reduce((a, b) => a + b, 0) / (ms.length || 1)),
  };
}

/** GET over keep-alive; resolves with status and body (never rejects: network errors are status 0). */
function get(agent: Agent, base: URL, path: string, timeoutMs: number): Promise<{ status: number; body: string }> {
  return new Promise((done) => {
    const req = request({ host: base.hostname, port: base.port, path, agent, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', (e) => done({ status: 0, body: String(e) }));
    });
    req.on('timeout', () => req.destroy(new Error(`timed out after ${timeoutMs} ms`)));
    req.on('error', (e) => done({ status: 0, body: String(e) }));
    req.end();
  });
}

/** Start `lexcase serve` in its own process and wait for the URL it prints (--json). */
async function startServer(indexDir: string): Promise<{ child: ChildProcess; url: URL }> {
  const fromTs = fileURLToPath(import.meta.url).endsWith('.ts');
  const cli = join(PACKAGE_ROOT, fromTs ? 'src/cli/main.ts' : 'dist/src/cli/main.js');
  const child = spawn(
    process.execPath,
    [...(fromTs ? ['--import', 'tsx'] : []), cli, '--json', 'serve', '--index', indexDir, '--port', '0', '--host', '127.0.0.1'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
  const url = await new Promise<URL>((ok, fail) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      try {
        ok(new URL(JSON.parse(out).url));
      } catch {
        /* not the whole JSON yet */
      }
    });
    child.once('exit', (c) => fail(new Error(`lexcase serve exited (${c}) before listening: ${err.trim()}`)));
  });
  return { child, url };
}

async function ensureIndex(workDir: string, n: number, seed: number): Promise<{ indexDir: string; built: boolean; buildS: number }> {
  const indexDir = join(workDir, `explorer-index-n${n}-s${seed}`);
  if (existsSync(join(indexDir, 'manifest.json'))) return { indexDir, built: false, buildS: 0 };
  const { corpusFile } = await ensureCorpus(workDir, n, seed, 1);
  const t = performance.now();
  await buildIndex(readPassagesJsonl(corpusFile), { out: indexDir, corpusName: `synthetic-${n}`, methods: ['bm25', 'qld'] });
  return { indexDir, built: true, buildS: round((performance.now() - t) / 1000) };
}

async function main(): Promise<void> {
  const { values: a } = parseArgs({
    options: {
      n: { type: 'string', default: '300000' },
      clients: { type: 'string', default: '20' },
      requests: { type: 'string', default: '400' },
      explain: { type: 'string', default: '0.2' },
      method: { type: 'string', default: 'bm25' },
      k: { type: 'string', default: '10' },
      words: { type: 'string', default: '140-170' },
      seed: { type: 'string', default: '1' },
      work: { type: 'string', default: '.lexcase/bench' },
      'timeout-s': { type: 'string', default: '120' },
      out: { type: 'string' },
      json: { type: 'boolean', default: false },
    },
  });
  const n = Number(a.n);
  const clients = Number(a.clients);
  const total = Number(a.requests);
  const explainShare = Number(a.explain);
  const [minW, maxW] = a.words!.split('-').map(Number);
  const seed = Number(a.seed);
  const timeoutMs = Number(a['timeout-s']) * 1000;
  const say = (m: string) => a.json || process.stderr.write(`${m}\n`);
  const workDir = resolve(a.work!);

  const load0 = loadavg()[0];
  say(
    `explorer load: ${n} passages, ${clients} clients, ${total} searches (${a.method}, k=${a.k}, ${minW}-${maxW}-word queries), explain share ${explainShare}; ${availableParallelism()} cores, load avg ${load0.toFixed(2)}`,
  );
  const ix = await ensureIndex(workDir, n, seed);
  say(ix.built ? `built ${ix.indexDir} in ${ix.buildS} s` : `reusing ${ix.indexDir}`);
  // queries: bar-exam-like fact patterns of the synthetic vocabulary, trimmed to the API's 2,000 characters
  const queries = syntheticQueries({ count: Math.max(total, 50), seed: seed + 1, minWords: minW, maxWords: maxW }).map((q) => q.slice(0, 2000));

  const { child, url } = await startServer(ix.indexDir);
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  try {
    const path = (q: string) => `/api/search?q=${encodeURIComponent(q)}&method=${a.method}&k=${a.k}`;
    // warm-up (opens the index and its query workers), not counted
    const tw = performance.now();
    const warm = await get(agent, url, path(queries[0]), timeoutMs);
    if (warm.status !== 200) throw new Error(`warm-up search failed: HTTP ${warm.status} ${warm.body.slice(0, 300)}`);
    say(`server up at ${url.origin}; first search (opens the index) ${round(performance.now() - tw)} ms`);

    const searchMs: number[] = [];
    const explainMs: number[] = [];
    let searchErrors = 0;
    let explainErrors = 0;
    const errorSamples: string[] = [];
    let next = 0;
    const t0 = performance.now();
    const client = async () => {
      for (let i = next++; i < total; i = next++) {
        const q = queries[i % queries.length];
        const t = performance.now();
        const r = await get(agent, url, path(q), timeoutMs);
        if (r.status !== 200) {
          searchErrors++;
          if (errorSamples.length < 5) errorSamples.push(`search HTTP ${r.status}: ${r.body.slice(0, 200)}`);
          continue;
        }
        searchMs.push(performance.now() - t);
        // a deterministic share of searches opens the top hit's explanation, as a user would
        if ((i * 0.6180339887) % 1 < explainShare) {
          const top = (JSON.parse(r.body) as { hits: { id: string }[] }).hits[0];
          if (!top) continue;
          const te = performance.now();
          const e = await get(agent, url, `/api/explain?q=${encodeURIComponent(q)}&method=${a.method}&id=${encodeURIComponent(top.id)}`, timeoutMs);
          if (e.status === 200) explainMs.push(performance.now() - te);
          else {
            explainErrors++;
            if (errorSamples.length < 5) errorSamples.push(`explain HTTP ${e.status}: ${e.body.slice(0, 200)}`);
          }
        }
      }
    };
    await Promise.all(Array.from({ length: clients }, client));
    const wallS = (performance.now() - t0) / 1000;
    const result = {
      n,
      clients,
      method: a.method,
      k: Number(a.k),
      queryWords: `${minW}-${maxW}`,
      cores: availableParallelism(),
      loadAvgStart: round(load0),
      loadAvgEnd: round(loadavg()[0]),
      wallS: round(wallS),
      searchesPerS: round(searchMs.length / wallS),
      search: row(searchMs, searchErrors),
      explain: row(explainMs, explainErrors),
      errorSamples,
    };
    if (a.out) await writeFile(a.out, JSON.stringify(result, null, 2) + '\n');
    if (a.json) process.stdout.write(JSON.stringify(result, null, 2) + '\n');
    else {
      const line = (name: string, r: Row) =>
        `${name.padEnd(8)} ${String(r.requests).padStart(5)} req  errors ${r.errors}  p50 ${r.p50Ms} ms  p95 ${r.p95Ms} ms  p99 ${r.p99Ms} ms  max ${r.maxMs} ms  mean ${r.meanMs} ms`;
      process.stdout.write(
        `${line('search', result.search)}\n${line('explain', result.explain)}\n${result.searchesPerS} searches/s over ${result.wallS} s; load avg ${result.loadAvgStart} → ${result.loadAvgEnd} on ${result.cores} cores\n`,
      );
      for (const e of errorSamples) process.stdout.write(`  ${e}\n`);
    }
  } finally {
    agent.destroy();
    child.kill('SIGTERM');
  }
}

main().catch((e: Error) => {
  process.stderr.write(`explorer-load: ${e.message}\n`);
  process.exit(1);
});
