/**
 * The LexcaseRetriever's metadata filter. An object matches a passage when every key matches its
 * field in the passage's metadata view ({ id, source, doc_id, title, …kept JSON fields }): a value
 * must equal the field (deep equality for objects), an array means "any of these values". A function
 * gets the metadata view and keeps the passage when it returns true.
 */
import { isDeepStrictEqual } from 'node:util';
import { errors } from '../core/errors.js';
import type { Passage } from '../corpora/types.js';

/** What a filter sees of a passage: its kept JSON fields, then its own fields (which win on a clash). */
export interface PassageMetadataView extends Record<string, unknown> {
  id: string;
  source: string;
  doc_id?: string;
  title?: string;
}

export type LexcaseMetadataFilter = Record<string, unknown> | ((metadata: PassageMetadataView) => boolean);

export function metadataView(p: Omit<Passage, 'text'>): PassageMetadataView {
  const v: PassageMetadataView = { ...(p.meta ?? {}), id: p.id, source: p.source };
  if (p.docId) v.doc_id = p.docId;
  else delete v.doc_id;
  if (p.title) v.title = p.title;
  else delete v.title;
  return v;
}

/** Check a filter once (at construction) and return its predicate. */
export function compileFilter(filter: LexcaseMetadataFilter): (view: PassageMetadataView) => boolean {
  if (typeof filter === 'function') return (v) => filter(v) === true;
  if (!filter || typeof filter !== 'object' || Array.isArray(filter))
    throw errors.invalidInput('filter', 'expected an object of metadata fields ({ source: "fre", doc_id: [...] }) or a function (metadata) => boolean');
  const entries = Object.entries(filter);
  return (v) =>
    entries.every(([k, want]) => {
      const got = Object.hasOwn(v, k) ? v[k] : undefined;
      return Array.isArray(want) ? want.some((w) => isDeepStrictEqual(got, w)) : isDeepStrictEqual(got, want);
    });
}

/**
 * The sources an object filter allows when `source` is its only key and holds strings: then the doc
 * store's in-memory source column answers it without reading any passage's fields.
 */
export function sourceOnly(filter: LexcaseMetadataFilter): string[] | undefined {
  if (typeof filter === 'function') return undefined;
  const keys = Object.keys(filter);
  if (keys.length !== 1 || keys[0] !== 'source') return undefined;
  const s = filter.source;
  const list = Array.isArray(s) ? s : [s];
  return list.every((x) => typeof x === 'string') ? (list as string[]) : undefined;
}
