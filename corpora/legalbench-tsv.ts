/**
 * Rows of a LegalBench repository TSV (`<task>/<split>.tsv`), each with the line its record starts on.
 * Quoted fields are read as pandas and Excel write them (`"He said ""no"""`; a quoted field may span
 * lines), a quote inside an unquoted field is kept as text, and a UTF-8 byte-order mark is dropped.
 *
 * A field that opens with a quote and never closes it (a TSV written without quoting whose text starts
 * with `"`) would take every row up to the next quote in the file into that field, and the file would
 * still parse with the right number of columns: 12 rows read as 9 items, the first taking a later
 * row's label. Such a field holds the line breaks and the tabs of the rows it took, at least one tab
 * for each other column, and a line that is a whole row (its index an integer), so such a field is
 * refused naming its line; a quoted text that really holds line breaks and tabs is read.
 */
import { readFile } from 'node:fs/promises';
import { parse as parseCsv } from 'csv-parse/sync';
import { errors, isLexcaseError } from '../core/errors.js';
import { headerColumns } from './csv.js';

export interface TsvRow {
  /** 1-based line the record starts on. */
  line: number;
  row: Record<string, unknown>;
}

const count = (s: string, c: string): number => s.split(c).length - 1;

/**
 * A field's text holds a row it took: a line after its first that is a whole row — one cell per
 * column, its `index` cell an integer (a file with no index column: any line with that many cells).
 * A quoted text that really spans lines with tabs in them (LegalBench's ssla_* complaints: "10 \t11.
 * \tPlaintiff …") has no such line, and is read.
 */
function holdsARow(v: string, columns: number, ix: number): boolean {
  return v
    .split(/\r\n|\r|\n/)
    .slice(1)
    .some((l) => {
      const cells = l.split('\t');
      return cells.length === columns && (ix < 0 || /^\d+$/.test(cells[ix].trim()));
    });
}

export async function readLegalBenchTsv(file: string): Promise<TsvRow[]> {
  let records: { record: Record<string, string>; info: { lines: number } }[];
  try {
    records = parseCsv(await readFile(file, 'utf8'), {
      delimiter: '\t',
      columns: headerColumns(file),
      relax_quotes: true,
      skip_empty_lines: true,
      bom: true,
      info: true,
    });
  } catch (e) {
    if (isLexcaseError(e)) throw e; // a column named twice (headerColumns)
    const line = (e as { lines?: number }).lines ?? 0;
    throw errors.corpusParse(file, line, `not a valid TSV: ${(e as Error).message}`, e);
  }
  // csv-parse's info.lines is the line a record ends on, counting each \r and \n inside a quoted field
  // as a line of its own (corpora/csv.ts): the start line is that minus those.
  let extraCr = 0;
  const ix = records.length ? Object.keys(records[0].record).indexOf('index') : -1;
  return records.map(({ record, info }) => {
    const values = Object.entries(record);
    const breaks = values.reduce((n, [, v]) => n + count(v, '\n'), 0);
    const crs = values.reduce((n, [, v]) => n + count(v, '\r'), 0);
    const line = info.lines - breaks - crs - extraCr;
    extraCr += crs;
    const others = values.length - 1;
    for (const [column, v] of values) {
      if (others < 1 || !/[\r\n]/.test(v) || count(v, '\t') < others || !holdsARow(v, values.length, ix)) continue;
      throw errors.corpusParse(
        file,
        line,
        `field "${column}" opens with a quote (") and runs to line ${line + count(v, '\n')}, taking ${count(v, '\n')} line break(s) and ${count(v, '\t')} tabs: a quote that opens a field and is not closed takes the rows after it into that field (those rows would not be read as items); write the field quoted with "" for each quote inside (as pandas and Excel do), or remove the stray quote; a text that does hold tabs over several lines can be given as JSONL instead (<task>.<split>.jsonl, one {"index", "text", "answer"} a line)`,
      );
    }
    return { line, row: record };
  });
}
