/**
 * Shared option parsing for commands that read a corpus or build an index: the --analyzer list and
 * the field-mapping flags (--id-field, --text-field, ...).
 */
import type { Command } from 'commander';
import { ANALYZER_KEYS, resolveAnalyzerConfig, type AnalyzerConfig } from '../../../indexer/analyzer-config.js';
import { errors } from '../../../core/errors.js';
import type { FieldMapping } from '../../../corpora/field-map.js';
import { PASSAGE_FORMATS, type PassageFormat } from '../../../corpora/passage-formats.js';
import { isBundledCorpus } from '../../../corpora/catalog.js';
import { formatFromPath, resolvePassageFile } from '../../../corpora/load-passages.js';

/**
 * "stemmer=porter,stopwords=english,lowercase=true,minTokenLength=2" → Partial<AnalyzerConfig>
 * (checked against indexer/analyzer-config.ts); a bare preset name ("lucene") is `preset=lucene`.
 */
export function parseAnalyzerSpec(spec: string | undefined): Partial<AnalyzerConfig> {
  if (!spec) return {};
  const keys: readonly string[] = ANALYZER_KEYS;
  const raw: Record<string, unknown> = {};
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (part === 'lucene') {
      raw.preset = 'lucene';
      continue;
    }
    const [k, v] = part.split('=').map((s) => s.trim());
    const key = k === 'min-token-length' || k === 'minlen' ? 'minTokenLength' : k;
    if (!keys.includes(key) || v === undefined) {
      throw errors.invalidInput(
        '--analyzer',
        `"${part}"; expected a preset (lucene) or key=value pairs with keys ${keys.join(', ')} (e.g. stemmer=porter,stopwords=english)`,
      );
    }
    raw[key] = v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v;
  }
  const full = resolveAnalyzerConfig(raw, '--analyzer');
  return Object.fromEntries(Object.keys(raw).map((k) => [k, full[k as keyof AnalyzerConfig]])) as Partial<AnalyzerConfig>;
}

export interface CorpusFlags {
  format?: string;
  idField?: string;
  textField?: string;
  titleField?: string;
  docIdField?: string;
  sourceField?: string;
  keepFields?: string;
  delimiter?: string;
}

export function addCorpusOptions(cmd: Command): Command {
  return cmd
    .option('--format <format>', `input format for a path: ${PASSAGE_FORMATS.join('|')} (default: from the extension; .gz allowed for jsonl/csv/tsv)`)
    .option('--id-field <name>', 'column/field holding the passage id (default: first of id, idx, _id, docid, doc_id, pid, passage_id)')
    .option('--text-field <name>', 'column/field holding the passage text (default: first of text, contents, passage, body, content)')
    .option('--title-field <name>', 'column/field holding the title (default: title)')
    .option('--doc-id-field <name>', 'column/field holding the source document id (default: doc_id, docId, document_id)')
    .option('--source-field <name>', 'column/field holding the source label (default: source, else the file name)')
    .option(
      '--keep-fields <names>',
      'comma-separated fields kept as they are in the doc store (returned in LangChain metadata, matched by its filter; never searched)',
    )
    .option('--delimiter <char>', 'CSV delimiter override (default "," for .csv, tab for .tsv)');
}

export function corpusLoadOptions(flags: CorpusFlags): { format?: PassageFormat; fields: FieldMapping; delimiter?: string } {
  if (flags.format && !(PASSAGE_FORMATS as readonly string[]).includes(flags.format)) {
    throw errors.invalidInput('--format', `"${flags.format}"; expected one of ${PASSAGE_FORMATS.join(', ')}`);
  }
  const fields: FieldMapping = {};
  if (flags.idField) fields.id = flags.idField;
  if (flags.textField) fields.text = flags.textField;
  if (flags.titleField) fields.title = flags.titleField;
  if (flags.docIdField) fields.docId = flags.docIdField;
  if (flags.sourceField) fields.source = flags.sourceField;
  if (flags.keepFields !== undefined) {
    const keep = flags.keepFields
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (!keep.length) throw errors.invalidInput('--keep-fields', `"${flags.keepFields}"; expected comma-separated field names (e.g. court,year)`);
    fields.keep = keep;
  }
  const delimiter = flags.delimiter === '\\t' || flags.delimiter === 'tab' ? '\t' : flags.delimiter;
  // a longer one split no header ("id;text" stayed one column) and the loader said "missing passage id"
  if (delimiter !== undefined && [...delimiter].length !== 1)
    throw errors.invalidInput('--delimiter', `${JSON.stringify(flags.delimiter)}; expected one character (e.g. ";" or "|", or tab)`);
  return { format: flags.format as PassageFormat | undefined, fields, delimiter };
}

/** The corpus flags as typed, for messages, in the order --help lists them. */
const FLAG_NAMES: readonly [keyof CorpusFlags, string][] = [
  ['format', '--format'],
  ['idField', '--id-field'],
  ['textField', '--text-field'],
  ['titleField', '--title-field'],
  ['docIdField', '--doc-id-field'],
  ['sourceField', '--source-field'],
  ['keepFields', '--keep-fields'],
  ['delimiter', '--delimiter'],
];

/**
 * Refuse corpus flags that would be ignored: any of them with a bundled corpus (its files and fields
 * are fixed), --delimiter with a JSONL or Parquet file. Both were dropped without a word, so
 * `index build barexam --text-field body` built the usual index, exit 0.
 */
export async function assertCorpusFlagsApply(corpus: string, flags: CorpusFlags): Promise<void> {
  const given = FLAG_NAMES.filter(([key]) => flags[key] !== undefined).map(([, flag]) => flag);
  if (isBundledCorpus(corpus) && given.length)
    throw errors.usage(
      `${given.join(', ')} ${given.length > 1 ? 'apply' : 'applies'} to a passage file, not to the bundled corpus "${corpus}" (its fields are fixed)`,
      `drop ${given.length > 1 ? 'them' : 'it'}, or give the path of a passage file (JSONL, CSV, TSV or Parquet)`,
    );
  if (flags.delimiter === undefined) return;
  const file = await resolvePassageFile(corpus);
  const format = flags.format ?? (file ? formatFromPath(file) : undefined);
  if (format === 'jsonl' || format === 'parquet')
    throw errors.usage(`--delimiter applies to CSV and TSV files; ${file ?? corpus} is ${format === 'jsonl' ? 'JSONL' : 'Parquet'}`, 'drop --delimiter');
}
