/**
 * Reference engine for small corpora: wink-bm25-text-search over the same passages, with our
 * analyzer as its only prep task and the same k1/b, held in memory. Formula differences (none in the
 * score itself): wink's idf is ln((N − df + 0.5)/(df + 0.5) + k) with k = 1 — the same as Lucene's
 * ln(1 + …) — and wink rounds each term weight to `precision` decimals (9 here; wink's default is 4).
 * wink needs at least 3 documents.
 */
import { createRequire } from 'node:module';
import { errors } from '../core/errors.js';
import type { Passage } from '../corpora/types.js';
import type { AnalyzerConfig } from '../indexer/manifest.js';
import { createAnalyzer } from '../indexer/analyzer.js';
import { openDocStore } from '../indexer/docstore.js';
import { readManifest } from '../indexer/manifest.js';
import type { Hit, Retriever, SearchOptions } from './types.js';
import { BM25_DEFAULTS } from './bm25.js';
import { numberOption } from './sparse/hits.js';
import { attachTexts, textStoreFor, type TextSource } from './hit-text.js';
import { resolveSearch } from './search-options.js';

interface WinkEngine {
  defineConfig(cfg: { fldWeights: Record<string, number>; bm25Params?: { k1?: number; b?: number; k?: number } }): boolean;
  definePrepTasks(tasks: Array<(input: string) => string[]>): number;
  addDoc(doc: Record<string, string>, id: string | number): number;
  consolidate(fp?: number): boolean;
  search(text: string, limit?: number): Array<[string, number]>;
}

const require = createRequire(import.meta.url);

export interface WinkOptions {
  analyzer?: Partial<AnalyzerConfig>;
  k1?: number;
  b?: number;
  /** Decimals wink keeps per term weight (4..9; default 9). */
  precision?: number;
  /** Where `withText` reads passage texts; without it the passages' texts are kept in memory. */
  docs?: TextSource;
}

/** Build a wink-bm25-text-search Retriever over `passages` (in memory). */
export async function createWinkRetriever(passages: Iterable<Passage> | AsyncIterable<Passage>, opts: WinkOptions = {}): Promise<Retriever> {
  const analyzer = createAnalyzer(opts.analyzer);
  const k1 = opts.k1 ?? BM25_DEFAULTS.k1;
  const b = opts.b ?? BM25_DEFAULTS.b;
  const engine = (require('wink-bm25-text-search') as () => WinkEngine)();
  engine.defineConfig({ fldWeights: { text: 1 }, bm25Params: { k1, b, k: 1 } });
  engine.definePrepTasks([(text: string) => analyzer.tokens(text)]);
  const ids: string[] = [];
  const kept = new Map<string, { id: string; text: string; title?: string }>();
  for await (const p of passages) {
    // Doc index as wink's id: its result table then lists ties in index order, like ours.
    engine.addDoc({ text: p.text }, ids.length);
    ids.push(p.id);
    if (!opts.docs) kept.set(p.id, p.title ? { id: p.id, text: p.text, title: p.title } : { id: p.id, text: p.text });
  }
  const docs: TextSource = opts.docs ?? { get: async (id: string) => kept.get(id) };
  if (ids.length < 3) throw errors.invalidInput('corpus', `wink-bm25-text-search needs at least 3 passages, got ${ids.length}`);
  engine.consolidate(opts.precision ?? 9);
  return {
    method: 'wink',
    async search(query: string, o?: SearchOptions): Promise<Hit[]> {
      const s = resolveSearch(o, 'wink');
      const k = Math.min(s.k, ids.length);
      if (k <= 0) return [];
      const hits = engine.search(query, k).map(([doc, score], i) => ({ id: ids[Number(doc)], score, rank: i + 1 }));
      return s.withText ? attachTexts(hits, docs, 'wink') : hits;
    },
  };
}

/** wink over the passages of an index dir, with the index's analyzer. */
export async function createWinkRetrieverFromIndex(dir: string, opts: Record<string, unknown> = {}): Promise<Retriever> {
  const manifest = await readManifest(dir);
  const docs = await openDocStore(dir);
  try {
    return await createWinkRetriever(docs.entries(), {
      analyzer: manifest.analyzer,
      k1: numberOption(opts, 'k1', BM25_DEFAULTS.k1, 0),
      b: numberOption(opts, 'b', BM25_DEFAULTS.b, 0, 1),
      docs: () => textStoreFor(dir),
    });
  } finally {
    await docs.close();
  }
}
