/**
 * The index the explorer searches: its manifest, analyzer, doc store and one Retriever per
 * method, opened lazily through retrieval/open.ts and kept for the server's lifetime.
 */
import { resolve } from 'node:path';
import { createAnalyzer, type Analyzer } from '../../indexer/analyzer.js';
import { openDocStore, type OpenedDocStore } from '../../indexer/docstore.js';
import { readManifest, type Manifest } from '../../indexer/manifest.js';
import { closeSparseIndexes, openRetriever } from '../../retrieval/open.js';
import type { Retriever } from '../../retrieval/types.js';

/** Methods the explorer offers, in menu order. */
export const EXPLORER_METHODS = ['bm25', 'qld', 'dense', 'hybrid'] as const;

export interface IndexContext {
  dir: string;
  manifest: Manifest;
  analyzer: Analyzer;
  docs: OpenedDocStore;
  methods: string[];
  retriever(method: string): Promise<Retriever>;
  /** Every method's retriever that opens (for the offline advocate). */
  allRetrievers(): Promise<Partial<Record<string, Retriever>>>;
  close(): Promise<void>;
}

export async function openIndexContext(dir: string): Promise<IndexContext> {
  const abs = resolve(dir);
  const manifest = await readManifest(abs);
  const docs = await openDocStore(abs);
  const methods = EXPLORER_METHODS.filter((m) => manifest.methods.includes(m) || (m === 'hybrid' && manifest.methods.includes('dense')));
  const cache = new Map<string, Promise<Retriever>>();
  const retriever = (method: string): Promise<Retriever> => {
    let r = cache.get(method);
    if (!r) {
      r = openRetriever(abs, method);
      cache.set(method, r);
      r.catch(() => cache.delete(method));
    }
    return r;
  };
  return {
    dir: abs,
    manifest,
    analyzer: createAnalyzer(manifest.analyzer),
    docs,
    methods,
    retriever,
    async allRetrievers() {
      const out: Partial<Record<string, Retriever>> = {};
      for (const m of methods) {
        try {
          out[m] = await retriever(m);
        } catch {
          /* listed but not openable here (e.g. no embedder): the advocate uses the others */
        }
      }
      return out;
    },
    async close() {
      await docs.close();
      await closeSparseIndexes(abs);
    },
  };
}
