/**
 * wink-bm25-text-search (in memory) with lexcase's analyzer as its prep task and the same BM25
 * parameters (k1 = 0.9, b = 0.4), so the comparison is engine against engine, not analyzer against
 * analyzer. wink scores every document that shares a term with the query and sorts them all.
 */
import { createRequire } from 'node:module';
import { createAnalyzer } from '../../indexer/analyzer.js';
import { readPassagesJsonl } from '../read-jsonl.js';
import type { Engine } from './types.js';

const require = createRequire(import.meta.url);

interface WinkEngine {
  defineConfig(cfg: unknown): void;
  definePrepTasks(tasks: Array<(s: string) => string[]>): void;
  addDoc(doc: Record<string, string>, id: string): void;
  consolidate(fp?: number): void;
  search(text: string, limit?: number): Array<[string, number]>;
}

export const winkEngine: Engine = {
  name: 'wink-bm25',
  persistent: false,
  async build(ctx) {
    const analyzer = createAnalyzer();
    const engine = (require('wink-bm25-text-search') as () => WinkEngine)();
    engine.defineConfig({ fldWeights: { text: 1 }, bm25Params: { k1: 0.9, b: 0.4, k: 1 } });
    engine.definePrepTasks([(s: string) => analyzer.tokens(s)]);
    for await (const p of readPassagesJsonl(ctx.corpusFile)) engine.addDoc({ text: p.text }, p.id);
    engine.consolidate(4);
    return {
      searcher: {
        search: async (q, k) => engine.search(q, k).map((r) => r[0]),
      },
    };
  },
};
