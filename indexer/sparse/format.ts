/**
 * The sparse index on disk (all numbers little-endian; see docs/index-format.md):
 *
 *   sparse/terms.txt     sorted index terms joined by "\n" (JS string order = UTF-16 code units)
 *   sparse/df.u32        Uint32[V]  document frequency per term
 *   sparse/cf.f64        Float64[V] collection frequency per term
 *   sparse/offsets.f64   Float64[V+1] byte offset of each term's postings in postings.bin
 *   sparse/postings.bin  per term, df postings: varint(gap·2+1) when tf = 1, else varint(gap·2) varint(tf)
 *   sparse/doclen.u32    Uint32[N]  document length in index terms
 *   sparse/bylen.u32     Uint32[N]  doc indices ordered by (length, index): unmatched docs in textbook QLD
 */
export const SPARSE_FORMAT = 'lexcase-sparse';
export const SPARSE_VERSION = 1;

export const SPARSE_FILES = {
  terms: 'sparse/terms.txt',
  df: 'sparse/df.u32',
  cf: 'sparse/cf.f64',
  offsets: 'sparse/offsets.f64',
  postings: 'sparse/postings.bin',
  doclen: 'sparse/doclen.u32',
  bylen: 'sparse/bylen.u32',
} as const;

/** The manifest's `sparse` section (unknown extra keys are kept). */
export interface SparseSection {
  format: typeof SPARSE_FORMAT;
  version: number;
  encoding: string;
  documents: number;
  terms: number;
  postings: number;
  totalTokens: number;
  avgDocLength: number;
  maxDocLength: number;
  segments: number;
  bytes: number;
  [extra: string]: unknown;
}

const COUNTS = ['documents', 'terms', 'postings', 'maxDocLength', 'segments', 'bytes'] as const;

/**
 * The problem with a manifest's `sparse` section, or null when it is well formed: the format name,
 * an integer version, an encoding, non-negative integer counts and non-negative totals. A structural
 * check on every open (plain code: the sparse index opens on every search).
 */
export function sparseSectionProblem(v: unknown): { field: string; message: string } | null {
  const p = (field: string, message: string) => ({ field: field ? `sparse.${field}` : 'sparse', message });
  if (!v || typeof v !== 'object' || Array.isArray(v)) return p('', 'expected an object');
  const o = v as Record<string, unknown>;
  if (o.format !== SPARSE_FORMAT) return p('format', `expected "${SPARSE_FORMAT}", got ${JSON.stringify(o.format)}`);
  if (!Number.isInteger(o.version)) return p('version', `expected an integer, got ${JSON.stringify(o.version)}`);
  if (typeof o.encoding !== 'string') return p('encoding', `expected a string, got ${JSON.stringify(o.encoding)}`);
  for (const k of COUNTS) if (!Number.isInteger(o[k]) || (o[k] as number) < 0) return p(k, `expected an integer ≥ 0, got ${JSON.stringify(o[k])}`);
  for (const k of ['totalTokens', 'avgDocLength'] as const)
    if (typeof o[k] !== 'number' || !Number.isFinite(o[k]) || (o[k] as number) < 0) return p(k, `expected a number ≥ 0, got ${JSON.stringify(o[k])}`);
  return null;
}

export const POSTINGS_ENCODING = 'gap-varint-tf-folded';
