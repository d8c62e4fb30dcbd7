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
import { z } from 'zod';

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

export const sparseSectionSchema = z.looseObject({
  format: z.literal(SPARSE_FORMAT),
  version: z.number().int(),
  encoding: z.string(),
  documents: z.number().int().min(0),
  terms: z.number().int().min(0),
  postings: z.number().int().min(0),
  totalTokens: z.number().min(0),
  avgDocLength: z.number().min(0),
  maxDocLength: z.number().int().min(0),
  segments: z.number().int().min(0),
  bytes: z.number().int().min(0),
});
export type SparseSection = z.infer<typeof sparseSectionSchema>;

export const POSTINGS_ENCODING = 'gap-varint-tf-folded';
