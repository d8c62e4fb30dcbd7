/**
 * Export of any explorer table as CSV (RFC 4180), Markdown (GitHub pipe table) or LaTeX (tabular):
 * pure functions of a header row and body rows of cell texts, used by the browser app (the export
 * control under each table) and tested in Node.
 */
export interface PlainTable {
  columns: string[];
  rows: string[][];
}

export type ExportFormat = 'csv' | 'markdown' | 'latex';

const csvCell = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

export function toCsv(t: PlainTable): string {
  return [t.columns, ...t.rows].map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

const mdCell = (s: string) => s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, '<br>');

export function toMarkdown(t: PlainTable): string {
  const line = (r: string[]) => `| ${r.map(mdCell).join(' | ')} |`;
  return [line(t.columns), `|${t.columns.map(() => ' --- |').join('')}`, ...t.rows.map(line)].join('\n') + '\n';
}

const LATEX_SPECIAL: Record<string, string> = {
  '\\': '\\textbackslash{}',
  '&': '\\&',
  '%': '\\%',
  $: '\\$',
  '#': '\\#',
  _: '\\_',
  '{': '\\{',
  '}': '\\}',
  '~': '\\textasciitilde{}',
  '^': '\\textasciicircum{}',
  // in LaTeX's default OT1 font encoding these print as ¡ ¿ —: "p < 0.001" read "p ¡ 0.001"
  '<': '\\textless{}',
  '>': '\\textgreater{}',
  '|': '\\textbar{}',
};

export const latexEscape = (s: string): string => s.replace(/[\\&%$#_{}~^<>|]/g, (c) => LATEX_SPECIAL[c]).replace(/\r?\n/g, ' ');

/** A booktabs tabular; numeric-looking columns right-aligned. */
export function toLatex(t: PlainTable, caption?: string): string {
  const numeric = t.columns.map((_, i) => t.rows.length > 0 && t.rows.every((r) => /^[-+−]?[\d.,]+%?(\s*\[.*\])?$|^–$/.test((r[i] ?? '').trim())));
  const row = (r: string[]) => `  ${r.map(latexEscape).join(' & ')} \\\\`;
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
