/**
 * Streaming Parquet loader (hyparquet + hyparquet-compressors): reads one row group at a time, so
 * memory is bounded by the largest row group, not the file. Only the mapped columns are read.
 */
import { basename } from 'node:path';
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from 'hyparquet';
import { compressors } from 'hyparquet-compressors';
import { errors } from '../core/errors.js';
import { assertReadableFile } from './read-lines.js';
import { DEFAULT_FIELDS, FileFields, toPassage } from './field-map.js';
import type { PassageLoadOptions } from './jsonl.js';
import type { Passage } from './types.js';

/** Rows as objects, row group by row group; `row` is the 1-based row number in the file. */
export async function* readParquetRows(file: string, columns?: string[]): AsyncGenerator<{ row: number; value: Record<string, unknown> }> {
  await assertReadableFile(file);
  let buffer, metadata;
  try {
    buffer = await asyncBufferFromFile(file);
    metadata = await parquetMetadataAsync(buffer);
  } catch (e) {
    throw errors.corpusParse(file, 0, `not a readable Parquet file: ${(e as Error).message}`, e);
  }
  let rowStart = 0;
  for (const rg of metadata.row_groups) {
    const n = Number(rg.num_rows);
    let rows: Record<string, unknown>[];
    try {
      rows = await parquetReadObjects({ file: buffer, metadata, columns, rowStart, rowEnd: rowStart + n, compressors });
    } catch (e) {
      throw errors.corpusParse(file, rowStart + 1, `cannot read Parquet row group starting at row ${rowStart + 1}: ${(e as Error).message}`, e);
    }
    for (let i = 0; i < rows.length; i++) yield { row: rowStart + i + 1, value: rows[i] };
    rowStart += n;
  }
}

/** Top-level column names of a Parquet file. */
export async function parquetColumns(file: string): Promise<string[]> {
  const buffer = await asyncBufferFromFile(file);
  const metadata = await parquetMetadataAsync(buffer);
  return parquetSchema(metadata).children.map((c) => c.element.name);
}

export async function* loadParquetPassages(file: string, opts: PassageLoadOptions = {}): AsyncGenerator<Passage> {
  await assertReadableFile(file);
  const defaultSource = opts.source ?? basename(file);
  const f = opts.fields ?? {};
  let available: string[];
  try {
    available = await parquetColumns(file);
  } catch (e) {
    throw errors.corpusParse(file, 0, `not a readable Parquet file: ${(e as Error).message}`, e);
  }
  const wanted = new Set<string>();
  for (const key of ['id', 'text', 'title', 'docId', 'source'] as const) {
    const explicit = f[key];
    if (explicit) {
      if (!available.includes(explicit)) {
        throw errors.corpusField(file, explicit, `no such Parquet column (--${key === 'docId' ? 'doc-id' : key}-field); columns: ${available.join(', ')}`);
      }
      wanted.add(explicit);
    } else for (const c of DEFAULT_FIELDS[key]) if (available.includes(c)) wanted.add(c);
  }
  // --keep-fields: kept where a row has them; a column the file lacks is kept nowhere, as in JSONL.
  for (const c of f.keep ?? []) if (available.includes(c)) wanted.add(c);
  if (!f.text && !DEFAULT_FIELDS.text.some((c) => available.includes(c))) {
    throw errors.corpusField(
      file,
      'text',
      `no text column (looked for ${DEFAULT_FIELDS.text.join(', ')}); set --text-field to one of: ${available.join(', ')}`,
    );
  }
  // One column per field for the whole file (from the schema): a row whose id or text is null is an error, not read from another column.
  const chosen = FileFields.fromColumns(f, available, 'the Parquet schema');
  for await (const { row, value } of readParquetRows(file, [...wanted])) {
    yield toPassage(value, f, { file, line: row, defaultSource, fields: chosen });
  }
}
