/**
 * lexcase's own sparse engine: one streaming build (bm25 + qld on the same index), then a fresh
 * process opens the index and queries with one method. Both cores are used for the build.
 */
import { join } from 'node:path';
import type { Passage } from '../../corpora/types.js';
import type { Retriever } from '../../retrieval/types.js';
import { readPassagesJsonl } from '../read-jsonl.js';
import type { Engine, EngineContext } from './types.js';

interface BuildApi {
  buildIndex(
    passages: AsyncIterable<Passage>,
    opts: { out: string; corpusName: string; methods: string[]; workers?: number; analyzer?: Record<string, unknown> },
  ): Promise<unknown>;
}
interface OpenApi {
  openRetriever(dir: string, method: 'bm25' | 'qld'): Promise<Retriever>;
}
interface BlocksApi {
  blockCheckStats(): { blocks: number; bytes: number; ms: number };
}

const indexDir = (ctx: EngineContext) => join(ctx.workDir, 'index');
// Loaded at run time so the harness compiles while the engine is being written.
const BUILD_MODULE = '../../indexer/build.js';
const OPEN_MODULE = '../../retrieval/open.js';
const BLOCKS_MODULE = '../../indexer/block-checksums.js';

export function lexcaseEngine(workers = 2): Engine {
  return {
    name: 'lexcase',
    persistent: true,
    async build(ctx) {
      const { buildIndex } = (await import(BUILD_MODULE)) as BuildApi;
      await buildIndex(readPassagesJsonl(ctx.corpusFile), {
        out: indexDir(ctx),
        corpusName: 'synthetic',
        methods: ['bm25', 'qld'],
        workers,
        // The worst-case corpus keeps every token: nothing for a stopword list or stemmer to do.
        ...(ctx.corpus === 'zipf' ? { analyzer: { stopwords: 'none', stemmer: 'none' } } : {}),
      });
      return { indexDir: indexDir(ctx) };
    },
    async open(ctx) {
      const { openRetriever } = (await import(OPEN_MODULE)) as OpenApi;
      const method = (ctx.method ?? 'bm25') as 'bm25' | 'qld';
      const r = await openRetriever(indexDir(ctx), method);
      const { blockCheckStats } = (await import(BLOCKS_MODULE)) as BlocksApi;
      return {
        blockChecks: blockCheckStats,
        async search(q, k, approx) {
          return (await r.search(q, { k, ...(approx ? { approx } : {}) })).map((h) => h.id);
        },
        close: () => (r as { close?: () => unknown }).close?.() as void,
      };
    },
  };
}
