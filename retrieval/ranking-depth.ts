/**
 * What a user reads when a search or a cutoff asks for more than a retriever ranks
 * (Retriever.rankingDepth, retrieval/types.ts): hybrid ranks the fusion of each component's top
 * `depth` hits, the same ranking for every k, so a search of more than `depth` hits gets at most the
 * fused union of those lists (fewer hits when it holds fewer), and a Recall@k above `depth` counts
 * only passages some component ranks within its top `depth`. `lexcase search` prints the note on
 * stderr and in --json; `eval retrieval` warns and records it in its report.
 */
import type { Retriever } from './types.js';

/** For a search of k that returned `got` hits: a note when k is beyond the retriever's ranking depth, else undefined. */
export function beyondDepthNote(r: Retriever, k: number, got: number): string | undefined {
  const d = r.rankingDepth;
  if (d === undefined || k <= d) return undefined;
  return got < k
    ? `${got} of the ${k} hits asked for: ${r.method} fuses each component's top ${d} hits (its depth), and they hold ${got} passages; use --depth ${k} to rank ${k}`
    : `k = ${k} is beyond the ${r.method} depth ${d}: it fuses each component's top ${d} hits, so hits past rank ${d} leave out passages a component ranks below ${d}; use --depth ${k} to rank ${k} fully`;
}

/**
 * For cutoffs `ks` of a retriever that ranks `depth` deep (Retriever.rankingDepth): what the figures
 * past it count, without the advice (a reproduction's table, which has no --depth); else undefined.
 */
export function cutoffsBeyondDepth(method: string, depth: number | undefined, ks: readonly number[]): string | undefined {
  const over = depth === undefined ? [] : ks.filter((k) => k > depth);
  if (!over.length) return undefined;
  const cut = over.map((k) => `@${k}`).join(', ');
  return `${cut} ${over.length === 1 ? 'is' : 'are'} beyond the ${method} depth ${depth}: it fuses each component's top ${depth} hits, so ${over.length === 1 ? 'that figure counts' : 'those figures count'} only passages a component ranks within its top ${depth}`;
}

/** For an evaluation at cutoffs `ks`: a warning naming the cutoffs beyond the retriever's ranking depth, else undefined. */
export function cutoffsBeyondDepthWarning(r: Retriever, ks: readonly number[]): string | undefined {
  const what = cutoffsBeyondDepth(String(r.method), r.rankingDepth, ks);
  const most = Math.max(...ks);
  return what && `${what}; use --depth ${most} to rank ${most} fully`;
}
