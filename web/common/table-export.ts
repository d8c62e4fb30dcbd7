/**
 * Export of any explorer table as CSV (RFC 4180; a text cell a spreadsheet would run as a formula or
 * read as a number gets a leading `'`), Markdown (GitHub pipe table) or LaTeX (tabular; ASCII only, latex-text.ts):
 * pure functions of a header row and body rows of cell texts, used by the browser app (the export
 * control under each table) and tested in Node.
 */
import { latexEscape } from './latex-text.js';

export interface PlainTable {
  columns: string[];
  rows: string[][];
}

export type ExportFormat = 'csv' | 'markdown' | 'latex';

/** A cell a spreadsheet reads as a number without losing anything: `0.500`, `-0.012`, `+3`, `1e-4`, `12%` (not `00123`). */
const NUMERIC = /^[-+]?(0|[1-9]\d*)(\.\d+)?([eE][-+]?\d+)?%?$/;
/** A text cell a spreadsheet would run as a formula (`=HYPERLINK(…)`, `+cmd|…`, `-x`, `@SUM(…)`, a tab or CR first) or read as a number, dropping an id's leading zeros (`00123`). */
const SPREADSHEET_UNSAFE = /^([=+\-@\t\r]|0\d+(\.\d*)?([eE][-+]?\d+)?$)/;

/**
 * A text cell that a spreadsheet would run as a formula or turn into a number gets a leading `'`
 * (OWASP's advice against CSV injection), so it opens as the text it is; a numeric cell never does.
 */
const neutralise = (s: string) => (!NUMERIC.test(s) && SPREADSHEET_UNSAFE.test(s) ? `'${s}` : s);
const quote = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const csvCell = (s: string) => quote(neutralise(s));

export function toCsv(t: PlainTable): string {
  return [t.columns, ...t.rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

const mdCell = (s: string) => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');

export function toMarkdown(t: PlainTable): string {
  const line = (r: string[]) => `| ${r.map(mdCell).join(' | ')} |`;
  return [line(t.columns), `|${t.columns.map(() => ' --- |').join('')}`, ...t.rows.map(line)].join('\n') + '\n';
}

export { latexEscape };

/** A booktabs tabular; numeric-looking columns right-aligned. */
export function toLatex(t: PlainTable, caption?: string): string {
  const numeric = t.columns.map((_, i) => t.rows.length > 0 && t.rows.every((r) => /^[-+−]?[\d.,]+%?(\s*\[.*\])?$|^–$/.test((r[i] ?? '').trim())));
  // A row follows `\\`, `\toprule` or `\midrule`, each of which reads a `[` after it (spaces skipped) as
  // its optional argument — "[2024] 1 WLR 5" became a length, pdflatex stopping at "Missing number" —
  // and `\\` a `*` as its star (silently dropped); `{}` ends the look-ahead first.
  const first = (c: string) => (/^\s*[[*]/.test(c) ? `{}${c}` : c);
  const row = (r: string[]) => `  ${r.map((c, i) => (i === 0 ? first(latexEscape(c)) : latexEscape(c))).join(' & ')} \\\\`;
  return (
    [
      '\\begin{table}[t]',
      '\\centering',
      ...(caption ? [`\\caption{${latexEscape(caption)}}`] : []),
      `\\begin{tabular}{${numeric.map((n) => (n ? 'r' : 'l')).join('')}}`,
      '\\toprule',
      row(t.columns),
      '\\midrule',
      ...t.rows.map(row),
      '\\bottomrule',
      '\\end{tabular}',
      '\\end{table}',
    ].join('\n') + '\n'
  );
}

export function exportTable(t: PlainTable, format: ExportFormat, caption?: string): string {
  return format === 'csv' ? toCsv(t) : format === 'markdown' ? toMarkdown(t) : toLatex(t, caption);
}
