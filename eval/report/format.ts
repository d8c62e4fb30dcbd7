/** Small Markdown helpers for reports. */
import { markdownTable } from 'markdown-table';
import { fixed } from '../../core/fixed.js';

export const pct = (x: number | null | undefined, digits = 1): string =>
  x === null || x === undefined || Number.isNaN(x) ? '–' : `${fixed(x * 100, digits)}%`;

export const ciText = (ci: { lo: number; hi: number } | undefined, asPct = true, digits = 1): string =>
  !ci ? '–' : asPct ? `[${pct(ci.lo, digits)}, ${pct(ci.hi, digits)}]` : `[${fixed(ci.lo, digits + 2)}, ${fixed(ci.hi, digits + 2)}]`;

export const num = (x: number, digits = 0): string => (Number.isInteger(x) && digits === 0 ? x.toLocaleString('en-US') : fixed(x, digits));

/**
 * A Markdown code span holding `s` as it is (CommonMark 6.1): fenced by one backtick more than its
 * longest run of backticks, with a space inside each fence when `s` starts or ends with a backtick
 * (or with a space at both ends, which CommonMark would strip). Before, an id was wrapped in single
 * backticks: `q`1` ended the span after "q" and left "1`" as stray text.
 */
export function codeSpan(s: string): string {
  const fence = '`'.repeat(Math.max(0, ...(s.match(/`+/g) ?? []).map((r) => r.length)) + 1);
  const pad = s.startsWith('`') || s.endsWith('`') || (s.startsWith(' ') && s.endsWith(' ') && /[^ ]/.test(s)) ? ' ' : '';
  return `${fence}${pad}${s}${pad}${fence}`;
}

export type Align = 'l' | 'r' | 'c';

/**
 * One cell of a GitHub (GFM) pipe table: a `|` escaped as `\|` so it cannot end the cell, the
 * backslashes right before a `|` doubled (a cell's own `\|` would otherwise read as an escaped
 * backslash and then a cell border), and every line break — \n, \r\n and a lone \r, which
 * CommonMark also ends a line at — a space, so the row stays one line. Without it a label "BM25 | RM3"
 * was two cells and every figure of its row stood one column to the right of its header.
 */
export const mdCell = (c: string | number): string =>
  String(c)
    .replace(/(\\+)(?=\|)/g, '$1$1')
    .replace(/\|/g, '\\|')
    .replace(/\r\n?|\n/g, ' ');

/**
 * A Markdown table whose columns are padded to one width (markdown-table), so it reads aligned in
 * a terminal and renders as a table in report.md. Cells are escaped (mdCell); by default the first
 * column is left-aligned and the others (numbers) right-aligned.
 */
export function table(header: string[], rows: (string | number)[][], align?: Align[]): string {
  return markdownTable([header.map(mdCell), ...rows.map((r) => r.map(mdCell))], { align: align ?? header.map((_, i) => (i === 0 ? 'l' : 'r')) });
}
