/**
 * The zod schema of manifest.json (manifest.ts reads and writes it): applied when a manifest is
 * written, and on open to manifests without a seal. Loaded on demand — zod costs ~0.1 s of CPU to
 * load, which a search should not pay for a sealed manifest.
 */
import { z } from 'zod';
import { ANALYZER_DEFAULTS, ANALYZER_PRESETS, STEMMERS, STOPWORD_LISTS, type AnalyzerConfig } from './analyzer-config.js';
import { MANIFEST_FORMAT } from './manifest-format.js';

export const analyzerConfigSchema = z.object({
  preset: z.enum(ANALYZER_PRESETS).optional(),
  lowercase: z.boolean().default(ANALYZER_DEFAULTS.lowercase),
  stopwords: z.enum(STOPWORD_LISTS).default(ANALYZER_DEFAULTS.stopwords),
  stemmer: z.enum(STEMMERS).default(ANALYZER_DEFAULTS.stemmer),
  minTokenLength: z.number().int().min(1).default(ANALYZER_DEFAULTS.minTokenLength),
});
// the schema and the plain AnalyzerConfig (analyzer-config.ts) describe the same object
const _sameAnalyzer: [z.infer<typeof analyzerConfigSchema>, AnalyzerConfig] extends [AnalyzerConfig, z.infer<typeof analyzerConfigSchema>] ? true : never =
  true;
void _sameAnalyzer;

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
    /** Passages with no text (empty or whitespace only), when any (corpus-notes.ts); absent in older dirs. */
    emptyPassages: z.number().int().optional(),
    /** Passages with text but no index term under the analyzer (only stopwords, punctuation or symbols), when any (corpus-notes.ts); absent in older dirs. */
    termlessPassages: z.number().int().optional(),
    /** Passages whose text or title holds U+FFFD (invalid UTF-8 read as replacement characters), when any; absent in older dirs. */
    replacementPassages: z.number().int().optional(),
    /** Passages with an invisible format character (soft hyphen, zero-width space, bidi control …) inside a word, when any (corpus-notes.ts); absent in older dirs. */
    formatCharPassages: z.number().int().optional(),
  }),
  analyzer: analyzerConfigSchema,
  /** The Unicode version of the Node whose character data the analyzer used at build (analyzer-unicode.ts); absent in older dirs. */
  analyzerUnicode: z.string().optional(),
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
      /** The doc store has a `docs/meta` column: JSON fields kept at build (Passage.meta). */
      meta: z.boolean().optional(),
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
  /** The lancedb-fts table's content (lancedb-fts-build.ts): sha256 over its ids and indexed text (title + text); absent in older dirs. */
  lancedbFts: z.looseObject({ textChecksum: z.string() }).optional(),
  /** CRC-32 of every 64 KiB block of every data file, checked as queries read them (block-checksums.ts); absent in older dirs. */
  blocks: z
    .looseObject({
      version: z.number().int(),
      algorithm: z.string(),
      blockBytes: z.number().int().min(1),
      file: z.string(),
      files: z.array(z.string()),
    })
    .optional(),
  /** sha256 of the manifest's own JSON without this field (see manifestSeal); absent in older dirs. */
  seal: z.string().optional(),
});
export type Manifest = z.infer<typeof manifestSchema>;
