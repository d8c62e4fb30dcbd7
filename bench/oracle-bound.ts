/**
 * The least work any exact (safe) dynamic-pruning algorithm of the MaxScore / WAND / block-max
 * family could do on the agent shape — an oracle bound (issue 38; docs/notes/2026-11-30-oracle-bound.md):
 *
 *   node dist/bench/oracle-bound.js run INDEX_DIR PROFILE OUT.json [QUERIES] [FIRST] [SCALE_RESULTS.json]
 *   node dist/bench/oracle-bound.js table DIR      (prints the markdown table from DIR's *.json, writes DIR/table.md)
 *
 * Per query (the scale bench's agent queries: seed 42, from the FIRST-th; BM25 k1 0.9 b 0.4, k = 10,
 * the whole doc range), every figure a COUNT (deterministic, load-free):
 *  (a) P, the postings of the query's terms; θ, the k-th best exact score (exhaustive scoring, checked
 *      bit for bit against scoreTopK 'exhaustive');
 *  (b) MaxScore with θ known from the start and each term's exact largest weight over its list as its
 *      bound: terms ascending by bound, the non-essential ones the longest prefix whose bounds sum
 *      below θ; E = the essential lists' postings, C = the docs of those lists whose essential
 *      partial score + the non-essential bound sum reaches θ, look-ups C × (non-essential terms), and
 *      the look-ups with MaxScore's per-doc early exit (non-essential terms by descending bound,
 *      stop once partial + the bounds left fall below θ);
 *  (c) block-max with θ known and EXACT per-block per-term largest weights, over fixed doc-id blocks
 *      (64, 128, 1,024, 16,384 docs) and over posting blocks of 128 per list (PISA's layout; a term
 *      bounds the doc ids between its block's first and last posting): the doc ranges whose summed
 *      bounds reach θ ('live'), the postings there (what a walk that decodes every list in a live
 *      range reads) and the docs there; then MaxScore inside each live range on its own bounds
 *      (E, C and look-ups as in (b)) — the least a block-max MaxScore / BMW walk touches;
 *  (d) (b) and (c) again with θ0 = the k-th best exact score among the docs of the rarest term(s)
 *      (as few as give k docs): a θ a real walk can have early, not the final one.
 * "Reaches θ" is ≥ θ·(1 − 1e-9) (a real walk pads its bounds the same way). The script throws when a
 * top-k doc would be pruned or a doc scores above its range's summed bounds (the counts would be wrong).
 * Time floors: work × a per-operation cost the notes measured (see the note), never timed here.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openSparseIndex } from '../retrieval/open.js';
import { queryTerms } from '../retrieval/sparse/query-terms.js';
import { scoreTopK, termPlan, type ScoreRequest } from '../retrieval/sparse/score-core.js';
import { bm25Norms } from '../retrieval/sparse/doc-arrays.js';
import { decodedPostings, TF_ESCAPE } from '../retrieval/sparse/decoded-postings.js';
import type { ScoringView } from '../indexer/sparse/scoring-view.js';
import { gitSha } from '../eval/provenance.js';
import { syntheticQueries, type CorpusProfile } from './synthetic.js';

/** One query term in plan order: its postings' doc ids (ascending) and exact weights. */
export interface OracleTerm {
  docs: Uint32Array;
  w: Float64Array;
}

export interface BoundConfig {
  name: string;
  kind: 'docs' | 'postings';
  size: number;
}

export const CONFIGS: BoundConfig[] = [
  { name: 'docs64', kind: 'docs', size: 64 },
  { name: 'docs128', kind: 'docs', size: 128 },
  { name: 'docs1024', kind: 'docs', size: 1024 },
  { name: 'docs16384', kind: 'docs', size: 16384 },
  { name: 'post128', kind: 'postings', size: 128 },
];

/** Relative slack of "reaches θ" (bounds are padded by as much in a real walk). */
export const EPS = 1e-9;

/** Exact scores, each doc's weights added in plan order (accumulator.ts's expression). */
export function exactScores(N: number, terms: OracleTerm[]): Float64Array {
  const s = new Float64Array(N);
  for (const t of terms) for (let i = 0; i < t.docs.length; i++) s[t.docs[i]] += t.w[i];
  return s;
}

/** Top-k by score desc, then doc asc, over `docs` (or every doc with a score > 0). */
export function topK(scores: Float64Array, k: number, docs?: Iterable<number>): { docs: number[]; scores: number[] } {
  // The k best so far, best first (score desc, then doc asc); a doc enters when it beats the last.
  const top: number[] = [];
  const better = (a: number, b: number) => scores[a] > scores[b] || (scores[a] === scores[b] && a < b);
  const offer = (d: number) => {
    if (top.length === k && !better(d, top[k - 1])) return;
    let i = top.length === k ? k - 1 : top.length;
    while (i > 0 && better(d, top[i - 1])) {
      top[i] = top[i - 1];
      i--;
    }
    top[i] = d;
  };
  if (docs) for (const d of docs) offer(d);
  else for (let d = 0; d < scores.length; d++) if (scores[d] > 0) offer(d);
  return { docs: top, scores: top.map((d) => scores[d]) };
}

export interface MaxScoreCounts {
  theta: number;
  nonEssential: number;
  essential: number;
  /** E: postings of the essential lists. */
  essentialPostings: number;
  /** Docs of the essential lists. */
  essentialDocs: number;
  /** C: of those, partial + non-essential bound sum ≥ θ. */
  candidates: number;
  /** C × non-essential terms. */
  lookups: number;
  /** With the per-doc early exit. */
  lookupsEarlyExit: number;
}

const reaches = (x: number, theta: number) => x >= theta * (1 - EPS);

function weightAt(t: OracleTerm, d: number): number {
  let lo = 0;
  let hi = t.docs.length;
  while (lo < hi) {
    const m = (lo + hi) >>> 1;
    if (t.docs[m] < d) lo = m + 1;
    else hi = m;
  }
  return lo < t.docs.length && t.docs[lo] === d ? t.w[lo] : 0;
}

/** (b): MaxScore with θ and exact whole-list bounds. `mustKeep`: docs that may not be pruned (the top k). */
export function maxScoreOracle(N: number, terms: OracleTerm[], theta: number, mustKeep: number[] = []): MaxScoreCounts {
  const T = terms.length;
  const bound = terms.map((t) => t.w.reduce((m, x) => (x > m ? x : m), 0));
  const order = [...bound.keys()].sort((a, b) => bound[a] - bound[b] || terms[b].docs.length - terms[a].docs.length || a - b);
  let m = 0;
  let nonSum = 0;
  while (m < T && !reaches(nonSum + bound[order[m]], theta)) nonSum += bound[order[m++]];
  const partial = new Float64Array(N);
  const touched: number[] = [];
  let E = 0;
  for (let e = m; e < T; e++) {
    const t = terms[order[e]];
    E += t.docs.length;
    for (let i = 0; i < t.docs.length; i++) {
      const d = t.docs[i];
      if (partial[d] === 0) touched.push(d);
      partial[d] += t.w[i];
    }
  }
  const nonDesc = order.slice(0, m).reverse();
  let C = 0;
  let early = 0;
  const kept = new Set<number>();
  for (const d of touched) {
    if (!reaches(partial[d] + nonSum, theta)) continue;
    C++;
    kept.add(d);
    let s = partial[d];
    let rest = nonSum;
    for (const j of nonDesc) {
      if (!reaches(s + rest, theta)) break;
      early++;
      s += weightAt(terms[j], d);
      rest -= bound[j];
    }
  }
  for (const d of mustKeep) if (!kept.has(d)) throw new Error(`MaxScore oracle would prune top-k doc ${d} (θ ${theta})`);
  return {
    theta,
    nonEssential: m,
    essential: T - m,
    essentialPostings: E,
    essentialDocs: touched.length,
    candidates: C,
    lookups: C * m,
    lookupsEarlyExit: early,
  };
}

export interface BlockCounts {
  config: string;
  theta: number;
  ranges: number;
  liveRanges: number;
  /** Doc ids inside live ranges. */
  liveDocs: number;
  /** Docs with a posting of the query inside live ranges. */
  liveTouchedDocs: number;
  /** Every query term's postings inside live ranges. */
  livePostings: number;
  /** MaxScore inside each live range on its own bounds: E, C, look-ups (C × the range's non-essential terms with a posting there). */
  essentialPostings: number;
  candidates: number;
  lookups: number;
  /** With MaxScore's per-doc early exit (the range's non-essential terms by descending bound). */
  lookupsEarlyExit: number;
}

/** The doc ranges of a configuration and each term's exact largest weight in each (0: no posting there). */
export function boundRanges(N: number, terms: OracleTerm[], cfg: BoundConfig): { starts: Int32Array; bounds: Float64Array } {
  const T = terms.length;
  if (cfg.kind === 'docs') {
    const B = cfg.size;
    const nb = Math.ceil(N / B);
    const starts = new Int32Array(nb + 1);
    for (let b = 0; b <= nb; b++) starts[b] = Math.min(N, b * B);
    const bounds = new Float64Array(nb * T);
    terms.forEach((t, j) => {
      for (let i = 0; i < t.docs.length; i++) {
        const at = Math.floor(t.docs[i] / B) * T + j;
        if (t.w[i] > bounds[at]) bounds[at] = t.w[i];
      }
    });
    return { starts, bounds };
  }
  // Posting blocks of `size` per list: block p of term j bounds doc ids first..last with its largest weight.
  const S = cfg.size;
  const cuts = new Set<number>([0, N]);
  const blocks = terms.map((t) => {
    const nb = Math.ceil(t.docs.length / S);
    const first = new Int32Array(nb);
    const last = new Int32Array(nb);
    const max = new Float64Array(nb);
    for (let p = 0; p < nb; p++) {
      const i0 = p * S;
      const i1 = Math.min(t.docs.length, i0 + S);
      first[p] = t.docs[i0];
      last[p] = t.docs[i1 - 1];
      let mx = 0;
      for (let i = i0; i < i1; i++) if (t.w[i] > mx) mx = t.w[i];
      max[p] = mx;
      cuts.add(first[p]);
      cuts.add(last[p] + 1);
    }
    return { first, last, max };
  });
  const starts = Int32Array.from([...cuts].sort((a, b) => a - b));
  const R = starts.length - 1;
  const bounds = new Float64Array(R * T);
  blocks.forEach((bl, j) => {
    let p = 0;
    for (let r = 0; r < R; r++) {
      const s = starts[r];
      while (p < bl.first.length && bl.last[p] < s) p++;
      if (p < bl.first.length && bl.first[p] <= s) bounds[r * T + j] = bl.max[p];
    }
  });
  return { starts, bounds };
}

/** (c): block-max counts for one configuration at θ. `scores`: exact scores (each doc is checked against its range's bound). */
export function blockOracle(N: number, terms: OracleTerm[], theta: number, cfg: BoundConfig, scores: Float64Array, mustKeep: number[] = []): BlockCounts {
  const T = terms.length;
  const { starts, bounds } = boundRanges(N, terms, cfg);
  const R = starts.length - 1;
  const sum = new Float64Array(R);
  const live = new Uint8Array(R);
  const ess = new Uint8Array(R * T);
  const nonSum = new Float64Array(R);
  const nonCount = new Uint16Array(R);
  const nonDesc: number[][] = [];
  let liveRanges = 0;
  let liveDocs = 0;
  const idx = [...Array(T).keys()];
  for (let r = 0; r < R; r++) {
    let s = 0;
    for (let j = 0; j < T; j++) s += bounds[r * T + j];
    sum[r] = s;
    if (!reaches(s, theta)) continue;
    live[r] = 1;
    liveRanges++;
    liveDocs += starts[r + 1] - starts[r];
    const present = idx.filter((j) => bounds[r * T + j] > 0).sort((a, b) => bounds[r * T + a] - bounds[r * T + b] || a - b);
    let m = 0;
    let ns = 0;
    while (m < present.length && !reaches(ns + bounds[r * T + present[m]], theta)) ns += bounds[r * T + present[m++]];
    nonSum[r] = ns;
    nonCount[r] = m;
    nonDesc[r] = present.slice(0, m).reverse();
    for (let e = m; e < present.length; e++) ess[r * T + present[e]] = 1;
  }
  const partial = new Float64Array(N);
  const seen = new Uint8Array(N);
  const touched: number[] = [];
  const touchedRange: number[] = [];
  let liveTouched = 0;
  let livePostings = 0;
  let E = 0;
  terms.forEach((t, j) => {
    let r = 0;
    for (let i = 0; i < t.docs.length; i++) {
      const d = t.docs[i];
      while (starts[r + 1] <= d) r++;
      if (seen[d] === 0) {
        seen[d] = 1;
        if (scores[d] > sum[r] * (1 + EPS)) throw new Error(`${cfg.name}: doc ${d} scores ${scores[d]} above its range's summed bounds ${sum[r]}`);
        if (live[r]) liveTouched++;
      }
      if (!live[r]) continue;
      livePostings++;
      if (!ess[r * T + j]) continue;
      E++;
      if (partial[d] === 0) {
        touched.push(d);
        touchedRange.push(r);
      }
      partial[d] += t.w[i];
    }
  });
  let C = 0;
  let lookups = 0;
  let early = 0;
  const kept = new Set<number>();
  touched.forEach((d, i) => {
    const r = touchedRange[i];
    if (!reaches(partial[d] + nonSum[r], theta)) return;
    C++;
    lookups += nonCount[r];
    kept.add(d);
    let s = partial[d];
    let rest = nonSum[r];
    for (const j of nonDesc[r]) {
      if (!reaches(s + rest, theta)) break;
      early++;
      s += weightAt(terms[j], d);
      rest -= bounds[r * T + j];
    }
  });
  for (const d of mustKeep) if (!kept.has(d)) throw new Error(`${cfg.name}: the block oracle would prune top-k doc ${d} (θ ${theta})`);
  return {
    config: cfg.name,
    theta,
    ranges: R,
    liveRanges,
    liveDocs,
    liveTouchedDocs: liveTouched,
    livePostings,
    essentialPostings: E,
    candidates: C,
    lookups,
    lookupsEarlyExit: early,
  };
}

/** (d): θ0 = the k-th best exact score among the docs of the rarest terms (by df, as few as give k docs). */
export function earlyTheta(terms: OracleTerm[], scores: Float64Array, k: number): { theta0: number; rarestTerms: number; rarestPostings: number } {
  const order = [...terms.keys()].sort((a, b) => terms[a].docs.length - terms[b].docs.length || a - b);
  const docs = new Set<number>();
  let used = 0;
  let postings = 0;
  while (used < order.length && docs.size < k) {
    const t = terms[order[used++]];
    postings += t.docs.length;
    for (const d of t.docs) docs.add(d);
  }
  const top = topK(scores, k, docs);
  return { theta0: top.scores[top.scores.length - 1], rarestTerms: used, rarestPostings: postings };
}

export interface QueryRow {
  q: number;
  terms: number;
  P: number;
  theta: number;
  theta0: number;
  rarestTerms: number;
  rarestPostings: number;
  docsAtOrAboveTheta: number;
  maxscore: { final: MaxScoreCounts; early: MaxScoreCounts };
  blocks: Record<string, { final: BlockCounts; early: BlockCounts }>;
}

/** Every count of one query. */
export function oracleQuery(
  N: number,
  terms: OracleTerm[],
  k: number,
  configs: BoundConfig[] = CONFIGS,
  q = 0,
): QueryRow & { top: { docs: number[]; scores: number[] } } {
  const scores = exactScores(N, terms);
  const top = topK(scores, k);
  const theta = top.scores[top.scores.length - 1];
  const { theta0, rarestTerms, rarestPostings } = earlyTheta(terms, scores, k);
  let atOrAbove = 0;
  for (let d = 0; d < N; d++) if (scores[d] >= theta) atOrAbove++;
  const blocks: QueryRow['blocks'] = {};
  for (const cfg of configs)
    blocks[cfg.name] = { final: blockOracle(N, terms, theta, cfg, scores, top.docs), early: blockOracle(N, terms, theta0, cfg, scores, top.docs) };
  return {
    q,
    terms: terms.length,
    P: terms.reduce((s, t) => s + t.docs.length, 0),
    theta,
    theta0,
    rarestTerms,
    rarestPostings,
    docsAtOrAboveTheta: atOrAbove,
    maxscore: { final: maxScoreOracle(N, terms, theta, top.docs), early: maxScoreOracle(N, terms, theta0, top.docs) },
    blocks,
    top,
  };
}

/** The terms of a BM25 request in plan order, read through the index's own readers (decodedPostings, bm25Norms). */
export function oracleTerms(view: ScoringView, req: ScoreRequest & { method: 'bm25' }): OracleTerm[] {
  const norm = bm25Norms(view, req.k1, req.b);
  return termPlan(view, req).map((t) => {
    const l = decodedPostings(view, t.id);
    const docs = l.docs.subarray(0, l.length).slice();
    const w = new Float64Array(l.length);
    for (let i = 0; i < l.length; i++) {
      let tf = l.tfs[i];
      if (tf === TF_ESCAPE) tf = l.bigTf!.get(i)!;
      w[i] = (t.p1 * tf) / (tf + norm[docs[i]]);
    }
    return { docs, w };
  });
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

export async function oracleRun(dir: string, profile: CorpusProfile, count: number, first: number) {
  const index = await openSparseIndex(dir);
  const view = index.view;
  const N = view.hi - view.lo;
  if (view.lo !== 0) throw new Error('expected the whole-range view');
  const qs = syntheticQueries({ count: first + count, seed: 42, profile, shape: 'agent' }).slice(first);
  const rows: QueryRow[] = [];
  qs.forEach((text, i) => {
    const { ids, counts } = queryTerms(index, text);
    const req = { method: 'bm25' as const, k1: 0.9, b: 0.4, ids, counts, k: 10 };
    const row = oracleQuery(N, oracleTerms(view, req), 10, CONFIGS, first + i);
    const ref = scoreTopK(view, req, 'exhaustive');
    if (JSON.stringify(ref) !== JSON.stringify(row.top)) throw new Error(`query ${first + i}: the oracle's top-10 differs from scoreTopK 'exhaustive'`);
    const { top: _top, ...rest } = row;
    rows.push(rest);
  });
  return {
    schema: 'oracle-bound/1',
    gitSha: gitSha(),
    index: { dir, N, blocksCrc32Sha256: sha256(join(dir, 'blocks.crc32')) },
    profile,
    queries: { generator: 'syntheticQueries (bench/synthetic.ts), shape agent, seed 42', first, count },
    scorer: { method: 'bm25', k1: 0.9, b: 0.4, k: 10 },
    configs: CONFIGS,
    eps: EPS,
    rows,
  };
}

// ---- the table (from the JSON files, never typed) ----

/** Per-operation costs (ns) the notes measured: a posting walked by the WebAssembly kernel. */
export const NS_PER_OP = { optimistic: 1.0, measured: 1.5 };

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const fmt = (x: number) => (x >= 100 ? Math.round(x).toLocaleString('en-US') : x >= 10 ? x.toFixed(1) : x.toFixed(2));
const ms = (ops: number, ns: number) => (ops * ns) / 1e6;

interface RunFile {
  profile: string;
  index: { N: number };
  rows: QueryRow[];
  targets?: Targets;
}

/** BM25S's agent p50 / p95 (ms) from a scale-bench result file, and lexcase's, at the same size. */
export interface Targets {
  file: string;
  bm25sP50: number;
  bm25sP95: number;
  lexcaseP50: number;
  lexcaseP95: number;
}

export function targetsFrom(file: string, profile: string, N: number): Targets | undefined {
  const d = JSON.parse(readFileSync(file, 'utf8'));
  const run = d.runs?.find((r: { profile: string; size: number }) => r.profile === profile && r.size === N);
  const peer = run?.bm25s?.result?.shapes?.find((s: { shape: string }) => s.shape === 'agent');
  const lex = run?.queries?.find((q: { method: string }) => q.method === 'bm25')?.shapes?.find((s: { shape: string }) => s.shape === 'agent');
  if (!peer || !lex) return undefined;
  return { file: basename(file), bm25sP50: peer.p50Ms, bm25sP95: peer.p95Ms, lexcaseP50: lex.p50Ms, lexcaseP95: lex.p95Ms };
}

/** Work (walked postings + look-ups) per query of each algorithm. */
function work(r: QueryRow, at: 'final' | 'early') {
  const ms = r.maxscore[at];
  const out: Record<string, number> = {
    exhaustive: r.P,
    maxscore: ms.essentialPostings + ms.lookups,
    'maxscore early-exit': ms.essentialPostings + ms.lookupsEarlyExit,
  };
  for (const [name, b] of Object.entries(r.blocks)) {
    out[`${name} live postings`] = b[at].livePostings;
    out[`${name} MaxScore`] = b[at].essentialPostings + b[at].lookups;
    out[`${name} MaxScore early-exit`] = b[at].essentialPostings + b[at].lookupsEarlyExit;
  }
  return out;
}

const TEN_M = 10_000_000;
const BEST = 'best of the above (per query)';

/** The least work of the pruning algorithms (not exhaustive, not the live-postings counts) for one query. */
function bestWork(r: QueryRow, at: 'final' | 'early'): number {
  return Math.min(
    ...Object.entries(work(r, at))
      .filter(([n]) => n !== 'exhaustive' && !n.endsWith('live postings'))
      .map(([, x]) => x),
  );
}

export function table(files: RunFile[]): { md: string; summary: unknown[] } {
  const lines: string[] = [];
  const summary: unknown[] = [];
  lines.push(
    '| corpus | passages | algorithm | final θ: work p50 / p95 (postings + look-ups) | ÷ P (p50 of per-query shares) | floor p50 / p95 ms at 1.0 ns (1.5 ns) | early θ0: work p50 / p95 | ÷ P | floor p50 / p95 ms at 1.0 ns |',
    '|---|---:|---|---:|---:|---:|---:|---:|---:|',
  );
  for (const f of files) {
    const per = { final: f.rows.map((r) => work(r, 'final')), early: f.rows.map((r) => work(r, 'early')) };
    const col = (at: 'final' | 'early', name: string) => {
      const xs = name === BEST ? f.rows.map((r) => bestWork(r, at)) : per[at].map((p) => p[name]);
      const share = pct(
        xs.map((x, i) => x / f.rows[i].P),
        50,
      );
      const p50 = pct(xs, 50);
      const p95 = pct(xs, 95);
      summary.push({ profile: f.profile, N: f.index.N, theta: at, algorithm: name, p50, p95, shareOfP: share });
      return { p50, p95, share };
    };
    for (const name of [...Object.keys(per.final[0]), BEST]) {
      const a = col('final', name);
      const e = name === 'exhaustive' ? null : col('early', name);
      lines.push(
        `| ${f.profile} | ${f.index.N.toLocaleString('en-US')} | ${name} | ${fmt(a.p50)} / ${fmt(a.p95)} | ${(a.share * 100).toFixed(1)} % | ${ms(a.p50, 1).toFixed(3)} / ${ms(a.p95, 1).toFixed(3)} (${ms(a.p50, 1.5).toFixed(3)} / ${ms(a.p95, 1.5).toFixed(3)}) | ${e ? `${fmt(e.p50)} / ${fmt(e.p95)} | ${(e.share * 100).toFixed(1)} % | ${ms(e.p50, 1).toFixed(3)} / ${ms(e.p95, 1).toFixed(3)}` : '– | – | –'} |`,
      );
    }
  }
  // Targets beside the best floor.
  lines.push(
    '',
    '| corpus | passages | BM25S agent p50 / p95 ms | lexcase bm25 p50 / p95 ms (same run) | 25× p50 budget ms | 10× p50 budget ms | 10× p95 budget ms | best oracle floor p50 / p95 ms (final θ, 1.0 ns) | (early θ0, 1.0 ns) | floor ÷ 25× budget (p50) | exhaustive P p50 at 1.0 ns |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const f of files) {
    const bestOf = (at: 'final' | 'early') => f.rows.map((r) => bestWork(r, at));
    const bf = bestOf('final');
    const be = bestOf('early');
    const P = f.rows.map((r) => r.P);
    const t = f.targets;
    const b25 = t ? t.bm25sP50 / 25 : NaN;
    const b10 = t ? t.bm25sP95 / 10 : NaN;
    lines.push(
      `| ${f.profile} | ${f.index.N.toLocaleString('en-US')} | ${t ? `${t.bm25sP50} / ${t.bm25sP95}` : '–'} | ${t ? `${t.lexcaseP50} / ${t.lexcaseP95}` : '–'} | ${t ? b25.toFixed(3) : '–'} | ${t ? (t.bm25sP50 / 10).toFixed(3) : '–'} | ${t ? b10.toFixed(2) : '–'} | ${ms(pct(bf, 50), 1).toFixed(3)} / ${ms(pct(bf, 95), 1).toFixed(3)} | ${ms(pct(be, 50), 1).toFixed(3)} / ${ms(pct(be, 95), 1).toFixed(3)} | ${t ? (ms(pct(bf, 50), 1) / b25).toFixed(2) : '–'} | ${ms(pct(P, 50), 1).toFixed(3)} |`,
    );
    summary.push({
      profile: f.profile,
      N: f.index.N,
      targets: t,
      bestFinalP50: pct(bf, 50),
      bestFinalP95: pct(bf, 95),
      bestEarlyP50: pct(be, 50),
      bestEarlyP95: pct(be, 95),
      PP50: pct(P, 50),
    });
  }
  // The per-query facts behind them.
  lines.push(
    '',
    '| corpus | passages | terms p50 (min–max) | P p50 | θ0 ÷ θ p50 | docs ≥ θ p50 | MaxScore non-essential terms p50 (final / early) | candidates p50 (final / early) |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const f of files) {
    const R = f.rows;
    const T = R.map((r) => r.terms);
    lines.push(
      `| ${f.profile} | ${f.index.N.toLocaleString('en-US')} | ${pct(T, 50)} (${Math.min(...T)}–${Math.max(...T)}) | ${fmt(
        pct(
          R.map((r) => r.P),
          50,
        ),
      )} | ${pct(
        R.map((r) => r.theta0 / r.theta),
        50,
      ).toFixed(3)} | ${pct(
        R.map((r) => r.docsAtOrAboveTheta),
        50,
      )} | ${pct(
        R.map((r) => r.maxscore.final.nonEssential),
        50,
      )} / ${pct(
        R.map((r) => r.maxscore.early.nonEssential),
        50,
      )} | ${fmt(
        pct(
          R.map((r) => r.maxscore.final.candidates),
          50,
        ),
      )} / ${fmt(
        pct(
          R.map((r) => r.maxscore.early.candidates),
          50,
        ),
      )} |`,
    );
  }
  // 10M by a power law through two sizes of the same generator (work ∝ N^α per corpus), where both were run.
  const ext: string[] = [];
  for (const prof of [...new Set(files.map((f) => f.profile))]) {
    const fs = files.filter((f) => f.profile === prof).sort((a, b) => a.index.N - b.index.N);
    if (fs.length < 2) continue;
    const [lo, hi] = [fs[0], fs[fs.length - 1]];
    const stat = (f: RunFile, what: 'best' | 'bestEarly' | 'P', p: number) =>
      pct(
        f.rows.map((r) => (what === 'P' ? r.P : bestWork(r, what === 'best' ? 'final' : 'early'))),
        p,
      );
    const cells: string[] = [];
    for (const what of ['P', 'best', 'bestEarly'] as const)
      for (const p of [50, 95]) {
        const a = Math.log(stat(hi, what, p) / stat(lo, what, p)) / Math.log(hi.index.N / lo.index.N);
        const at10M = stat(hi, what, p) * (TEN_M / hi.index.N) ** a;
        cells.push(`${a.toFixed(2)} → ${ms(at10M, 1).toFixed(2)}`);
        summary.push({ profile: prof, extrapolated: TEN_M, what, percentile: p, alpha: a, work: at10M, msAt1ns: ms(at10M, 1) });
      }
    ext.push(`| ${prof} | ${lo.index.N.toLocaleString('en-US')} → ${hi.index.N.toLocaleString('en-US')} | ${cells.join(' | ')} |`);
  }
  if (ext.length)
    lines.push(
      '',
      `| corpus | fitted on passages | P p50: α → ms at 10M (1.0 ns) | P p95 | best oracle (final θ) p50 | p95 | best oracle (early θ0) p50 | p95 |`,
      '|---|---|---:|---:|---:|---:|---:|---:|',
      ...ext,
    );
  return { md: lines.join('\n') + '\n', summary };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const [cmd, ...a] = process.argv.slice(2);
  const main = async () => {
    if (cmd === 'run') {
      const [dir, profile, out, n, first, scale] = a;
      const r = await oracleRun(resolve(dir), profile as CorpusProfile, Number(n ?? 100), Number(first ?? 0));
      const targets = scale ? targetsFrom(resolve(scale), profile, r.index.N) : undefined;
      mkdirSync(resolve(out, '..'), { recursive: true });
      writeFileSync(out, JSON.stringify({ ...r, ...(targets ? { targets } : {}) }, null, 1) + '\n');
      process.stdout.write(`${out}: ${r.rows.length} queries\n`);
    } else if (cmd === 'table') {
      const dir = resolve(a[0]);
      const files = readdirSync(dir)
        .filter((f) => f.endsWith('.json') && f !== 'summary.json')
        .sort()
        .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as RunFile);
      const { md, summary } = table(files);
      writeFileSync(join(dir, 'table.md'), md);
      writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary, null, 1) + '\n');
      process.stdout.write(md);
    } else throw new Error('usage: oracle-bound.js run INDEX_DIR PROFILE OUT.json [QUERIES] [FIRST] [SCALE_RESULTS.json] | table DIR');
  };
  main()
    .then(() => process.exit(0))
    .catch((e) => {
      process.stderr.write(`oracle-bound failed: ${e instanceof Error ? e.stack : String(e)}\n`);
      process.exit(1);
    });
}
