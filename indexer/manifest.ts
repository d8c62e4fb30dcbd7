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
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { errors } from '../core/errors.js';
import type { Manifest } from './manifest-schema.js';
import type { EmbedderProvider, EmbedderSpec } from './embed/types.js';
import { vectorSettings, type VectorSettings } from './embed/vector-spec.js';
import { MANIFEST_FORMAT, MANIFEST_VERSION } from './manifest-format.js';

export { MANIFEST_FORMAT, MANIFEST_VERSION };

export type { Manifest } from './manifest-schema.js';
export type { AnalyzerConfig } from './analyzer-config.js';
export { LUCENE_ANALYZER_PRESET } from './analyzer-config.js';

export async function readManifest(dir: string): Promise<Manifest> {
  let raw: string;
  try {
    raw = await readFile(join(dir, 'manifest.json'), 'utf8');
  } catch {
    throw errors.indexMissing(dir, statSync(dir, { throwIfNoEntry: false })?.isFile() ?? false);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (e) {
    throw errors.indexCorrupt(join(dir, 'manifest.json'), (e as Error).message);
  }
  const sealed = !!json && typeof json === 'object' && typeof (json as { seal?: unknown }).seal === 'string';
  if (sealed) {
    const { seal, ...body } = json as { seal: string };
    if (manifestSeal(body) !== seal) {
      throw errors.indexCorrupt(
        join(dir, 'manifest.json'),
        'its content does not match its seal (sha256): it was damaged or edited',
        'rebuild the index; if you edited the manifest on purpose, delete its "seal" field',
      );
    }
  }
  // A sealed manifest is the exact bytes a lexcase writer produced after checking them against the
  // schema (writeManifest): on open only its envelope is checked, and zod (~0.1 s of CPU to load)
  // is loaded only for an unsealed manifest (built before seals, or edited with the seal removed).
  if (sealed && trustedEnvelope(json)) return json as Manifest;
  const { manifestSchema } = await import('./manifest-schema.js');
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

/** The fields a reader relies on before anything else: this format, a version this lexcase reads. */
function trustedEnvelope(json: unknown): boolean {
  const m = json as { format?: unknown; version?: unknown; corpus?: unknown; analyzer?: unknown; methods?: unknown; checksums?: unknown };
  return (
    m.format === MANIFEST_FORMAT &&
    Number.isInteger(m.version) &&
    (m.version as number) <= MANIFEST_VERSION &&
    typeof m.corpus === 'object' &&
    !!m.corpus &&
    typeof m.analyzer === 'object' &&
    !!m.analyzer &&
    Array.isArray(m.methods) &&
    typeof m.checksums === 'object' &&
    !!m.checksums
  );
}

/**
 * What an agent run or a `reproduce` retrieval run records of the index it searched (config.json
 * `indexContent`): the corpus it holds (name, checksum over the passages, count), the analyzer its
 * terms were made with and, if it has dense vectors, their model and the settings they were made
 * with (`vectors`: word limit, prefixes, quantized, with the provider's defaults filled in — see
 * embed/vector-spec.ts — and their `source`, the embedding endpoint or a digest of a local model
 * folder's files, embed/vector-source.ts, where the index records it) and the checksum of the texts
 * (titles included) they were embedded from (`embeddedTextChecksum`, where recorded), and the checksum of
 * what its lancedb-fts table indexes, titles included (`lancedbFts.textChecksum`, where recorded). Not the path and not the build time: an index rebuilt from the same corpus
 * with the same settings is the same index; one rebuilt from another corpus or with another
 * analyzer, or re-embedded with other vector settings, is not — a resume or `lexcase merge` over it
 * is refused (eval/runner.ts, eval/reproduce/merge.ts).
 */
export function indexContent(m: Manifest): Record<string, unknown> {
  const d = m.dense;
  return {
    corpus: m.corpus.name,
    checksum: m.corpus.checksum,
    passages: m.corpus.passages,
    analyzer: m.analyzer,
    // the Unicode version its analyzer's character data came from (indexer/analyzer-unicode.ts), where the manifest records it
    ...(m.analyzerUnicode !== undefined ? { analyzerUnicode: m.analyzerUnicode } : {}),
    ...(d ? { dense: { embedder: d.embedder, model: d.model, dimension: d.dimension, vectors: denseVectors(d), ...embeddedText(d) } } : {}),
    // what the lancedb-fts table indexes (titles included), where recorded: a rebuild after a title-only change is another index
    ...(m.lancedbFts ? { lancedbFts: { textChecksum: m.lancedbFts.textChecksum } } : {}),
  };
}

/**
 * The checksum of what the dense vectors were made from (ids and title + text, dense/embedded-text.ts),
 * where the manifest records it: an index re-embedded after a title-only change keeps its corpus
 * checksum (texts only) but not this, so a resume over it is refused.
 */
function embeddedText(d: NonNullable<Manifest['dense']>): Record<string, unknown> {
  const c = (d as { embeddedTextChecksum?: unknown }).embeddedTextChecksum;
  return typeof c === 'string' ? { embeddedTextChecksum: c } : {};
}

/**
 * What a run records of an index's dense vectors: their settings and, where the manifest records
 * them, their source (embed/vector-source.ts; an older index has none) and the model names the
 * endpoint's replies gave (`servedModels`: an index rebuilt while the server had another model
 * loaded is other vectors under the same endpoint and model name).
 */
function denseVectors(d: NonNullable<Manifest['dense']>): Record<string, unknown> {
  const { source, servedModels, vectorsInArrivalOrder } = d as { source?: unknown; servedModels?: unknown; vectorsInArrivalOrder?: unknown };
  return {
    ...denseVectorSettings(d),
    ...(typeof source === 'string' ? { source } : {}),
    ...(Array.isArray(servedModels) && servedModels.length ? { servedModels } : {}),
    // vectors matched to passages by the order they came (replies without `index`): a figure over them says so in its record
    ...(typeof vectorsInArrivalOrder === 'number' && vectorsInArrivalOrder > 0 ? { vectorsInArrivalOrder } : {}),
  };
}

/** The settings an index's dense vectors were made with (its recorded spec; none recorded: the provider's defaults, as add-dense.ts reads it). */
export function denseVectorSettings(d: NonNullable<Manifest['dense']>): VectorSettings {
  return vectorSettings((d.spec ?? {}) as Partial<EmbedderSpec>, d.embedder as EmbedderProvider, d.model);
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
  const { manifestSchema } = await import('./manifest-schema.js');
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
