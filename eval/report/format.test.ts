/**
 * The Markdown tables of report.md, `eval run` and `eval retrieval` (table()): whatever a cell's text
 * holds — a `|`, a backslash right before one, a Windows line break — the row keeps one cell per
 * column, so every figure stays under its header when GitHub (GFM) renders the table.
 */
import { describe, expect, it } from 'vitest';
import { ciText, num, pct, table } from './format.js';

/** The cells of a GFM pipe-table row, split where GitHub splits them: at a `|` not escaped by a backslash. */
function gfmCells(row: string): string[] {
  const cells: string[] = [];
  let cell = '';
  const body = row.trim().replace(/^\|/, '');
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\' && i + 1 < body.length) cell += body[i] + body[++i];
    else if (body[i] === '|') {
      cells.push(cell.trim());
      cell = '';
    } else cell += body[i];
  }
  if (cell.trim()) cells.push(cell.trim());
  return cells;
}

describe('report tables', () => {
  it('a cell holding "\\|" (a backslash before a pipe) or a CRLF / CR line break stays one cell on one line', () => {
    const md = table(
      ['item', 'error', 'accuracy'],
      [
        ['q\\|1', 'HTTP 500\r\nbad gateway', '0.2500'],
        ['C:\\runs\\', 'timeout\rretried', '0.7500'],
        ['d|1', 'plain', '1.0000'],
      ],
    );
    const lines = md.split('\n');
    // a lone CR ends a line in CommonMark too: before, "timeout\rretried" broke its row in two
    expect(md).not.toMatch(/\r/);
    expect(lines).toHaveLength(5);
    const rows = lines.map(gfmCells);
    expect(rows.map((r) => r.length)).toEqual([3, 3, 3, 3, 3]);
    // before: the cell q\|1 was written q\\|1, which GFM reads as an escaped backslash, then a border: 4 cells
    expect(rows[2]).toEqual(['q\\\\\\|1', 'HTTP 500 bad gateway', '0.2500']);
    expect(rows[3]).toEqual(['C:\\runs\\', 'timeout retried', '0.7500']);
    expect(rows[4]).toEqual(['d\\|1', 'plain', '1.0000']);
  });
});

describe('report figures that round to zero', () => {
  it('print without a sign ("0.0%", not "-0.0%"); a negative that does not round to zero keeps it', () => {
    // a float sum's residue: 0.1 + 0.2 - 0.3 is 5.6e-17, its negative −5.6e-17
    const residue = -(0.1 + 0.2 - 0.3);
    expect(residue).toBeLessThan(0);
    expect(pct(residue)).toBe('0.0%');
    expect(ciText({ lo: residue, hi: 0.25 })).toBe('[0.0%, 25.0%]');
    expect(ciText({ lo: residue, hi: 0.25 }, false)).toBe('[0.000, 0.250]');
    expect(num(-0.0004, 3)).toBe('0.000');
    expect(pct(-0.0006)).toBe('-0.1%');
    expect(num(-0.0006, 3)).toBe('-0.001');
  });
});
