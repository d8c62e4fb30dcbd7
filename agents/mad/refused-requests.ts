/**
 * The snippet requests MAD's debaters made that were refused and never ran (each brief's `refused`,
 * debater.ts): a second call in one reply ("one snippet per round", a server repeating a parallel
 * call included), a tool not offered (another spelling: "Search_BM25", "bm25"), an empty query, a
 * tool call written as text. Before 2026-12-02 they were in the traces only; report.md's MAD section
 * now counts them by reason: "**3 snippet requests were refused and never ran** (in 2 of 4 items) …".
 */
import type { Brief } from './types.js';

export interface RefusedRequests {
  refused: number;
  items: number;
  itemsWith: number;
  byReason: Record<string, number>;
}

export function refusedRequests(traces: Iterable<Record<string, unknown>>): { line: string; json: RefusedRequests } | null {
  const byReason: Record<string, number> = {};
  let refused = 0;
  let items = 0;
  let itemsWith = 0;
  for (const t of traces) {
    const rounds = t.rounds as { briefs?: Brief[] }[] | undefined;
    if (!Array.isArray(rounds)) continue;
    items++;
    const here = rounds.flatMap((r) => r.briefs ?? []).flatMap((b) => b.refused ?? []);
    if (!here.length) continue;
    itemsWith++;
    refused += here.length;
    for (const r of here) {
      // a tool call written as text names the tool it wrote: one reason for all
      const reason = r.reason.startsWith('a tool call written as text') ? 'a tool call written as text' : r.reason;
      byReason[reason] = (byReason[reason] ?? 0) + 1;
    }
  }
  if (!refused) return null;
  const reasons = Object.entries(byReason)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([r, n]) => `${n} ${r}`)
    .join(', ');
  return {
    line: `**${refused} snippet request${refused === 1 ? ' was' : 's were'} refused and never ran** (in ${itemsWith} of ${items} item${items === 1 ? '' : 's'}; each brief's \`refused\`): ${reasons}.`,
    json: { refused, items, itemsWith, byReason },
  };
}
