/**
 * LangChain Documents → lexcase passages, for `LexcaseRetriever.fromDocuments` / `fromTexts`.
 * `pageContent` is the passage text; the passage id is `Document.id`, else `metadata.id` when it is a
 * string, else `doc-<n>` (1-based position). Three metadata keys fill passage fields: `source`
 * (default: the corpus name), `doc_id` (the passage's document, for --aggregate and filters) and
 * `title`; every other key is kept as a JSON field in the doc store (Passage.meta), returned in
 * retriever metadata and matched by its filter. Nothing in metadata is indexed for search.
 */
import type { DocumentInterface } from '@langchain/core/documents';
import { errors } from '../core/errors.js';
import type { PassageInput } from '../indexer/passage-input.js';

/** Metadata keys that become passage fields rather than kept JSON fields. */
const FIELD_KEYS = new Set(['source', 'doc_id', 'title']);

function stringField(v: unknown, key: string, n: number): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw errors.invalidInput(`documents[${n}].metadata.${key}`, `expected a string, got ${Array.isArray(v) ? 'array' : typeof v}`);
  return v || undefined;
}

/** One Document as the passage buildIndex stores (position n, 0-based). */
export function documentToPassage(doc: DocumentInterface, n: number): PassageInput {
  if (!doc || typeof doc.pageContent !== 'string') throw errors.invalidInput(`documents[${n}]`, 'expected a LangChain Document with a string pageContent');
  const md = (doc.metadata ?? {}) as Record<string, unknown>;
  const id = typeof doc.id === 'string' && doc.id ? doc.id : typeof md.id === 'string' && md.id ? md.id : `doc-${n + 1}`;
  const p: PassageInput = { id, text: doc.pageContent };
  const source = stringField(md.source, 'source', n);
  const docId = stringField(md.doc_id, 'doc_id', n);
  const title = stringField(md.title, 'title', n);
  if (source) p.source = source;
  if (docId) p.docId = docId;
  if (title) p.title = title;
  const meta: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(md)) if (!FIELD_KEYS.has(k) && v !== undefined) meta[k] = v;
  if (Object.keys(meta).length) p.meta = meta;
  return p;
}

/** Lazily map Documents (any iterable) to passages, so a large stream is never held twice. */
export function* documentsToPassages(docs: Iterable<DocumentInterface>): Generator<PassageInput> {
  let n = 0;
  for (const d of docs) yield documentToPassage(d, n++);
}
