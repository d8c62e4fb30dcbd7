/**
 * `search(q, { withText: true })`: every Retriever fills `text` (and `title`) of its hits from a
 * doc store. Sparse retrievers use their index's own store; dense, hybrid and lancedb-fts open the
 * index dir's store lazily, once per dir (closed by closeTextStores / closeSparseIndexes).
 */
import { stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { errors } from '../core/errors.js';
import { openDocStore, type OpenedDocStore } from '../indexer/docstore.js';
import type { DocStore, Hit } from './types.js';

/** What a retriever needs to fill in texts: passage by id. */
export type TextLookup = Pick<DocStore, 'get'>;
/** A lookup, or a function that opens one on first use. */
export type TextSource = TextLookup | (() => Promise<TextLookup>);

/** The hits with `text` (and `title` when the passage has one) set. */
export async function attachTexts(hits: Hit[], source: TextSource | undefined, method: string): Promise<Hit[]> {
  if (!hits.length) return hits;
  if (!source) throw errors.usage(`${method} retriever has no doc store to read passage texts from (withText)`, 'open it from an index dir with openRetriever(dir, method), or pass a doc store as the `docs` option');
  const docs = typeof source === 'function' ? await source() : source;
  return Promise.all(
    hits.map(async (h) => {
      const p = await docs.get(h.id);
      if (!p) throw errors.notFound(`passage text of ${method} hit`, h.id);
      return p.title ? { ...h, text: p.text, title: p.title } : { ...h, text: p.text };
    }),
  );
}

const stores = new Map<string, { key: string; store: Promise<OpenedDocStore> }>();

/** The doc store of index dir `dir`, opened once (reopened when its manifest changes). */
export async function textStoreFor(dir: string): Promise<OpenedDocStore> {
  const abs = resolve(dir);
  let key: string;
  try {
    const s = await stat(join(abs, 'manifest.json'));
    key = `${s.mtimeMs}:${s.ino}:${s.size}`;
  } catch {
    throw errors.indexMissing(dir);
  }
  const hit = stores.get(abs);
  if (hit && hit.key === key) return hit.store;
  if (hit) void hit.store.then((s) => s.close()).catch(() => undefined);
  const store = openDocStore(abs);
  stores.set(abs, { key, store });
  store.catch(() => stores.delete(abs));
  return store;
}

/** Close the doc stores opened by textStoreFor (all, or one dir's). */
export async function closeTextStores(dir?: string): Promise<void> {
  for (const [k, v] of [...stores]) {
    if (dir && k !== resolve(dir)) continue;
    stores.delete(k);
    await v.store.then((s) => s.close()).catch(() => undefined);
  }
}
