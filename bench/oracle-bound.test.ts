/**
 * bench/oracle-bound.ts counts what the best exact MaxScore / block-max walk would touch: on a
 * 200-doc index built by the project's builder, its θ is scoreTopK 'exhaustive''s k-th score, and
 * every count of (b) MaxScore and (c) block-max (doc-id blocks and posting blocks) at the final θ
 * and at the early θ0 equals a brute force over a dense doc × term weight matrix, doc by doc; the
 * counts are not vacuous (some ranges skipped, some terms non-essential).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildIndex } from '../indexer/build.js';
import { fromArray, tempDir, texts } from '../indexer/build-test-helpers.js';
import { createRng } from '../core/rng.js';
import { closeSparseIndexes, openSparseIndex } from '../retrieval/open.js';
import { queryTerms } from '../retrieval/sparse/query-terms.js';
import { scoreTopK } from '../retrieval/sparse/score-core.js';
import type { SparseIndex } from '../indexer/sparse/sparse-index.js';
import { blockOracle, maxScoreOracle, oracleQuery, oracleTerms, type BoundConfig, type OracleTerm } from './oracle-bound.js';

import { geometricTexts } from '../retrieval/sparse/test-support/zipf-text.js';
const tmp = tempDir('lexcase-oracle-');
const N = 200;
const VOCAB = Array.from({ length: 40 }, (_, i) => `w${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`);
let index: SparseIndex;

beforeAll(async () => {
  // Zipf-like: low ranks frequent, so lists range from dense to a handful of postings.
  const ts = geometricTexts(createRng(38), N, VOCAB, 3, 40, 6);
  await buildIndex(fromArray(texts(ts)), { out: tmp.dir, corpusName: 'oracle', workers: 0, analyzer: { stopwords: 'none', stemmer: 'none' } });
  index = await openSparseIndex(tmp.dir);
}, 120_000);

afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

const CFGS: BoundConfig[] = [
  { name: 'docs8', kind: 'docs', size: 8 },
  { name: 'docs16', kind: 'docs', size: 16 },
  { name: 'docs64', kind: 'docs', size: 64 },
  { name: 'post4', kind: 'postings', size: 4 },
  { name: 'post16', kind: 'postings', size: 16 },
];
const reach = (x: number, theta: number) => x >= theta * (1 - 1e-9);

/** Dense weights W[j][d] (0: no posting). */
const dense = (terms: OracleTerm[]) =>
  terms.map((t) => {
    const w = new Float64Array(N);
    t.docs.forEach((d, i) => (w[d] = t.w[i]));
    return w;
  });

/** MaxScore on one bound vector u (per term), doc by doc: the definitions, not the sweep. */
function split(u: number[], theta: number) {
  const present = u.map((_, j) => j).filter((j) => u[j] > 0);
  present.sort((a, b) => u[a] - u[b] || a - b);
  let m = 0;
  let ns = 0;
  while (m < present.length && !reach(ns + u[present[m]], theta)) ns += u[present[m++]];
  return { non: present.slice(0, m), ess: present.slice(m), ns };
}

/**
 * Doc d under a MaxScore split (non-essential terms `non`, their bound sum `ns`, essential `ess`) and
 * bounds u: its essential postings; whether it is a candidate (its essential score plus ns reaches
 * θ); and then how many non-essential lookups the early exit makes (largest bound first, stopping
 * once what is left cannot reach θ).
 */
function walkDoc(W: Float64Array[], d: number, { non, ess, ns }: { non: number[]; ess: number[]; ns: number }, u: number[], theta: number) {
  const here = ess.filter((j) => W[j][d] > 0);
  const partial = here.reduce((s, j) => s + W[j][d], 0);
  if (!here.length || !reach(partial + ns, theta)) return { essential: here.length, candidate: false, early: 0 };
  let s = partial;
  let rest = ns;
  let early = 0;
  for (const j of [...non].reverse()) {
    if (!reach(s + rest, theta)) break;
    early++;
    s += W[j][d];
    rest -= u[j];
  }
  return { essential: here.length, candidate: true, early };
}

function bruteMaxScore(W: Float64Array[], terms: OracleTerm[], theta: number) {
  const bound = W.map((w) => Math.max(...w));
  // Global bounds: ties ordered as the oracle does (longer list first), so the split is the same.
  const order = bound.map((_, j) => j).sort((a, b) => bound[a] - bound[b] || terms[b].docs.length - terms[a].docs.length || a - b);
  let m = 0;
  let ns = 0;
  while (m < order.length && !reach(ns + bound[order[m]], theta)) ns += bound[order[m++]];
  const non = order.slice(0, m);
  const ess = order.slice(m);
  let E = 0;
  let docs = 0;
  let C = 0;
  let early = 0;
  for (let d = 0; d < N; d++) {
    const walk = walkDoc(W, d, { non, ess, ns }, bound, theta);
    E += walk.essential;
    if (walk.essential) docs++;
    if (walk.candidate) C++;
    early += walk.early;
  }
  return { nonEssential: m, essentialPostings: E, essentialDocs: docs, candidates: C, lookups: C * m, lookupsEarlyExit: early };
}

/** Per doc, each term's bound in the configuration: its block's largest weight (doc-id block, or the posting block whose first..last holds the doc). */
function docBounds(W: Float64Array[], terms: OracleTerm[], cfg: BoundConfig, d: number): number[] {
  return terms.map((t, j) => {
    if (cfg.kind === 'docs') {
      const b0 = Math.floor(d / cfg.size) * cfg.size;
      let m = 0;
      for (let x = b0; x < Math.min(N, b0 + cfg.size); x++) m = Math.max(m, W[j][x]);
      return m;
    }
    for (let p = 0; p * cfg.size < t.docs.length; p++) {
      const i0 = p * cfg.size;
      const i1 = Math.min(t.docs.length, i0 + cfg.size);
      if (t.docs[i0] <= d && d <= t.docs[i1 - 1]) return Math.max(...t.w.subarray(i0, i1));
    }
    return 0;
  });
}

function bruteBlocks(W: Float64Array[], terms: OracleTerm[], cfg: BoundConfig, theta: number) {
  let liveDocs = 0;
  let liveTouched = 0;
  let livePostings = 0;
  let E = 0;
  let C = 0;
  let lookups = 0;
  let early = 0;
  for (let d = 0; d < N; d++) {
    const u = docBounds(W, terms, cfg, d);
    if (
      !reach(
        u.reduce((s, x) => s + x, 0),
        theta,
      )
    )
      continue;
    liveDocs++;
    const has = W.map((w) => w[d] > 0);
    if (has.some(Boolean)) liveTouched++;
    livePostings += has.filter(Boolean).length;
    const parts = split(u, theta);
    const walk = walkDoc(W, d, parts, u, theta);
    E += walk.essential;
    if (!walk.candidate) continue;
    C++;
    lookups += parts.non.length;
    early += walk.early;
  }
  return { liveDocs, liveTouchedDocs: liveTouched, livePostings, essentialPostings: E, candidates: C, lookups, lookupsEarlyExit: early };
}

const QUERIES = [
  'wda wbb wcc wea wfa wga wha wia wja wka wla wma wna woa',
  'waa wba wca wda wea wfa wga wha wia wja',
  'wza wya wxa wwa wva wua wab wbb',
  'wka wka wla wma waa wba wnb wob',
  'wga wha wia wja wka wla wma wna woa wpa wqa wra wsa wta wua',
];

it('counts exactly what a brute force over a dense weight matrix counts, for MaxScore and block-max, at the final and the early θ', () => {
  let skippedRanges = 0;
  let nonEssential = 0;
  let prunedCandidates = 0;
  for (const q of QUERIES) {
    const { ids, counts } = queryTerms(index, q);
    const req = { method: 'bm25' as const, k1: 0.9, b: 0.4, ids, counts, k: 10 };
    const terms = oracleTerms(index.view, req);
    const row = oracleQuery(N, terms, 10, CFGS);
    // θ and the top 10 are the engine's exhaustive scoring, bit for bit.
    const ref = scoreTopK(index.view, req, 'exhaustive');
    expect(row.top).toEqual(ref);
    expect(row.theta).toBe(ref.scores[9]);
    expect(row.P).toBe(terms.reduce((s, t) => s + t.docs.length, 0));
    const W = dense(terms);
    const scores = new Float64Array(N);
    for (const w of W) for (let d = 0; d < N; d++) scores[d] += w[d];
    for (const [at, theta] of [
      ['final', row.theta],
      ['early', row.theta0],
    ] as const) {
      const ms = row.maxscore[at];
      expect(ms).toEqual({ theta, essential: terms.length - ms.nonEssential, ...bruteMaxScore(W, terms, theta) });
      nonEssential += ms.nonEssential;
      prunedCandidates += ms.essentialDocs - ms.candidates;
      for (const cfg of CFGS) {
        const b = row.blocks[cfg.name][at];
        const { ranges, liveRanges, ...counts } = b;
        expect(counts).toEqual({ config: cfg.name, theta, ...bruteBlocks(W, terms, cfg, theta) });
        if (cfg.kind === 'docs') expect(ranges).toBe(Math.ceil(N / cfg.size));
        skippedRanges += ranges - liveRanges;
        // The same counts from the function alone (the row is not computed some other way).
        expect(blockOracle(N, terms, theta, cfg, scores)).toEqual(b);
      }
    }
    expect(row.theta0).toBeLessThanOrEqual(row.theta);
  }
  expect(skippedRanges).toBeGreaterThan(0);
  expect(nonEssential).toBeGreaterThan(0);
  expect(prunedCandidates).toBeGreaterThan(0);
});

it('refuses to prune a top-k doc: a θ above every bound, with a top doc passed as kept, throws', () => {
  const { ids, counts } = queryTerms(index, QUERIES[0]);
  const terms = oracleTerms(index.view, { method: 'bm25', k1: 0.9, b: 0.4, ids, counts, k: 10 });
  const row = oracleQuery(N, terms, 10, CFGS);
  const above = 2 * terms.reduce((s, t) => s + Math.max(...t.w), 0);
  expect(() => maxScoreOracle(N, terms, above, [row.top.docs[9]])).toThrow(/prune top-k doc/);
  expect(() => blockOracle(N, terms, above, CFGS[0], new Float64Array(N), [row.top.docs[9]])).toThrow(/prune top-k doc/);
  expect(() => maxScoreOracle(N, terms, above, [])).not.toThrow();
});
