/**
 * The texts of a reproduction cell in the explorer (table.json, eval/reproduce/table.ts): its n with
 * the topics without hits it leaves out, a cutoff past its run's hits and the failed items beside it, and its flag — a ⚑ beside failed items says it may come from them.
 */
export interface ReproCellFlags {
  value: number | null;
  n: number;
  failed?: number;
  failedNote?: string;
  /** A trec run's topics of the cell with no hit, not in n (absent when none, and in a table.json from before). */
  noHits?: { count: number };
  /** A trec cell whose cutoff is deeper than its run's hits (absent when not, and in a table.json from before). */
  pastDepth?: { depth: number };
  outsideCi: boolean | null;
  flagNote?: string;
}

/** "10", "10 (4 failed, counted as wrong)", "51 (1 without hits left out)" or "40 (the run's 100 hits only: see the notes)" (table.md's wording). */
export const reproNText = (c: ReproCellFlags): string =>
  `${c.n}${c.noHits?.count ? ` (${c.noHits.count} without hits left out)` : ''}${c.pastDepth ? ` (the run's ${c.pastDepth.depth} hits only: see the notes)` : ''}${c.failed ? ` (${c.failed} failed, ${c.failedNote ?? 'see the run'})` : ''}`;

export function reproFlagText(c: ReproCellFlags, comparable: boolean): string {
  if (c.outsideCi) return c.failed ? `⚑ outside CI — ${c.flagNote ?? 'may come from the failed items'}` : '⚑ outside CI';
  if (!comparable) return '† not comparable';
  if (c.outsideCi === false) return 'within CI';
  return c.flagNote && c.value !== null ? `no flag: ${c.flagNote}` : '';
}
