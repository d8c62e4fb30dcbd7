/**
 * `search(q, { withText: true })`: every Retriever fills `text` (and `title`) of its hits from a
 * doc store. Sparse retrievers use their index's own store; dense, hybrid and lancedb-fts open the
 * index dir's store lazily, once per dir (closed by closeTextStores / closeSparseIndexes).
 */
import { errors } from '../core/errors.js';
import { openDocStore, type OpenedDocStore } from '../indexer/docstore.js';
import { manifestKeyedCache } from './manifest-keyed-cache.js';
import type { DocStore, Hit } from './types.js';

/** What a retriever needs to fill in texts: passage by id. */
export type TextLookup = Pick<DocStore, 'get'>;
/** A lookup, or a function that opens one on first use. */
export type TextSource = TextLookup | (() => Promise<TextLookup>);

/** The hits with `text` (and `title` when the passage has one) set. */
export async function attachTexts(hits: Hit[], source: TextSource | undefined, method: string): Promise<Hit[]> {
  if (!hits.length) return hits;
  if (!source)
    throw errors.usage(
      `${method} retriever has no doc store to read passage texts from (withText)`,
      'open it from an index dir with openRetriever(dir, method), or pass a doc store as the `docs` option',
    );
  const docs = typeof source === 'function' ? await source() : source;
  return Promise.all(
    hits.map(async (h) => {
      const p = await docs.get(h.id);
      if (!p) throw errors.notFound(`passage text of ${method} hit`, h.id);
      return p.title ? { ...h, text: p.text, title: p.title } : { ...h, text: p.text };
    }),
  );
}

const stores = manifestKeyedCache(openDocStore, (s: OpenedDocStore) => s.close());

/** The doc store of index dir `dir`, opened once (reopened when its manifest changes). */
export function textStoreFor(dir: string): Promise<OpenedDocStore> {
  return stores.get(dir);
}

/** Close the doc stores opened by textStoreFor (all, or one dir's). */
export function closeTextStores(dir?: string): Promise<void> {
  return stores.close(dir);
}
