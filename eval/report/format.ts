/** Small Markdown helpers for reports. */
import { markdownTable } from 'markdown-table';

export const pct = (x: number | null | undefined, digits = 1): string =>
  x === null || x === undefined || Number.isNaN(x) ? '–' : `${(x * 100).toFixed(digits)}%`;

export const ciText = (ci: { lo: number; hi: number } | undefined, asPct = true, digits = 1): string =>
  !ci ? '–' : asPct ? `[${pct(ci.lo, digits)}, ${pct(ci.hi, digits)}]` : `[${ci.lo.toFixed(digits + 2)}, ${ci.hi.toFixed(digits + 2)}]`;

export const num = (x: number, digits = 0): string => (Number.isInteger(x) && digits === 0 ? x.toLocaleString('en-US') : x.toFixed(digits));

export type Align = 'l' | 'r' | 'c';

/**
 * A Markdown table whose columns are padded to one width (markdown-table), so it reads aligned in
 * a terminal and renders as a table in report.md. Cells are escaped for pipes; by default the first
 * column is left-aligned and the others (numbers) right-aligned.
 */
export function table(header: string[], rows: (string | number)[][], align?: Align[]): string {
  const esc = (c: string | number) => String(c).replace(/\|/g, '\\|').replace(/\n/g, ' ');
  return markdownTable([header.map(esc), ...rows.map((r) => r.map(esc))], { align: align ?? header.map((_, i) => (i === 0 ? 'l' : 'r')) });
}
