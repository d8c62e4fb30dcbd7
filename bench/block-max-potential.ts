/**
 * What block-max bounds could skip for the agent shape, before any walk is written (issue 38
 * item 1), on one kept index (`--scale --keep`):
 *
 *   node dist/bench/block-max-potential.js INDEX_DIR PROFILE [QUERIES]
 *
 * Per agent query (seed 42, BM25 k1 0.9 b 0.4, k = 10, whole doc range) and block size, the
 * tightest block bounds a build could store (per term and block, the largest weight any posting
 * of the block adds: exact for the index's k1/b) are taken against θ = the FINAL k-th best score
 * (the running θ of a walk is never higher: this is an upper bound on what any block-max walk
 * skips). Reports: the share of blocks whose summed bounds cannot reach θ (skipped whole), and the
 * postings a walk must add to every doc of its blocks (the essential terms: the plan prefix left
 * once the suffix of block bounds falls below θ) — beside blocked TAAT's pruning today (its
 * prefix from range-wide bounds, and only dense lists ever left to candidates). Throws when a doc
 * scores above its block's summed bounds (the figures would be wrong).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { openSparseIndex } from '../retrieval/open.js';
import { queryTerms } from '../retrieval/sparse/query-terms.js';
import { scoreTopK, termPlan, type ScoreRequest } from '../retrieval/sparse/score-core.js';
import { bm25Norms } from '../retrieval/sparse/doc-arrays.js';
import { CHUNK_DOCS, compactPostings, denseTfs, TF8_ESCAPE } from '../retrieval/sparse/decoded-postings.js';
import { scaleQueries } from './scale-child.js';
import type { CorpusProfile } from './synthetic.js';

const SIZES = [16384, 4096, 1024, 256];

export async function blockMaxPotential(dir: string, profile: CorpusProfile, count: number) {
  const index = await openSparseIndex(dir);
  const view = index.view;
  const N = view.hi - view.lo;
  const norm = bm25Norms(view, 0.9, 0.4);
  const qs = scaleQueries(profile, 'agent', count + 2, 42).slice(2);
  const rows: Record<string, unknown>[] = [];
  for (const q of qs) {
    const { ids, counts } = queryTerms(index, q);
    const req: ScoreRequest = { method: 'bm25', k1: 0.9, b: 0.4, ids, counts, k: 10 };
    const top = scoreTopK(view, req);
    const theta = top.scores[top.scores.length - 1];
    const plan = termPlan(view, req);
    const T = plan.length;
    // Per term: each posting's doc and weight (p1·tf/(tf + norm)).
    const docsOf: Int32Array[] = [];
    const wOf: Float64Array[] = [];
    const globalMax: number[] = [];
    let minNorm = Infinity;
    for (let d = 0; d < N; d++) if (norm[d] < minNorm) minNorm = norm[d];
    for (const t of plan) {
      const dense = denseTfs(view, t.id);
      let docs: number[] = [];
      let tfsA: number[] = [];
      let maxTf = 0;
      if (dense) {
        const b = dense.tfs;
        for (let d = 0; d < N; d++) if (b[d]) docs.push(d), tfsA.push(b[d]);
        maxTf = dense.maxTf;
      } else {
        const l = compactPostings(view, t.id);
        let p = 0;
        for (let c = 0; c < l.chunkEnd.length; c++)
          for (const end = l.chunkEnd[c]; p < end; p++) {
            const tf = l.tfs[p] === TF8_ESCAPE ? l.bigTf!.get(p)! : l.tfs[p];
            docs.push((l.c0 + c) * CHUNK_DOCS + l.low[p]);
            tfsA.push(tf);
            if (tf > maxTf) maxTf = tf;
          }
      }
      const w = new Float64Array(docs.length);
      for (let i = 0; i < docs.length; i++) w[i] = (t.p1 * tfsA[i]) / (tfsA[i] + norm[docs[i]]);
      docsOf.push(Int32Array.from(docs));
      wOf.push(w);
      globalMax.push((t.p1 * maxTf) / (maxTf + minNorm));
      docs = [];
      tfsA = [];
    }
    const postings = docsOf.reduce((s, a) => s + a.length, 0);
    // Every doc's score (the same additions in plan order): the bounds are checked against it.
    const score = new Float64Array(N);
    for (let j = 0; j < T; j++) {
      const docs = docsOf[j];
      const w = wOf[j];
      for (let i = 0; i < docs.length; i++) score[docs[i]] += w[i];
    }
    // Blocked TAAT today: terms before the first dense list always walked; from there the prefix
    // while the range-wide suffix bound reaches θ.
    let firstDense = 0;
    while (firstDense < T && plan[firstDense].df < 0.5 * N) firstDense++;
    const R = new Float64Array(T + 1);
    for (let j = T - 1; j >= 0; j--) R[j] = R[j + 1] + globalMax[j];
    let J = firstDense;
    while (J < T && R[J] >= theta) J++;
    let todayWalked = 0;
    for (let j = 0; j < J; j++) todayWalked += docsOf[j].length;
    const bySize: Record<string, unknown> = {};
    for (const B of SIZES) {
      const nb = Math.ceil(N / B);
      const bm = plan.map((_, j) => {
        const m = new Float64Array(nb);
        const docs = docsOf[j];
        const w = wOf[j];
        for (let i = 0; i < docs.length; i++) {
          const b = Math.floor(docs[i] / B);
          if (w[i] > m[b]) m[b] = w[i];
        }
        return m;
      });
      const cnt = plan.map((_, j) => {
        const c = new Int32Array(nb);
        for (const d of docsOf[j]) c[Math.floor(d / B)]++;
        return c;
      });
      let skipped = 0;
      let walked = 0;
      for (let b = 0; b < nb; b++) {
        let sum = 0;
        for (let j = 0; j < T; j++) sum += bm[j][b];
        // A bound below a doc of its block would make the figures wrong: checked, not assumed.
        let best = 0;
        for (let d = b * B; d < Math.min(N, (b + 1) * B); d++) if (score[d] > best) best = score[d];
        if (best > sum * (1 + 1e-12)) throw new Error(`block ${b} (${B} docs): a doc scores ${best} above the summed bounds ${sum}`);
        if (sum < theta) {
          skipped++;
          continue;
        }
        // Essential prefix: drop terms from the end while their summed block bounds stay below θ.
        let suffix = 0;
        let Jb = T;
        while (Jb > 0 && suffix + bm[Jb - 1][b] < theta) suffix += bm[--Jb][b];
        for (let j = 0; j < Jb; j++) walked += cnt[j][b];
      }
      bySize[B] = { blocks: nb, skippedShare: Math.round((skipped / nb) * 1000) / 1000, walkedShare: Math.round((walked / postings) * 1000) / 1000 };
    }
    rows.push({
      terms: T,
      postings,
      theta: Math.round(theta * 1000) / 1000,
      todayWalkedShare: Math.round((todayWalked / postings) * 1000) / 1000,
      firstDense,
      J,
      bySize,
    });
  }
  return { dir, profile, N, queries: count, load: loadavg(), rows };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const [dir, profile, n] = process.argv.slice(2);
  blockMaxPotential(resolve(dir), (profile ?? 'zipf') as CorpusProfile, Number(n ?? 20))
    .then((r) => {
      process.stdout.write(JSON.stringify(r, null, 1) + '\n');
      process.exit(0);
    })
    .catch((e) => {
      process.stderr.write(`block-max-potential failed: ${e instanceof Error ? e.stack : String(e)}\n`);
      process.exit(1);
    });
}
