/**
 * Opens what CASE needs from an index dir: a Retriever per available method (bm25, qld, dense,
 * hybrid — whichever the manifest and retrieval/open.ts provide) and the doc store.
 */
import { openDocStore } from '../indexer/docstore.js';
import { readManifest } from '../indexer/manifest.js';
import { openRetriever } from './open.js';
import type { DocStore, Retriever } from './types.js';

export const CASE_METHODS = ['bm25', 'qld', 'dense', 'hybrid'] as const;

export interface OpenedIndex {
  dir: string;
  retrievers: Partial<Record<string, Retriever>>;
  docs: DocStore & { close?: () => Promise<void> };
  getPassage(id: string): Promise<{ id: string; text: string; title?: string } | undefined>;
}

export async function openCaseIndex(dir: string, wanted?: string[]): Promise<OpenedIndex> {
  const manifest = await readManifest(dir);
  const retrievers: Partial<Record<string, Retriever>> = {};
  const candidates = CASE_METHODS.filter((m) => !wanted || wanted.includes(m));
  for (const m of candidates) {
    const listed = manifest.methods.includes(m) || (m === 'hybrid' && manifest.methods.includes('dense'));
    if (!listed) continue;
    try {
      retrievers[m] = await openRetriever(dir, m);
    } catch {
      /* method listed but not openable by this build (e.g. hybrid before dense support): skip */
    }
  }
  const docs = await openDocStore(dir);
  return { dir, retrievers, docs, getPassage: async (id) => (await docs.get(id)) ?? undefined };
}
