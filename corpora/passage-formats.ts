/** The passage file formats lexcase reads (corpora/load-passages.ts); a module of its own so the CLI help loads no parser. */
export const PASSAGE_FORMATS = ['jsonl', 'csv', 'tsv', 'parquet'] as const;
export type PassageFormat = (typeof PASSAGE_FORMATS)[number];
