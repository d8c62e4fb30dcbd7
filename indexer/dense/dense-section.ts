/**
 * The manifest's `dense` section (written by add-dense.ts, read by retrieval/dense.ts):
 *
 *   embedder   provider ("use-lite" | "transformers" | "openai")
 *   model      model id as the provider names it; embedderId = "provider:model"
 *   dimension  vector length; the query embedder must match it
 *   uri        LanceDB URI: relative to the index dir (default "dense"), an absolute path, or
 *              object storage (s3://bucket/prefix, gs://…, az://…)
 *   table      LanceDB table name, columns id (utf8), vector (fixed list f32): "passages" inside the
 *              index dir; outside it (another path, object storage) "passages-<owner>", so two
 *              indexes given the same --dense-uri never share a table
 *   owner      this index's id for its table: <corpus checksum, 12 hex>-<8 random hex>, also written
 *              in the table's schema metadata (lexcase.owner); absent in manifests from before it
 *   ids        {first, last, sha256} of the table's passage ids (sorted by UTF-16 code units,
 *              sha256 of them joined by "\n"); absent in manifests from before it
 *   metric     "cosine" (vectors are unit length)
 *   rows       vectors in the table (= corpus passages)
 *   ann        null (flat, exact search) or the IVF-PQ parameters, incl. query-time nprobes/refineFactor
 *   spec       the embedder options needed to rebuild the same query embedder (never an API key)
 *   source     where the vectors came from beyond the model id: the embedding endpoint (redacted) or
 *              a digest of a local model folder's files (embed/vector-source.ts); absent before it
 *   embeddedTextChecksum
 *              sha256 of what the model read: each passage's id and title + text (embedded-text.ts);
 *              the corpus checksum covers no titles. Part of a run's indexContent; absent in manifests
 *              from before it (and where older prebuilt vectors recorded none)
 *   modelMaxTokens, passagesOverModelMaxTokens
 *              the most tokens the model reads of a passage (use-lite: 128; embed/model-token-limit.ts)
 *              and how many passages are longer (embedded from their first modelMaxTokens tokens);
 *              absent for other providers and in manifests from before it. Informational: not part of
 *              the vector settings (embed/vector-spec.ts) nor of a run's indexContent
 *   files      every file of the table at the end of its build (its path inside <table>.lance/, size,
 *              sha256: table-files.ts), checked by `index verify`; absent for object storage and in
 *              manifests from before it
 *   passagesOverMaxWords
 *              how many passages the spec's word limit (maxWords, use-lite's 256 when unset) cut, the
 *              model then reading their first maxWords words whole (one it also cuts at its tokens is
 *              in passagesOverModelMaxTokens); absent where no limit applies, for vectors whose record
 *              gave the count of the passages over the model's tokens (prebuilt), and in manifests from
 *              before it. Informational, as passagesOverModelMaxTokens; `index info` shows it
 */
import { createHash, randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Manifest } from '../manifest.js';
import type { EmbedderSpec } from '../embed/types.js';
import type { AnnParams } from './ann-params.js';

export const DEFAULT_DENSE_URI = 'dense';
export const DEFAULT_DENSE_TABLE = 'passages';

export interface DenseSection {
  embedder: EmbedderSpec['provider'];
  embedderId: string;
  model: string;
  dimension: number;
  uri: string;
  table: string;
  /** Who owns the table (also in its schema metadata); absent in older manifests. */
  owner?: string;
  /** Digest of the table's ids; absent in older manifests. */
  ids?: DenseIdsDigest;
  metric: 'cosine';
  rows: number;
  ann: (AnnParams & { threshold: number }) | null;
  annThreshold: number;
  spec: Partial<EmbedderSpec>;
  /** Where the vectors came from beyond the model id (embed/vector-source.ts); absent in older manifests and where the model id says it all. */
  source?: string;
  /**
   * openai: the model names the endpoint's replies gave while this build embedded the passages (and
   * probed the dimension), where they named one (Embedder.servedModels); absent in older manifests.
   * A search whose replies name another model says its queries came from another source.
   */
  servedModels?: string[];
  /**
   * openai: passages whose vectors came in replies without `index` fields, matched to them in the
   * order the vectors came (Embedder.arrivalOrderVectors, with a resumed build's earlier count);
   * absent where none did and in older manifests.
   */
  vectorsInArrivalOrder?: number;
  /** sha256 of the passages' ids and embed texts (title + text) the vectors were made from (embedded-text.ts); absent in older manifests. */
  embeddedTextChecksum?: string;
  /** The most tokens the model reads of a passage (use-lite: 128); absent for other providers and in older manifests. */
  modelMaxTokens?: number;
  /** Passages longer than modelMaxTokens (after the word limit): embedded from their first modelMaxTokens tokens. */
  passagesOverModelMaxTokens?: number;
  /** Passages the word limit (maxWords) cut and the model read whole from their first maxWords words; absent where not counted. */
  passagesOverMaxWords?: number;
  /** How long embedding the table took (the build, not a rerun that found every passage embedded: that keeps this). */
  buildMs?: number;
  /** Passages an earlier, interrupted attempt had embedded when the build that `buildMs` times resumed (its time is not in `buildMs`). */
  buildResumedAt?: number;
  /**
   * Every file of the table at the end of its build, by its path inside `<uri>/<table>.lance/`: size and sha256
   * (table-files.ts), which `index verify` checks; absent for a table in object storage and in older manifests.
   */
  files?: Record<string, DenseTableFile>;
}

/** A recorded file of the dense table (`files`, table-files.ts): its size and the sha256 of its bytes. */
export interface DenseTableFile {
  size: number;
  sha256: string;
}

export interface DenseIdsDigest {
  first: string;
  last: string;
  sha256: string;
}

/** Digest of a table's ids: first and last in code-unit order and the sha256 of all of them sorted, joined by "\n". */
export function denseIdsDigest(ids: Iterable<string>): DenseIdsDigest {
  const sorted = [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const h = createHash('sha256');
  sorted.forEach((id, i) => h.update(i ? `\n${id}` : id));
  return { first: sorted[0] ?? '', last: sorted[sorted.length - 1] ?? '', sha256: h.digest('hex') };
}

/** A new owner id for an index's dense table: 12 hex of the corpus checksum, then 8 random hex. */
export function newDenseOwner(corpusChecksum: string): string {
  const c =
    corpusChecksum
      .replace(/[^0-9a-f]/gi, '')
      .slice(0, 12)
      .toLowerCase() || 'corpus';
  return `${c}-${randomBytes(4).toString('hex')}`;
}

/** Is this URI object storage or another remote scheme (not a local path)? */
export function isRemoteUri(uri: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(uri) && !uri.startsWith('file://');
}

/**
 * Resolve a manifest/CLI URI against the index dir (relative paths stay inside the dir). A local
 * path comes back absolute: LanceDB reads a relative path that starts with "db" (an index dir named
 * `dbx`) as a LanceDB Cloud URI and asks for an API key (lanceUri).
 */
export function resolveDenseUri(dir: string, uri: string): string {
  if (isRemoteUri(uri)) return uri;
  return lanceUri(uri.startsWith('file://') ? uri : resolve(dir, uri));
}

/**
 * What to hand lancedb.connect for a URI or local path: object storage (s3://, gs://, az://, db://)
 * as it is; a file:// URL or a local path as an absolute path. LanceDB takes any relative path
 * starting with "db" for a LanceDB Cloud database ("dbx/dense": "An api_key or oauth_config is
 * required when connecting to LanceDb Cloud"), so a relative path is never passed on.
 */
export function lanceUri(uri: string): string {
  if (isRemoteUri(uri)) return uri;
  return resolve(uri.startsWith('file://') ? fileURLToPath(uri) : uri);
}

export function denseSectionOf(manifest: Manifest): DenseSection | undefined {
  return manifest.dense as DenseSection | undefined;
}
