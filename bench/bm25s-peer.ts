/**
 * The scale bench's BM25S peer (issue 31, target 3): BM25S (https://github.com/xhluca/bm25s, its
 * numpy backend) built and queried in the same run, on the same streamed corpus and the same
 * queries as lexcase. BM25S is not part of lexcase: the user points the bench at a checkout of its
 * source (`--bm25s-src DIR` or LEXCASE_BM25S_SRC=DIR, the directory holding the `bm25s` package)
 * and it runs as a python3 child (bench/bm25s-peer.py) with that directory on PYTHONPATH. Without a
 * source the peer is skipped with one line.
 *
 * Tokenizer, matched to lexcase's analyzer as far as BM25S allows: bm25s.tokenize with lower=True,
 * token_pattern `(?u)[^\W_]+` (runs of letters and digits, any length: lexcase's tokens, minus
 * combining marks, which the ASCII synthetic corpora have none of), stopwords = lexcase's own list
 * for the profile (none for zipf; the `stopword` package's English list for bench), no stemmer
 * (lexcase stems the bench corpus with Porter; BM25S's stemmer is PyStemmer, not installed here —
 * so on the bench corpus the two index different terms and only the top-10 overlap is reported).
 *
 * Scoring: BM25S method 'lucene' (idf = ln(1 + (N − df + 0.5)/(df + 0.5)), tf/(tf + k1·(1 − b +
 * b·dl/avgdl)), every posting's score precomputed in float32) with lexcase's k1 = 0.9, b = 0.4.
 * lexcase's default bm25 is the same formula times (k1 + 1), in double precision, with c(t,q) as a
 * factor where BM25S sums a repeated query token once per repeat — the same sum. So on the zipf
 * corpus (same terms) lexcase score / (k1 + 1) must equal the BM25S score to float32 precision.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { englishStopwordList } from '../indexer/analyzer.js';
import { BM25_DEFAULTS } from '../retrieval/bm25.js';
import type { CorpusProfile } from './synthetic.js';

export const BM25S_ENV = 'LEXCASE_BM25S_SRC';
/** Timed queries whose top-10 are compared with lexcase bm25's. */
export const AGREE_QUERIES = 20;
export const BM25S_TOKEN_PATTERN = String.raw`(?u)[^\W_]+`;

/** Where the BM25S source is, or why the peer is skipped. Throws on a given dir that holds no bm25s package. */
export function resolveBm25sSrc(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): { src: string } | { skip: string } {
  const given = flag ?? env[BM25S_ENV];
  if (!given)
    return { skip: `BM25S peer skipped: no source given (--bm25s-src DIR or ${BM25S_ENV}=DIR, a checkout of github.com/xhluca/bm25s; docs/bench.md)` };
  const src = resolve(given);
  if (!existsSync(join(src, 'bm25s', '__init__.py')))
    throw new Error(`${flag ? '--bm25s-src' : BM25S_ENV} ${src}: no bm25s/__init__.py there (expected the root of a github.com/xhluca/bm25s checkout)`);
  return { src };
}

export interface PeerShapeSpec {
  shape: string;
  k: number;
  /** Warm-up queries first, then the timed ones. */
  queries: string[];
  warmup: number;
}

export interface PeerShapeResult {
  shape: string;
  k: number;
  queries: number;
  p50Ms: number;
  p95Ms: number;
  meanMs: number;
  maxMs: number;
  cpuP50Ms: number;
  cpuP95Ms: number;
  cpuSumMs: number;
  loadAvgAtStart: number[];
  top10?: TopList[];
}

export interface TopList {
  ids: string[];
  scores: number[];
}

export interface Bm25sResult {
  engine: 'bm25s';
  version: string | null;
  numpy: string;
  python: string;
  passages: number;
  /** Nonzero entries of BM25S's score matrix: (term, doc) postings. */
  postings: number;
  vocabulary: number;
  buildS: number;
  buildCpuS: number;
  buildPeakRssMiB: number;
  generatorCpuS: number | null;
  servingRssMiB: number;
  servingPeakRssMiB: number;
  shapes: PeerShapeResult[];
  loadAvg: number[];
}

const fromTs = fileURLToPath(import.meta.url).endsWith('.ts');
const genPath = fileURLToPath(new URL(fromTs ? './scale-gen.ts' : './scale-gen.js', import.meta.url));
/** The driver script sits in bench/ (not compiled): from dist/bench/ it is ../../bench/. */
export const BM25S_DRIVER = fileURLToPath(new URL(fromTs ? './bm25s-peer.py' : '../../bench/bm25s-peer.py', import.meta.url));

export interface Bm25sRunSpec {
  src: string;
  n: number;
  seed: number;
  profile: CorpusProfile;
  shapes: PeerShapeSpec[];
  workDir: string;
  timeoutS: number;
  python?: string;
}

/** Build and query BM25S in a python3 child; rejects with the child's last stderr lines. */
export async function runBm25sPeer(spec: Bm25sRunSpec): Promise<Bm25sResult> {
  const base = join(spec.workDir, `bm25s-${process.pid}`);
  const resultFile = `${base}.result.json`;
  const specFile = `${base}.spec.json`;
  const genCpuFile = `${base}.gen-cpu`;
  await rm(resultFile, { force: true });
  const genCmd = [
    process.execPath,
    ...(fromTs ? ['--import', 'tsx'] : []),
    genPath,
    JSON.stringify({ n: spec.n, seed: spec.seed, profile: spec.profile, cpuFile: genCpuFile }),
  ];
  const stopwords = spec.profile === 'zipf' ? [] : [...englishStopwordList()];
  await writeFile(
    specFile,
    JSON.stringify({
      genCmd,
      k1: BM25_DEFAULTS.k1,
      b: BM25_DEFAULTS.b,
      tokenPattern: BM25S_TOKEN_PATTERN,
      stopwords,
      shapes: spec.shapes,
      agreeQueries: AGREE_QUERIES,
      resultFile,
      genCpuFile,
    }),
  );
  try {
    await new Promise<void>((ok, fail) => {
      const child = spawn(spec.python ?? 'python3', [BM25S_DRIVER, specFile], {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, PYTHONPATH: [spec.src, process.env.PYTHONPATH].filter(Boolean).join(':'), PYTHONUNBUFFERED: '1' },
      });
      let tail = '';
      child.stderr.on('data', (d: Buffer) => {
        tail = (tail + d.toString()).slice(-4000);
      });
      const timer = setTimeout(() => child.kill('SIGKILL'), spec.timeoutS * 1000);
      child.on('error', (e) => {
        clearTimeout(timer);
        fail(new Error(`python3: ${e.message}`));
      });
      child.on('close', (c, sig) => {
        clearTimeout(timer);
        if (c === 0) ok();
        else
          fail(
            new Error(
              `BM25S child exit ${c ?? sig}${sig === 'SIGKILL' ? ` (killed after ${spec.timeoutS} s limit?)` : ''}: ${tail.trim().split('\n').slice(-6).join('\n')}`,
            ),
          );
      });
    });
    return JSON.parse(await readFile(resultFile, 'utf8')) as Bm25sResult;
  } finally {
    await rm(specFile, { force: true });
    await rm(resultFile, { force: true });
    await rm(genCpuFile, { force: true });
  }
}

export interface Agreement {
  /** Queries compared (the first timed ones of the shape). */
  queries: number;
  /** Mean |lexcase top-10 ∩ BM25S top-10| / 10. */
  top10Overlap: number;
  /** Queries whose two top-10 lists hold the same ids in the same order. */
  sameOrder: number;
  /**
   * Max over docs in both top-10s of |lexcase / (k1 + 1) − BM25S| / BM25S (only where the two
   * index the same terms: the zipf corpus); null when not compared.
   */
  maxRelScoreDiff: number | null;
}

/** Compare lexcase bm25's top-10 lists with BM25S's for the same queries (in the same order). */
export function topAgreement(lex: TopList[], peer: TopList[], compareScores: boolean, k1: number = BM25_DEFAULTS.k1): Agreement {
  const n = Math.min(lex.length, peer.length);
  let overlap = 0;
  let same = 0;
  let maxRel = 0;
  for (let i = 0; i < n; i++) {
    const a = lex[i];
    const b = peer[i];
    const pos = new Map(b.ids.map((id, j) => [id, j]));
    let common = 0;
    a.ids.forEach((id, j) => {
      const pj = pos.get(id);
      if (pj === undefined) return;
      common++;
      const want = b.scores[pj];
      if (want > 0) maxRel = Math.max(maxRel, Math.abs(a.scores[j] / (k1 + 1) - want) / want);
    });
    overlap += common / Math.max(1, Math.min(10, Math.max(a.ids.length, b.ids.length)));
    if (a.ids.length === b.ids.length && a.ids.every((id, j) => b.ids[j] === id)) same++;
  }
  const r = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;
  return { queries: n, top10Overlap: n ? r(overlap / n, 3) : 0, sameOrder: same, maxRelScoreDiff: compareScores ? Number(maxRel.toPrecision(3)) : null };
}
