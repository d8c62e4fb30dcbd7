/**
 * manifest.json — the only file readers trust first in an index dir. Layout of an index dir:
 *
 *   <dir>/manifest.json     this file (format, version, analyzer, corpus, methods, checksums)
 *   <dir>/docs/...          doc store: passage id → text/title/source (owned by indexer/docstore)
 *   <dir>/sparse/...        inverted index shared by bm25 and qld (owned by indexer/sparse)
 *   <dir>/dense/...         LanceDB table (id, vector) when "dense" is built (owned by indexer/dense)
 *
 * Sections are owned by the module that writes them; this file only fixes the envelope.
 */
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { z } from 'zod';
import { errors } from '../core/errors.js';

export const MANIFEST_FORMAT = 'lexcase-index';
/** 2: doc store texts may be block-compressed (see `docstore`); version-1 dirs are still read. */
export const MANIFEST_VERSION = 2;

/**
 * The analyzer of an index. `preset` absent: lexcase's own analyzer with these settings. `preset:
 * "lucene"`: Lucene's StandardTokenizer → EnglishPossessiveFilter → LowerCaseFilter → StopFilter
 * (33 words) → PorterStemFilter, Anserini's chain (indexer/lucene-analyzer.ts); a fixed chain, whose
 * settings below are recorded as LUCENE_ANALYZER_PRESET. Stopwords "lucene" is that 33-word list
 * (usable with lexcase's tokenizer too); "english" the `stopword` package's 108 words.
 */
export const analyzerConfigSchema = z.object({
  preset: z.enum(['lucene']).optional(),
  lowercase: z.boolean().default(true),
  stopwords: z.enum(['english', 'lucene', 'none']).default('english'),
  stemmer: z.enum(['porter', 'snowball', 'none']).default('porter'),
  minTokenLength: z.number().int().min(1).default(1),
});
export type AnalyzerConfig = z.infer<typeof analyzerConfigSchema>;

/** The settings the lucene preset records (what its chain does, field by field). */
export const LUCENE_ANALYZER_PRESET: AnalyzerConfig = { preset: 'lucene', lowercase: true, stopwords: 'lucene', stemmer: 'porter', minTokenLength: 1 };

export const manifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  version: z.number().int(),
  lexcaseVersion: z.string(),
  createdAt: z.string(),
  corpus: z.object({
    name: z.string(),
    /** sha256 over the passages in build order (id + text), so runs can record what was indexed. */
    checksum: z.string(),
    passages: z.number().int(),
    sources: z.record(z.string(), z.number()).optional(),
  }),
  analyzer: analyzerConfigSchema,
  methods: z.array(z.string()),
  /** sha256 of each data file, relative path → hex. */
  checksums: z.record(z.string(), z.string()),
  /** Size in bytes of each data file, relative path → bytes (checked on every open; absent before 0.1 builds of this field). */
  sizes: z.record(z.string(), z.number().int().min(0)).optional(),
  sparse: z.looseObject({}).optional(),
  /** Doc store layout (indexer/docstore*.ts); absent = version 1, plain texts. */
  docstore: z
    .looseObject({
      version: z.number().int(),
      text: z.string(),
      blockPassages: z.number().int().optional(),
    })
    .optional(),
  dense: z
    .looseObject({
      embedder: z.string(),
      model: z.string(),
      dimension: z.number().int(),
      uri: z.string(),
      table: z.string(),
    })
    .optional(),
  /** sha256 of the manifest's own JSON without this field (see manifestSeal); absent in older dirs. */
  seal: z.string().optional(),
});
export type Manifest = z.infer<typeof manifestSchema>;

export async function readManifest(dir: string): Promise<Manifest> {
  let raw: string;
  try {
    raw = await readFile(join(dir, 'manifest.json'), 'utf8');
  } catch {
    throw errors.indexMissing(dir);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (e) {
    throw errors.indexCorrupt(join(dir, 'manifest.json'), (e as Error).message);
  }
  if (json && typeof json === 'object' && typeof (json as { seal?: unknown }).seal === 'string') {
    const { seal, ...body } = json as { seal: string };
    if (manifestSeal(body) !== seal) {
      throw errors.indexCorrupt(join(dir, 'manifest.json'), 'its content does not match its seal (sha256): it was damaged or edited', 'rebuild the index; if you edited the manifest on purpose, delete its "seal" field');
    }
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw errors.indexIncompatible(dir, `manifest field "${issue.path.join('.')}": ${issue.message}`);
  }
  if (parsed.data.version > MANIFEST_VERSION) {
    throw errors.indexIncompatible(dir, `format version ${parsed.data.version} is newer than this lexcase supports (${MANIFEST_VERSION})`);
  }
  return parsed.data;
}

/** sha256 (hex) of a manifest body (everything but `seal`) as compact JSON, in its key order. */
export function manifestSeal(body: object): string {
  return createHash('sha256').update(JSON.stringify(body)).digest('hex');
}

/**
 * Write manifest.json atomically (temp file + rename), so a reader never sees half a manifest; it
 * carries a `seal` (sha256 of the rest), so a damaged or edited manifest is INDEX_CORRUPT on read.
 * The manifest is checked against the schema `readManifest` applies first: a writer must never
 * leave an index that its own reader calls incompatible (a missing field would otherwise vanish
 * in JSON.stringify and only surface at the next open).
 */
export async function writeManifest(dir: string, manifest: Manifest): Promise<void> {
  const checked = manifestSchema.safeParse(manifest);
  if (!checked.success) {
    const issue = checked.error.issues[0];
    throw errors.invalidInput(`manifest.${issue.path.join('.')}`, `refusing to write ${join(dir, 'manifest.json')}: ${issue.message}`);
  }
  const { writeFile, rename } = await import('node:fs/promises');
  const tmp = join(dir, `manifest.json.tmp-${process.pid}`);
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { seal: _old, ...body } = manifest;
  await writeFile(tmp, JSON.stringify({ ...body, seal: manifestSeal(body) }, null, 2) + '\n');
  await rename(tmp, join(dir, 'manifest.json'));
}
