/**
 * `npm run bench` — the single entry point. For each corpus size: generate (or reuse) the seeded
 * synthetic corpus and queries, then run every engine in its own child process on the same files:
 * lexcase (build once; bm25 and qld queried from fresh processes), LanceDB native FTS, and — at
 * sizes ≤ --peer-max-size — wink-bm25-text-search and MiniSearch (query counts capped, they are
 * slow). Then the dense-ANN and embedding-throughput scenarios when bench/dense-ann.ts and
 * bench/embed-throughput.ts exist, and the start-up scenario (bench/startup.ts: CPU time of whole
 * `lexcase --version` and `lexcase search` processes on the default index). Prints a Markdown table and writes
 * bench/results/<timestamp>.{json,md} and bench/results/latest.{json,md}.
 *
 *   node dist/bench/run.js [--sizes 100000,856835] [--queries 200] [--k 1000,10] [--seed 42]
 *     [--only lexcase,lancedb,wink,minisearch,dense,embed] [--skip-peers] [--peer-max-size 100000]
 *     [--wink-queries 20] [--minisearch-queries 10] [--peer-time-budget 90] [--dense-sizes …]
 *     [--dense-queries 100] [--dim 384] [--workers 2] [--work DIR] [--out DIR] [--keep]
 *     [--approx-shares 0.5,0.25] [--startup-runs 7]
 *   node dist/bench/run.js --scale [--scale-sizes 100000,856835,3000000,10000000] … (bench/scale.ts)
 * On the zipf corpus lexcase bm25/qld also time the opt-in approximate mode (a posting budget per
 * query, retrieval/sparse/approx.ts) at the largest k, with its recall@k against the exact top-k.
 */
import { existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, getPriority, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { denseScenarioAvailable, type ChildSpec, type EngineSpec } from './child.js';
import { ensureCorpus } from './corpus-cache.js';
import type { CorpusProfile } from './synthetic.js';
import { checkTargets, compare, renderMarkdown, type BenchResults, type CorpusInfo, type DenseRun, type EngineRun } from './report.js';
import { runChild } from './spawn-child.js';
import { parseScaleArgs, runScale } from './scale.js';
import { measureStartup } from './startup.js';
import { claimLimit, cpuLine, idleNotice } from './quiet.js';

export const SCENARIOS = ['lexcase', 'lancedb', 'wink', 'minisearch', 'dense', 'embed', 'startup'] as const;
export type Scenario = (typeof SCENARIOS)[number];

export interface BenchOptions {
  sizes: number[];
  /** Corpus profiles run at each size: 'bench' (today's corpus) and 'zipf' (the worst case, lexcase only). */
  corpora: CorpusProfile[];
  queries: number;
  ks: number[];
  seed: number;
  only: Scenario[];
  peerMaxSize: number;
  winkQueries: number;
  miniSearchQueries: number;
  peerTimeBudgetS: number;
  denseSizes: number[];
  denseQueries: number;
  dim: number;
  workers: number;
  /** Posting shares of lexcase's approximate mode timed on the zipf corpus (empty: none). */
  approxShares: number[];
  /** Runs of each command in the start-up scenario (median reported). */
  startupRuns: number;
  workDir: string;
  outDir: string;
  keep: boolean;
  /** Query an index a previous `--keep` run left in the work dir instead of building it (no build figures). */
  reuse: boolean;
  childTimeoutS: number;
  /** Write <timestamp> files and latest.* (false: only return the results). */
  write: boolean;
  print: boolean;
  log: (line: string) => void;
}

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), fileURLToPath(import.meta.url).endsWith('.ts') ? '..' : '../..');

export function defaultOptions(): BenchOptions {
  return {
    sizes: [100_000, 856_835],
    corpora: ['bench', 'zipf'],
    queries: 200,
    ks: [1000, 10],
    seed: 42,
    only: [...SCENARIOS],
    peerMaxSize: 100_000,
    winkQueries: 20,
    miniSearchQueries: 10,
    peerTimeBudgetS: 90,
    denseSizes: [100_000, 856_835],
    denseQueries: 100,
    dim: 384,
    workers: 2,
    approxShares: [0.5, 0.25],
    startupRuns: 7,
    workDir: join(ROOT, '.lexcase', 'bench'),
    outDir: join(ROOT, 'bench', 'results'),
    keep: false,
    reuse: false,
    childTimeoutS: 1800,
    write: true,
    print: true,
    log: (line) => process.stderr.write(`[bench] ${line}\n`),
  };
}

const ints = (s: string) =>
  s
    .split(',')
    .map((x) => Number(x.trim().replace(/_/g, '')))
    .filter((x) => Number.isFinite(x) && x > 0);

export function parseBenchArgs(argv: string[]): BenchOptions {
  const o = defaultOptions();
  const { values } = parseArgs({
    args: argv,
    options: {
      sizes: { type: 'string' },
      corpora: { type: 'string' },
      queries: { type: 'string' },
      k: { type: 'string' },
      seed: { type: 'string' },
      only: { type: 'string' },
      'skip-peers': { type: 'boolean' },
      'peer-max-size': { type: 'string' },
      'wink-queries': { type: 'string' },
      'minisearch-queries': { type: 'string' },
      'peer-time-budget': { type: 'string' },
      'dense-sizes': { type: 'string' },
      'dense-queries': { type: 'string' },
      dim: { type: 'string' },
      workers: { type: 'string' },
      'approx-shares': { type: 'string' },
      'startup-runs': { type: 'string' },
      work: { type: 'string' },
      out: { type: 'string' },
      keep: { type: 'boolean' },
      reuse: { type: 'boolean' },
      'child-timeout': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(HELP + '\n');
    process.exit(0);
  }
  if (values.sizes) o.sizes = ints(values.sizes);
  if (values['dense-sizes']) o.denseSizes = ints(values['dense-sizes']);
  else if (values.sizes) o.denseSizes = o.sizes;
  if (values.corpora) {
    const want = values.corpora.split(',').map((x) => x.trim());
    const bad = want.filter((w) => w !== 'bench' && w !== 'zipf');
    if (bad.length) throw new Error(`--corpora: unknown corpus ${bad.join(', ')} (known: bench, zipf)`);
    o.corpora = want as CorpusProfile[];
  }
  if (values.queries) o.queries = Number(values.queries);
  if (values.k) o.ks = ints(values.k);
  if (values.seed) o.seed = Number(values.seed);
  if (values.only) {
    const want = values.only.split(',').map((s) => s.trim());
    const bad = want.filter((w) => !(SCENARIOS as readonly string[]).includes(w));
    if (bad.length) throw new Error(`--only: unknown scenario(s) ${bad.join(', ')} (known: ${SCENARIOS.join(', ')})`);
    o.only = want as Scenario[];
  }
  if (values['skip-peers']) o.only = o.only.filter((s) => !['lancedb', 'wink', 'minisearch'].includes(s));
  if (values['peer-max-size']) o.peerMaxSize = Number(values['peer-max-size']);
  if (values['wink-queries']) o.winkQueries = Number(values['wink-queries']);
  if (values['minisearch-queries']) o.miniSearchQueries = Number(values['minisearch-queries']);
  if (values['peer-time-budget']) o.peerTimeBudgetS = Number(values['peer-time-budget']);
  if (values['dense-queries']) o.denseQueries = Number(values['dense-queries']);
  if (values.dim) o.dim = Number(values.dim);
  if (values.workers) o.workers = Number(values.workers);
  if (values['approx-shares'] !== undefined) {
    const v = values['approx-shares'].trim();
    o.approxShares = v === '' || v === 'none' ? [] : v.split(',').map((x) => Number(x.trim()));
    const bad = o.approxShares.filter((x) => !(x > 0 && x <= 1));
    if (bad.length) throw new Error(`--approx-shares: each share must be > 0 and ≤ 1, got ${bad.join(', ')}`);
  }
  if (values['startup-runs']) o.startupRuns = Number(values['startup-runs']);
  if (values.work) o.workDir = resolve(values.work);
  if (values.out) o.outDir = resolve(values.out);
  if (values.keep) o.keep = true;
  if (values.reuse) o.reuse = o.keep = true;
  if (values['child-timeout']) o.childTimeoutS = Number(values['child-timeout']);
  return o;
}

const HELP = `npm run bench -- [options]
  --sizes LIST            corpus sizes (default 100000,856835)
  --corpora LIST          bench (today's corpus), zipf (worst case: 50K tokens, Zipf 1.07,
                          no stopwords/stemming, 170-token queries; lexcase only) (default both)
  --queries N             queries per size for lexcase and LanceDB (default 200)
  --k LIST                top-k values timed (default 1000,10)
  --seed N                generator seed (default 42)
  --only LIST             scenarios: ${SCENARIOS.join(',')} (default all)
  --skip-peers            drop lancedb, wink, minisearch
  --peer-max-size N       largest size wink and MiniSearch run at (default 100000)
  --wink-queries N        queries timed for wink per k (default 20)
  --minisearch-queries N  queries timed for MiniSearch per k (default 10)
  --peer-time-budget S    stop timing a slow peer's k after S seconds (default 90; ≥ 3 queries)
  --dense-sizes LIST      vector counts for the dense ANN scenario (default = sizes)
  --dense-queries N       ANN queries (default 100)
  --dim N                 vector dimension (default 384)
  --workers N             lexcase build workers (default 2)
  --approx-shares LIST    posting shares of lexcase's opt-in approximate mode timed on the zipf
                          corpus at the largest k, with recall@k vs exact (default 0.5,0.25; none)
  --startup-runs N        runs of each command in the start-up scenario (lexcase --version,
                          search on the default index, node -e 0; CPU medians) (default 7)
  --work DIR              data and index scratch dir (default .lexcase/bench)
  --out DIR               results dir (default bench/results)
  --keep                  keep built indexes
  --reuse                 query lexcase indexes a --keep run left (skips their build; implies --keep)
  --child-timeout S       kill a scenario after S seconds (default 1800)
  --scale                 the cost curve to 10M passages instead (issue 31): npm run bench -- --scale --help`;

const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;

/** A dense scenario's record from its child: status, the loads at its start and end and its CPU (they decide whether its timing targets are claimed), then its result. */
function denseRun(scenario: DenseRun['scenario'], args: DenseRun['args'], d: Awaited<ReturnType<typeof runChild>>): DenseRun {
  const run: DenseRun = {
    scenario,
    args,
    status: d.ok ? 'ok' : 'failed',
    reason: d.error,
    loadAvgAtStart: d.loadAvgAtStart,
    loadAvgAtEnd: d.loadAvgAtEnd,
    ...(d.cpu ? { cpu: d.cpu } : {}),
  };
  if (d.ok) Object.assign(run, d.result);
  return run;
}

export async function runBench(opts: BenchOptions): Promise<BenchResults> {
  const startedAt = new Date().toISOString();
  const log = opts.log;
  const results: BenchResults = {
    schema: 'lexcase-bench/1',
    startedAt,
    finishedAt: '',
    command: `node dist/bench/run.js ${process.argv.slice(2).join(' ')}`.trim(),
    machine: {
      cpus: cpus().length,
      usableCpus: availableParallelism(),
      cpuModel: cpus()[0]?.model ?? 'unknown',
      totalMemGiB: round(totalmem() / 2 ** 30, 1),
      node: process.version,
      platform: process.platform,
      arch: process.arch,
      loadAvgAtStart: loadavg().map((x) => round(x)),
      nice: getPriority(),
    },
    options: { ...opts, log: undefined },
    corpora: [],
    runs: [],
    dense: [],
    startup: undefined,
    comparisons: [],
    targets: [],
    notes: [],
  };
  const want = (s: Scenario) => opts.only.includes(s);
  log(idleNotice(claimLimit(results.machine.usableCpus), results.machine.usableCpus));
  await mkdir(opts.workDir, { recursive: true });
  const resultFile = join(opts.workDir, `child-result-${process.pid}.json`);

  // the corpora are generated only for the scenarios that search them (not for dense/embed/startup alone)
  const corpusSizes = opts.only.some((s) => s === 'lexcase' || s === 'lancedb' || s === 'wink' || s === 'minisearch') ? opts.sizes : [];
  for (const size of corpusSizes)
    for (const profile of opts.corpora) {
      const tag = profile === 'zipf' ? `${size} zipf` : `${size}`;
      log(`corpus ${tag}: generating or reusing…`);
      const data = await ensureCorpus(opts.workDir, size, opts.seed, opts.queries, profile);
      const c: CorpusInfo = {
        size,
        ...(profile === 'zipf' ? { profile } : {}),
        passages: data.stats.passages,
        rawTextBytes: data.stats.rawTextBytes,
        words: data.stats.words,
        meanWords: round(data.stats.words / data.stats.passages, 1),
        generateS: data.stats.generateS,
        cached: data.stats.cached,
      };
      results.corpora.push(c);
      log(`corpus ${tag}: ${c.words} words, ${round(c.rawTextBytes / 2 ** 20, 1)} MiB text${c.cached ? ' (cached)' : `, generated in ${c.generateS} s`}`);
      const base = {
        corpusFile: data.corpusFile,
        queriesFile: data.queriesFile,
        ks: opts.ks,
        workers: opts.workers,
        resultFile,
        ...(profile === 'zipf' ? { corpus: profile } : {}),
      };
      const corpusTag = profile === 'zipf' ? { corpus: profile } : {};

      const runEngine = async (engine: string, methods: (string | undefined)[], persistent: boolean, cap?: number) => {
        const workDir = join(opts.workDir, `${engine}-${size}${profile === 'zipf' ? '-zipf' : ''}`);
        const reuse = opts.reuse && persistent && engine === 'lexcase' && existsSync(join(workDir, 'index', 'manifest.json'));
        if (!reuse) {
          await rm(workDir, { recursive: true, force: true });
          await mkdir(workDir, { recursive: true });
        }
        const spec = (phase: EngineSpec['phase'], method?: string): ChildSpec => ({
          kind: 'engine',
          engine,
          phase,
          method,
          workDir,
          ...base,
          ...(cap !== undefined ? { maxQueries: cap, timeBudgetS: opts.peerTimeBudgetS } : {}),
          ...(engine === 'lexcase' && profile === 'zipf' && phase === 'query' && opts.approxShares.length ? { approxShares: opts.approxShares } : {}),
        });
        if (persistent) {
          log(`${tag} ${engine}: ${reuse ? 'reusing the index a --keep run left' : 'build'}`);
          const b = reuse
            ? { ok: true as const, error: undefined, result: { reused: true }, loadAvgAtStart: loadavg()[0] }
            : await runChild(spec('build'), opts.childTimeoutS);
          if (!b.ok) {
            log(`${tag} ${engine}: build FAILED ${b.error}`);
            for (const m of methods) results.runs.push({ size, ...corpusTag, engine, method: m, status: 'failed', reason: `build: ${b.error}` });
            return;
          }
          const br = b.result as Record<string, unknown> & NonNullable<EngineRun['build']>;
          const breakdown = br.indexBreakdown;
          const postingsBytes = br.indexBytes !== undefined && breakdown ? br.indexBytes - (breakdown.docs ?? 0) : br.indexBytes;
          const build: EngineRun['build'] = {
            buildS: br.buildS,
            buildCpuS: br.buildCpuS,
            buildPeakRssMiB: br.buildPeakRssMiB,
            indexBytes: br.indexBytes,
            postingsBytes,
            indexBreakdown: breakdown,
            loadAvgAtStart: b.loadAvgAtStart,
            ...('loadAvgAtEnd' in b ? { loadAvgAtEnd: b.loadAvgAtEnd } : {}),
            ...('cpu' in b && b.cpu ? { cpu: b.cpu } : {}),
          };
          if (!reuse)
            log(
              `${tag} ${engine}: built in ${build.buildS} s, peak RSS ${build.buildPeakRssMiB} MiB, ${round((build.indexBytes ?? 0) / 2 ** 20, 1)} MiB on disk; ${cpuLine(build.cpu)}`,
            );
          let first = true;
          for (const m of methods) {
            log(`${tag} ${engine}${m ? ` ${m}` : ''}: queries`);
            const q = await runChild(spec('query', m), opts.childTimeoutS);
            const run: EngineRun = {
              size,
              ...corpusTag,
              engine,
              method: m,
              status: q.ok ? 'ok' : 'failed',
              reason: q.error,
              build: first && !reuse ? build : undefined,
            };
            if (q.ok)
              run.query = {
                ...(q.result as NonNullable<EngineRun['query']>),
                maxQueries: cap,
                loadAvgAtStart: q.loadAvgAtStart,
                loadAvgAtEnd: q.loadAvgAtEnd,
                ...(q.cpu ? { cpu: q.cpu } : {}),
              };
            if (q.ok)
              log(
                `${tag} ${engine}${m ? ` ${m}` : ''}: p50@${opts.ks[0]} ${run.query!.byK[String(opts.ks[0])]?.p50Ms} ms, load ${run.query!.loadS} s; ${cpuLine(q.cpu)}`,
              );
            const bc = q.ok ? run.query!.blockChecks : undefined;
            if (bc)
              log(
                `${tag} ${engine}${m ? ` ${m}` : ''}: block checks ${bc.openMs} ms at open (${bc.openMiB} MiB), ${bc.queriesMs} ms over all queries (${bc.queriesMiB} MiB), ${bc.blocks} blocks`,
              );
            else log(`${tag} ${engine}: queries FAILED ${q.error}`);
            for (const a of (q.ok && run.query!.approx) || [])
              log(
                `${tag} ${engine} ${m} APPROXIMATE share ${a.postingShare}: p50@${a.k} ${a.p50Ms} ms (exact ${a.exactP50Ms}), recall@${a.k} vs exact ${a.recallMean} (min ${a.recallMin})`,
              );
            results.runs.push(run);
            first = false;
          }
        } else {
          log(`${tag} ${engine}: build + queries (one process)`);
          const a = await runChild(spec('all'), opts.childTimeoutS);
          if (!a.ok) {
            log(`${tag} ${engine}: FAILED ${a.error}`);
            results.runs.push({ size, engine, status: 'failed', reason: a.error });
          } else {
            const r = a.result as Record<string, unknown> & NonNullable<EngineRun['build']> & NonNullable<EngineRun['query']>;
            results.runs.push({
              size,
              engine,
              status: 'ok',
              build: {
                buildS: r.buildS,
                buildCpuS: r.buildCpuS,
                buildPeakRssMiB: r.buildPeakRssMiB,
                loadAvgAtStart: a.loadAvgAtStart,
                loadAvgAtEnd: a.loadAvgAtEnd,
                ...(a.cpu ? { cpu: a.cpu } : {}),
              },
              query: {
                byK: r.byK,
                queryPeakRssMiB: r.queryPeakRssMiB,
                top10: r.top10,
                maxQueries: cap,
                loadAvgAtStart: a.loadAvgAtStart,
                loadAvgAtEnd: a.loadAvgAtEnd,
                ...(a.cpu ? { cpu: a.cpu } : {}),
              },
            });
            log(
              `${tag} ${engine}: built in ${r.buildS} s, p50@${opts.ks[0]} ${r.byK[String(opts.ks[0])]?.p50Ms} ms, peak RSS ${r.queryPeakRssMiB} MiB; ${cpuLine(a.cpu)}`,
            );
          }
        }
        if (!opts.keep) await rm(workDir, { recursive: true, force: true });
      };

      if (want('lexcase')) await runEngine('lexcase', ['bm25', 'qld'], true);
      if (profile === 'zipf') continue; // the worst case is lexcase's own stress test: peers run on today's corpus
      if (want('lancedb')) await runEngine('lancedb-fts', [undefined], true);
      const small = size <= opts.peerMaxSize;
      for (const [s, engine, cap] of [
        ['wink', 'wink-bm25', opts.winkQueries],
        ['minisearch', 'minisearch', opts.miniSearchQueries],
      ] as const) {
        if (!want(s)) continue;
        if (small) await runEngine(engine, [undefined], false, Math.min(cap, opts.queries));
        else
          results.runs.push({
            size,
            engine,
            status: 'skipped',
            reason: `only run at ≤ ${opts.peerMaxSize.toLocaleString('en')} passages (in-memory, too slow/large beyond)`,
          });
      }
      for (const k of opts.ks) {
        for (const peer of ['wink-bm25', 'minisearch', 'lancedb-fts']) {
          const cmp = compare(results.runs, size, peer, k);
          if (cmp) results.comparisons.push(cmp);
        }
      }
    }

  if (want('dense')) {
    if (!denseScenarioAvailable('dense-ann')) {
      results.dense.push({ scenario: 'dense-ann', args: {}, status: 'skipped', reason: 'bench/dense-ann.ts not present' });
    } else {
      for (const n of opts.denseSizes) {
        const args = { n, dim: opts.dim, queries: opts.denseQueries, seed: opts.seed, workDir: join(opts.workDir, `dense-${n}`) };
        log(`dense ANN ${n} × ${opts.dim}`);
        const d = await runChild({ kind: 'dense-ann', args, resultFile }, opts.childTimeoutS);
        const run = denseRun('dense-ann', args, d);
        results.dense.push(run);
        log(`dense ANN ${n}: ${d.ok ? JSON.stringify(run.result).slice(0, 200) : `FAILED ${d.error}`}`);
        if (!opts.keep) await rm(args.workDir, { recursive: true, force: true });
      }
    }
  }
  if (want('embed')) {
    if (!denseScenarioAvailable('embed')) {
      results.dense.push({ scenario: 'embed', args: {}, status: 'skipped', reason: 'bench/embed-throughput.ts not present' });
    } else {
      const args = { seed: opts.seed };
      log('embedding throughput');
      const d = await runChild({ kind: 'embed', args, resultFile }, opts.childTimeoutS);
      // its load at start and CPU decide whether its timing targets are claimed (bench/report.ts embedScale), as for dense-ann
      const run = denseRun('embed', args, d);
      results.dense.push(run);
    }
  }
  if (want('startup')) {
    log('start-up: CPU time of whole lexcase processes');
    const cli = join(ROOT, 'dist', 'src', 'cli', 'main.js');
    const workDir = join(opts.workDir, 'startup');
    try {
      const s = await measureStartup({ cli, workDir, runs: opts.startupRuns, log });
      results.startup = 'skipped' in s ? { status: 'skipped', reason: s.skipped } : { status: 'ok', ...s };
    } catch (e) {
      results.startup = { status: 'failed', reason: (e as Error).message };
      log(`start-up FAILED ${(e as Error).message}`);
    }
    if (!opts.keep) await rm(workDir, { recursive: true, force: true });
  }
  await rm(resultFile, { force: true });

  results.targets = checkTargets(results, undefined, undefined, claimLimit(results.machine.usableCpus));
  const capped = results.runs.filter((r) => r.query?.maxQueries !== undefined);
  if (capped.length) {
    results.notes.push(
      `Slow in-memory peers time at most ${opts.winkQueries} (wink) / ${opts.miniSearchQueries} (MiniSearch) queries per k and stop after ${opts.peerTimeBudgetS} s (≥ 3 queries); speed-ups compare p50 over the same first queries for both engines.`,
    );
  }
  results.notes.push(
    'Peak RSS is the high-water mark (VmHWM) of the engine\'s own child process (worker threads included; not getrusage maxRSS, which on Linux starts from the driver\'s RSS at spawn). lexcase "peak RSS" in comparisons is the larger of its build process and its serving process.',
    "lexcase index size excludes the doc store (docs/: passage text kept for display) in the ratio; the size with it is shown too. LanceDB's directory holds the text plus its FTS index.",
    'All engines share one 2-core machine with other work; the load average at the start and end of each child and its CPU (cpu: wall s, the busy CPU s of the usable cores from /proc/stat, the own CPU s of the bench process and its children) are in the JSON: a timing target (build time, latency, speed-up, ANN p50) whose child started at a load above 0.75 × usable cores (1.5 on 2), or had more than 0.25 cores of other work beside it (machine busy − own, ÷ wall), is "not claimed" (bench/quiet.ts); the end load is kept for the record only. "CPU p50" is the per-query process CPU time (user + system, all threads): close to the uncontended latency for single-threaded engines, and above wall time for multi-threaded ones (LanceDB).',
  );
  results.finishedAt = new Date().toISOString();

  if (opts.write) {
    await mkdir(opts.outDir, { recursive: true });
    const stamp = startedAt.replace(/[:.]/g, '-');
    const json = JSON.stringify(results, null, 2);
    const md = renderMarkdown(results);
    for (const name of [stamp, 'latest']) {
      await writeFile(join(opts.outDir, `${name}.json`), json);
      await writeFile(join(opts.outDir, `${name}.md`), md);
    }
    log(`wrote ${join(opts.outDir, `${stamp}.{json,md}`)} and latest.{json,md}`);
  }
  if (opts.print) process.stdout.write(renderMarkdown(results) + '\n');
  return results;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const argv = process.argv.slice(2);
  // A bad option is one line naming it (exit 2), not a stack trace.
  let main: () => Promise<unknown>;
  try {
    if (argv.includes('--scale')) {
      const o = parseScaleArgs(argv);
      main = () => runScale(o);
    } else {
      const o = parseBenchArgs(argv);
      main = () => runBench(o);
    }
  } catch (err) {
    process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)} (npm run bench -- ${argv.includes('--scale') ? '--scale ' : ''}--help)\n`);
    process.exit(2);
  }
  main().catch((err) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });
}
