/**
 * Rank fusion for hybrid retrieval.
 *
 * - Reciprocal-rank fusion (Cormack et al. 2009): score(d) = Σ_m w_m / (k + rank_m(d)), k = 60,
 *   summed over the component lists that contain d (1-based ranks; default weights 1).
 * - Weighted fusion of min-max-normalised scores: each list's scores are mapped to [0, 1] by
 *   (s − min)/(max − min) over that list (all 1 when max = min); score(d) = Σ_m w_m · norm_m(d),
 *   with 0 for lists that do not contain d. Weights default to 1/|lists|.
 *
 * A passage's score adds its contributions smallest first, whatever the order of the lists
 * (fusedSum): a float sum depends on the order of its terms, and adding each passage's in list
 * order gave two passages with the same contributions from different lists (ranks 1, 2, 7 and 7, 1, 2
 * of three lists) scores a last bit apart: the order of the lists (`--hybrid-methods dense,qld,bm25`
 * or `bm25,qld,dense`, one setting) changed the scores `search --json` prints, and which of two such
 * passages this order (createHybridRetriever's own) put first went by that bit, not by id. Ties in
 * the fused score then break by id ascending, so output is deterministic.
 */
import type { Hit } from './types.js';

export type FusionMethod = 'rrf' | 'weighted';
export const RRF_K = 60;

export interface RankedList {
  method: string;
  hits: Hit[];
}

export interface FusedComponent {
  rank: number;
  score: number;
  /** Min-max normalised score (weighted fusion) — absent for RRF. */
  normalized?: number;
  contribution: number;
}

export interface FusedHit extends Hit {
  components: Record<string, FusedComponent>;
}

/**
 * The sum of `xs` added smallest first: the same float for the same numbers in any order, so a
 * passage's fused score does not depend on the order of the lists that gave them.
 */
export function fusedSum(xs: readonly number[]): number {
  let s = 0;
  for (const x of [...xs].sort((a, b) => a - b)) s += x;
  return s;
}

/** Per passage: every contribution (a method named twice adds both) and the components shown. */
type Acc = Map<string, { contributions: number[]; components: Record<string, FusedComponent> }>;

function finish(acc: Acc, k?: number): FusedHit[] {
  const all = [...acc].map(([id, v]) => ({ id, score: fusedSum(v.contributions), components: v.components }));
  all.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return all.slice(0, k ?? all.length).map((h, i) => ({ ...h, rank: i + 1 }));
}

/**
 * The weight a list is fused with when `weights` names no weight for it: 1 for RRF, 1/n for weighted
 * fusion of n lists (1 when there are none). The hybrid records its effective weights by this rule.
 */
export const defaultFusionWeight = (fusion: FusionMethod, lists: number): number => (fusion === 'rrf' || lists === 0 ? 1 : 1 / lists);

function weightOf(weights: Record<string, number> | undefined, method: string, dflt: number): number {
  const w = weights?.[method];
  return w === undefined ? dflt : w;
}

export function reciprocalRankFusion(lists: RankedList[], opts: { k?: number; rrfK?: number; weights?: Record<string, number> } = {}): FusedHit[] {
  const c = opts.rrfK ?? RRF_K;
  const acc: Acc = new Map();
  for (const { method, hits } of lists) {
    const w = weightOf(opts.weights, method, defaultFusionWeight('rrf', lists.length));
    for (const h of hits) {
      const contribution = w / (c + h.rank);
      const e = acc.get(h.id) ?? { contributions: [], components: {} };
      e.contributions.push(contribution);
      e.components[method] = { rank: h.rank, score: h.score, contribution };
      acc.set(h.id, e);
    }
  }
  return finish(acc, opts.k);
}

export function minMaxNormalize(hits: Hit[]): Map<string, number> {
  const out = new Map<string, number>();
  if (!hits.length) return out;
  let lo = Infinity;
  let hi = -Infinity;
  for (const h of hits) {
    lo = Math.min(lo, h.score);
    hi = Math.max(hi, h.score);
  }
  const span = hi - lo;
  for (const h of hits) out.set(h.id, span > 0 ? (h.score - lo) / span : 1);
  return out;
}

export function weightedFusion(lists: RankedList[], opts: { k?: number; weights?: Record<string, number> } = {}): FusedHit[] {
  const dflt = defaultFusionWeight('weighted', lists.length);
  const acc: Acc = new Map();
  for (const { method, hits } of lists) {
    const w = weightOf(opts.weights, method, dflt);
    const norm = minMaxNormalize(hits);
    for (const h of hits) {
      const n = norm.get(h.id)!;
      const contribution = w * n;
      const e = acc.get(h.id) ?? { contributions: [], components: {} };
      e.contributions.push(contribution);
      e.components[method] = { rank: h.rank, score: h.score, normalized: n, contribution };
      acc.set(h.id, e);
    }
  }
  return finish(acc, opts.k);
}

export function fuse(method: FusionMethod, lists: RankedList[], opts: { k?: number; rrfK?: number; weights?: Record<string, number> } = {}): FusedHit[] {
  return method === 'rrf' ? reciprocalRankFusion(lists, opts) : weightedFusion(lists, opts);
}
