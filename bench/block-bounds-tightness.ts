/**
 * How tight the stored block bounds are (issue 38 item 1; docs/notes/2026-11-30-build-time-block-bounds.md):
 *
 *   node dist/bench/block-bounds-tightness.js INDEX_DIR PROFILE [QUERIES] [FIRST]
 *
 * For the scale bench's agent queries (seed 42, from the FIRST-th), BM25 k1 0.9 b 0.4, per query
 * term and 16,384-doc block: the term's largest weight in the block (exact), the bound from the
 * stored largest tf and smallest length (sparse/blockmax.bin), and the tightest range-wide bound
 * (what sparseCandidates takes without them: the largest weight over the whole range). Prints, as
 * JSON, over every (query term, block) with stored bounds: the share where the stored bound is
 * below the range-wide one, and the medians of stored ÷ range-wide and exact ÷ range-wide; per
 * query the summed bounds per block (R[0]) as the three give them, as medians over queries of the
 * mean over blocks, ÷ the range-wide sum.
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSparseIndex } from '../indexer/sparse/sparse-index.js';
import { decodePostings } from '../indexer/sparse/varint.js';
import { bm25Norm } from '../retrieval/sparse/doc-arrays.js';
import { queryTerms } from '../retrieval/sparse/query-terms.js';
import { syntheticQueries, type CorpusProfile } from './synthetic.js';

export async function blockBoundsTightness(dir: string, profile: CorpusProfile, count: number, first: number) {
  const index = await loadSparseIndex(dir, { postingsInMemory: true });
  const bb = index.blockBounds;
  if (!bb) throw new Error(`${dir}: the index has no block bounds`);
  const { N, avgdl, doclen } = index;
  const k1 = 0.9;
  const b = 0.4;
  const norm = Float64Array.from(doclen, (dl) => bm25Norm(k1, b, dl, avgdl));
  const B = bb.blocks;
  const qs = syntheticQueries({ count: first + count, seed: 42, profile, shape: 'agent' }).slice(first);
  const storedRatio: number[] = [];
  const exactRatio: number[] = [];
  let pairs = 0;
  let tighter = 0;
  const sumStored: number[] = [];
  const sumExact: number[] = [];
  for (const q of qs) {
    const { ids, counts } = queryTerms(index, q);
    const rRange = new Float64Array(B);
    const rStored = new Float64Array(B);
    const rExact = new Float64Array(B);
    ids.forEach((t, i) => {
      const df = index.df[t];
      const p1 = counts[i] * Math.log(1 + (N - df + 0.5) / (df + 0.5)) * (k1 + 1);
      const docs = new Uint32Array(df);
      const tfs = new Uint32Array(df);
      decodePostings(index.postings, index.offsets[t], df, docs, tfs);
      const exact = new Float64Array(B);
      let range = 0;
      for (let j = 0; j < df; j++) {
        const x = tfs[j] / (tfs[j] + norm[docs[j]]);
        const blk = Math.floor(docs[j] / bb.blockDocs);
        if (x > exact[blk]) exact[blk] = x;
        if (x > range) range = x;
      }
      const r = bb.row[t];
      for (let blk = 0; blk < B; blk++) {
        let stored = range;
        if (r >= 0) {
          const tf = bb.maxTf[r * B + blk];
          const s = tf === 0 ? 0 : tf === 255 ? 1 : tf / (tf + bm25Norm(k1, b, bb.minDl[r * B + blk], avgdl));
          if (s < range) tighter++;
          pairs++;
          storedRatio.push(s / range);
          exactRatio.push(exact[blk] / range);
          stored = Math.min(s, range);
        }
        rRange[blk] += p1 * range;
        rStored[blk] += p1 * stored;
        rExact[blk] += p1 * exact[blk];
      }
    });
    let a = 0;
    let s = 0;
    let e = 0;
    for (let blk = 0; blk < B; blk++) {
      a += rRange[blk];
      s += rStored[blk];
      e += rExact[blk];
    }
    if (a > 0) {
      sumStored.push(s / a);
      sumExact.push(e / a);
    }
  }
  const median = (x: number[]) => [...x].sort((p, q) => p - q)[Math.floor(x.length / 2)];
  const r3 = (x: number) => Math.round(x * 1000) / 1000;
  return {
    dir,
    profile,
    queries: count,
    firstQuery: first,
    blocks: B,
    blockBounds: index.manifest.sparse?.blockBounds,
    termBlockPairs: pairs,
    storedBelowRangeShare: r3(tighter / Math.max(1, pairs)),
    medianStoredToRange: r3(median(storedRatio)),
    medianExactToRange: r3(median(exactRatio)),
    medianQuerySumStoredToRange: r3(median(sumStored)),
    medianQuerySumExactToRange: r3(median(sumExact)),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const [dir, profile, n, first] = process.argv.slice(2);
  blockBoundsTightness(resolve(dir), (profile ?? 'bench') as CorpusProfile, Number(n ?? 100), Number(first ?? 100))
    .then((r) => {
      process.stdout.write(JSON.stringify(r, null, 2) + '\n');
      process.exit(0);
    })
    .catch((e) => {
      process.stderr.write(`block-bounds-tightness failed: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    });
}
