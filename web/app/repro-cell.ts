/**
 * The texts of a reproduction cell in the explorer (table.json, eval/reproduce/table.ts): its n with
 * the failed items beside it, and its flag — a ⚑ beside failed items says it may come from them.
 */
export interface ReproCellFlags {
  value: number | null;
  n: number;
  failed?: number;
  failedNote?: string;
  outsideCi: boolean | null;
  flagNote?: string;
}

/** "10", or "10 (4 failed, counted as wrong)". */
export const reproNText = (c: ReproCellFlags): string => (c.failed ? `${c.n} (${c.failed} failed, ${c.failedNote ?? 'see the run'})` : String(c.n));

export function reproFlagText(c: ReproCellFlags, comparable: boolean): string {
  if (c.outsideCi) return c.failed ? `⚑ outside CI — ${c.flagNote ?? 'may come from the failed items'}` : '⚑ outside CI';
  if (!comparable) return '† not comparable';
  if (c.outsideCi === false) return 'within CI';
  return c.flagNote && c.value !== null ? `no flag: ${c.flagNote}` : '';
}
