/**
 * Where 'auto' should switch from MaxScore to blocked TAAT (score-core.ts BLOCKED_MIN_DENSITY),
 * measured on one kept scale index (`npm run bench -- --scale --keep`):
 *
 *   node dist/bench/strategy-crossover.js INDEX_DIR PROFILE [QUERIES]
 *
 * Agent queries of the profile (8–30 words, k 10) and their 1-, 2- and 4-word prefixes and last
 * words (to reach sparse queries) are scored on the calling thread over the whole doc range by
 * 'blocked' and 'maxscore', both exact, in the same process on the same warm lists (best CPU time of
 * two runs each). Prints per density bucket (Σ df of the query's terms ÷ docs) the mean CPU ms of
 * each and the density where blocked starts to win, as a table and JSON. Both strategies must rank
 * the same docs with the same scores (checked).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { openSparseIndex } from '../retrieval/open.js';
import { queryTerms } from '../retrieval/sparse/query-terms.js';
import { scoreTopK, type ScoreRequest, type Strategy } from '../retrieval/sparse/score-core.js';
import { syntheticQueries, type CorpusProfile } from './synthetic.js';

const BUCKETS = [0.0003, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, Infinity];
const ARMS: Strategy[] = ['blocked', 'maxscore'];

export interface CrossoverBucket {
  lo: number;
  hi: number;
  queries: number;
  blockedMs: number;
  maxscoreMs: number;
}

const cpuMs = (f: () => unknown) => {
  const c = process.cpuUsage();
  f();
  const d = process.cpuUsage(c);
  return (d.user + d.system) / 1000;
};

export async function strategyCrossover(dir: string, profile: CorpusProfile, count: number, method: 'bm25' | 'qld') {
  const index = await openSparseIndex(dir);
  const full = syntheticQueries({ count, seed: 42, profile, shape: 'agent' }); // the scale bench's seed: the zipf vocabulary depends on it
  const words = (q: string) => q.split(/\s+/).filter(Boolean);
  const qs = [
    ...full,
    ...full.map((q) => words(q).slice(-1).join(' ')),
    ...full.map((q) => words(q).slice(0, 1).join(' ')),
    ...full.map((q) => words(q).slice(0, 2).join(' ')),
    ...full.map((q) => words(q).slice(0, 4).join(' ')),
  ];
  const reqs: ScoreRequest[] = qs
    .map((q) => ({ ...queryTerms(index, q), k: 10, method, k1: 0.9, b: 0.4, mu: 2000, variant: 'textbook' }) as ScoreRequest)
    .filter((r) => r.ids.length > 0);
  const load = loadavg()[0];
  for (const r of reqs) for (const s of ARMS) scoreTopK(index.view, r, s); // decode and cache the lists first
  const rows: { density: number; blocked: number; maxscore: number }[] = [];
  for (const r of reqs) {
    let postings = 0;
    for (const id of r.ids) postings += index.df[id];
    const t: Record<string, number> = {};
    let ref: string | undefined;
    for (const s of ARMS) {
      let best = Infinity;
      for (let i = 0; i < 2; i++)
        best = Math.min(
          best,
          cpuMs(() => scoreTopK(index.view, r, s)),
        );
      t[s] = best;
      const got = JSON.stringify(scoreTopK(index.view, r, s));
      if (ref === undefined) ref = got;
      else if (got !== ref) throw new Error(`'${s}' and '${ARMS[0]}' rank differently for a query of ${r.ids.length} terms`);
    }
    rows.push({ density: postings / index.N, blocked: t.blocked, maxscore: t.maxscore });
  }
  const buckets: CrossoverBucket[] = [];
  let lo = 0;
  for (const hi of BUCKETS) {
    const b = rows.filter((r) => r.density >= lo && r.density < hi);
    if (b.length) {
      const mean = (k: 'blocked' | 'maxscore') => Math.round((b.reduce((x, r) => x + r[k], 0) / b.length) * 1000) / 1000;
      buckets.push({ lo, hi, queries: b.length, blockedMs: mean('blocked'), maxscoreMs: mean('maxscore') });
    }
    lo = hi;
  }
  const firstBlockedWin = buckets.find((b) => b.blockedMs < b.maxscoreMs)?.lo ?? null;
  return { index: dir, N: index.N, profile, method, queries: rows.length, loadAvgAtStart: load, buckets, firstBlockedWin };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const [dir, profile, n] = process.argv.slice(2);
  if (!dir || (profile !== 'bench' && profile !== 'zipf')) {
    process.stderr.write('usage: node dist/bench/strategy-crossover.js INDEX_DIR bench|zipf [QUERIES]\n');
    process.exit(2);
  }
  for (const method of ['bm25', 'qld'] as const) {
    const r = await strategyCrossover(dir, profile, Number(n ?? 60), method);
    process.stdout.write(`${method} on ${r.N.toLocaleString('en-US')} ${profile} passages, ${r.queries} queries, load ${r.loadAvgAtStart.toFixed(2)}\n`);
    process.stdout.write('| density (Σ df ÷ docs) | queries | blocked CPU ms | maxscore CPU ms |\n|---|---:|---:|---:|\n');
    for (const b of r.buckets) process.stdout.write(`| [${b.lo}, ${b.hi}) | ${b.queries} | ${b.blockedMs} | ${b.maxscoreMs} |\n`);
    process.stdout.write(`blocked wins from density ${r.firstBlockedWin}\n${JSON.stringify(r)}\n`);
  }
}
