/**
 * Streaming CSV/TSV loader (csv-parse): the first row is the header; columns are mapped onto the
 * Passage model by name (see field-map.ts). Quoted fields may span lines; errors name the file and
 * the line where the bad record starts.
 */
import { basename } from 'node:path';
import { parse } from 'csv-parse';
import { errors } from '../core/errors.js';
import { log } from '../core/log.js';
import { defaultMaxLineBytes, readTextChunks } from './read-lines.js';
import { FileFields, toPassage } from './field-map.js';
import type { PassageLoadOptions } from './jsonl.js';
import type { Passage } from './types.js';

export interface CsvOptions {
  /** Field delimiter; default "\t" for .tsv/.tsv.gz files, "," otherwise. */
  delimiter?: string;
  /** Longest record accepted (characters; default the line limit of read-lines.ts, 64 MiB). */
  maxLineBytes?: number;
}

export function delimiterFor(file: string): string {
  return /\.tsv(\.gz)?$/i.test(file) ? '\t' : ',';
}

/**
 * csv-parse's `columns` for a file's header: its names, trimmed; a name twice is refused, as it would
 * keep only its last column's values, silently (a LegalBench TSV with two `answer` columns read the
 * second as the gold).
 */
export function headerColumns(file: string): (header: string[]) => string[] {
  return (header) => {
    const names = header.map((h) => h.trim());
    names.forEach((n, i) => {
      const first = names.indexOf(n);
      if (first < i) {
        throw errors.corpusField(
          file,
          n,
          `the header names this column twice (columns ${first + 1} and ${i + 1}); header: ${names.join(', ')}; rename or drop one`,
        );
      }
    });
    return names;
  };
}

/** A field as a CSV writer quotes one holding a quote: wrapped in quotes, its quotes doubled. */
const looksQuoted = (v: string): boolean => v.length >= 4 && v.startsWith('"') && v.endsWith('"') && v.slice(1, -1).includes('""');

/** Rows as header-keyed objects with the 1-based line their record starts on. */
export async function* readCsvRows(file: string, opts: CsvOptions = {}): AsyncGenerator<{ line: number; row: Record<string, string> }> {
  const delimiter = opts.delimiter ?? delimiterFor(file);
  const maxRecord = opts.maxLineBytes ?? defaultMaxLineBytes();
  const parser = parse({
    columns: headerColumns(file),
    delimiter,
    bom: true,
    info: true,
    relax_column_count: false,
    skip_empty_lines: true,
    max_record_size: maxRecord,
    // TSV exports rarely quote; a stray quote must not swallow the rest of the file.
    quote: delimiter === '\t' ? false : '"',
  });
  const source = readTextChunks(file);
  // Feed the parser from the decoded stream with back-pressure.
  // Resolve on 'drain', or on 'close' when the consumer stopped early and the parser was destroyed.
  const drained = () =>
    new Promise<void>((r) => {
      const done = () => {
        parser.off('drain', done);
        parser.off('close', done);
        r();
      };
      parser.once('drain', done);
      parser.once('close', done);
    });
  const feed = (async () => {
    try {
      for await (const chunk of source) {
        if (parser.destroyed) break;
        if (!parser.write(chunk)) await drained();
      }
      if (!parser.destroyed) parser.end();
    } catch (e) {
      parser.destroy(e as Error);
    }
  })();
  // csv-parse's info.lines is the line a record ENDS on, and it counts every \r and \n inside a
  // quoted field as a line of its own: the start line is that minus the record's own line breaks,
  // minus the \r's it counted as extra lines in earlier records (lines here end at \n, as in read-lines.ts).
  let extraCr = 0;
  // TSV is read unquoted: a field a CSV writer quoted ("He said ""no"""; Python's csv and pandas write one so
  // when it holds a quote) keeps its quotes as text — said once, with the count and the first line
  const quoted = { fields: 0, firstLine: 0 };
  try {
    for await (const rec of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      let breaks = 0;
      let crs = 0;
      for (const v of Object.values(rec.record)) {
        for (let i = v.indexOf('\n'); i !== -1; i = v.indexOf('\n', i + 1)) breaks++;
        for (let i = v.indexOf('\r'); i !== -1; i = v.indexOf('\r', i + 1)) crs++;
      }
      const line = rec.info.lines - breaks - crs - extraCr;
      if (delimiter === '\t') for (const v of Object.values(rec.record)) if (looksQuoted(v) && quoted.fields++ === 0) quoted.firstLine = line;
      yield { line, row: rec.record };
      extraCr += crs;
    }
    if (quoted.fields)
      log.warn(
        `${file}: ${quoted.fields} TSV field${quoted.fields === 1 ? '' : 's'} look${quoted.fields === 1 ? 's' : ''} CSV-quoted (the first on line ${quoted.firstLine}: "…""…"): TSV is read unquoted, so the wrapping and doubled quotes are kept as text; write the file without quoting (Python csv.QUOTE_NONE) or as CSV`,
      );
  } catch (e) {
    const err = e as Error & { lines?: number; code?: string };
    if ((err as { code?: string }).code === 'CORPUS_PARSE' || (err as { code?: string }).code === 'CORPUS_NOT_FOUND') throw e;
    if (err.code === 'CSV_MAX_RECORD_SIZE') throw errors.lineTooLong(file, err.lines ?? 0, maxRecord);
    throw errors.corpusParse(file, err.lines ?? 0, `malformed ${delimiter === '\t' ? 'TSV' : 'CSV'}: ${err.message}`, e);
  } finally {
    await feed;
  }
}

export async function* loadCsvPassages(file: string, opts: PassageLoadOptions & CsvOptions = {}): AsyncGenerator<Passage> {
  const defaultSource = opts.source ?? basename(file);
  const fields = opts.fields ?? {};
  let checked = false;
  let chosen: FileFields | undefined;
  for await (const { line, row } of readCsvRows(file, opts)) {
    if (!checked) {
      checked = true;
      const header = Object.keys(row);
      for (const key of ['id', 'text', 'title', 'docId', 'source'] as const) {
        const col = fields[key];
        if (col && !header.includes(col)) {
          throw errors.corpusField(file, col, `no such column (--${key === 'docId' ? 'doc-id' : key}-field); header: ${header.join(', ')}`);
        }
      }
      for (const col of fields.keep ?? []) {
        if (!header.includes(col)) throw errors.corpusField(file, col, `no such column (--keep-fields); header: ${header.join(', ')}`);
      }
      // One column per field for the whole file, from the header.
      chosen = FileFields.fromColumns(fields, header, 'the header');
    }
    yield toPassage(row, fields, { file, line, defaultSource, fields: chosen });
  }
}
