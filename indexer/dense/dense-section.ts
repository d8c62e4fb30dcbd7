/**
 * The manifest's `dense` section (written by add-dense.ts, read by retrieval/dense.ts):
 *
 *   embedder   provider ("use-lite" | "transformers" | "openai")
 *   model      model id as the provider names it; embedderId = "provider:model"
 *   dimension  vector length; the query embedder must match it
 *   uri        LanceDB URI: relative to the index dir (default "dense"), an absolute path, or
 *              object storage (s3://bucket/prefix, gs://…, az://…)
 *   table      LanceDB table name (default "passages"), columns id (utf8), vector (fixed list f32)
 *   metric     "cosine" (vectors are unit length)
 *   rows       vectors in the table (= corpus passages)
 *   ann        null (flat, exact search) or the IVF-PQ parameters, incl. query-time nprobes/refineFactor
 *   spec       the embedder options needed to rebuild the same query embedder (never an API key)
 */
import { isAbsolute, join } from 'node:path';
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
  metric: 'cosine';
  rows: number;
  ann: (AnnParams & { threshold: number }) | null;
  annThreshold: number;
  spec: Partial<EmbedderSpec>;
  buildMs?: number;
}

/** Is this URI object storage or another remote scheme (not a local path)? */
export function isRemoteUri(uri: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(uri) && !uri.startsWith('file://');
}

/** Resolve a manifest/CLI URI against the index dir (relative paths stay inside the dir). */
export function resolveDenseUri(dir: string, uri: string): string {
  if (isRemoteUri(uri)) return uri;
  if (uri.startsWith('file://')) return new URL(uri).pathname;
  return isAbsolute(uri) ? uri : join(dir, uri);
}

export function denseSectionOf(manifest: Manifest): DenseSection | undefined {
  return manifest.dense as DenseSection | undefined;
}
