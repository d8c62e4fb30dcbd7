/**
 * Tokens per item: one figure, one denominator, printed one way — report.md's Tokens table ("per
 * item"), CASE's and the baselines' Tokens line (`run case|baseline` output and report.md's CASE
 * section), report.json (`tokens.perItem`, `sections.case.tokens.perItem`) and `--json`. The
 * denominator is every item whose results.jsonl line records tokens, failed items included (a failed
 * item spent what it sent before it failed); a line an older lexcase wrote without `tokens` is in
 * neither the total nor the count, and the figure says so ("over the 2 of 3 items whose results.jsonl
 * lines record tokens").
 */
import { num } from './report/format.js';
import type { ResultRecord } from './types.js';

/** The items the per-item figure is over (`items`) and all the run's items (`of`). */
export function meteredItems(results: readonly ResultRecord[]): { items: number; of: number } {
  return { items: results.filter((r) => r.tokens).length, of: results.length };
}

/** "11058.3": a per-item token figure as every surface prints it. */
export const perItemTokensText = (perItem: number): string => num(perItem, 1);

/** "over the 2 of 3 items whose results.jsonl lines record tokens" where some line records none; '' where every line does. */
export function meteredItemsText(m: { items: number; of: number }): string {
  return m.items < m.of ? `over the ${m.items.toLocaleString('en-US')} of ${m.of.toLocaleString('en-US')} items whose results.jsonl lines record tokens` : '';
}
