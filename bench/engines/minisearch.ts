/**
 * MiniSearch (in memory, BM25+ scoring) with lexcase's analyzer as tokenizer, so every engine sees
 * the same terms. MiniSearch returns every matching document, scored and sorted; we keep the top k.
 */
import MiniSearch from 'minisearch';
import { createAnalyzer } from '../../indexer/analyzer.js';
import { readPassagesJsonl } from '../read-jsonl.js';
import type { Engine } from './types.js';

export const miniSearchEngine: Engine = {
  name: 'minisearch',
  persistent: false,
  async build(ctx) {
    const analyzer = createAnalyzer();
    const ms = new MiniSearch<{ id: string; text: string }>({
      fields: ['text'],
      storeFields: [],
      tokenize: (text) => analyzer.tokens(text),
      processTerm: (t) => t,
    });
    for await (const p of readPassagesJsonl(ctx.corpusFile)) ms.add({ id: p.id, text: p.text });
    return {
      searcher: {
        search: async (q, k) =>
          ms
            .search(q)
            .slice(0, k)
            .map((r) => String(r.id)),
      },
    };
  },
};
