/**
 * LexcaseRetriever: a LangChain.js `BaseRetriever` over any lexcase method (bm25, qld, dense,
 * hybrid, wink, lancedb-fts), so lexcase plugs into LangChain chains:
 *
 *   const retriever = new LexcaseRetriever({ index: 'my-index', method: 'bm25', k: 5 });
 *   const docs = await retriever.invoke('adverse possession');   // Document[]
 *
 * Each Document has `pageContent` = the passage text and `metadata` = { id, score, rank, method }
 * (plus `title` when the passage has one). `index` is an index dir (opened on first use with
 * openRetriever and `options`, e.g. { k1, b } or { methods: 'bm25,dense', fusion: 'rrf' }) or a
 * ready lexcase Retriever.
 */
import { BaseRetriever, type BaseRetrieverInput } from '@langchain/core/retrievers';
import { Document } from '@langchain/core/documents';
import type { CallbackManagerForRetrieverRun } from '@langchain/core/callbacks/manager';
import { errors } from '../core/errors.js';
import { openRetriever } from './open.js';
import type { MethodName, Retriever } from './types.js';
import { searchK } from './search-options.js';

export interface LexcaseRetrieverInput extends BaseRetrieverInput {
  /** An index dir, or an opened lexcase Retriever. */
  index: string | Retriever;
  /** Method to open the index dir with (default 'bm25'); must match the Retriever's when one is given. */
  method?: MethodName;
  /** Documents per query (default SEARCH_K, retrieval/default-k.ts). */
  k?: number;
  /** Method options for openRetriever (k1, b, mu, variant, methods, fusion, weights, embedder, …). */
  options?: Record<string, unknown>;
}

export interface LexcaseDocumentMetadata extends Record<string, unknown> {
  id: string;
  score: number;
  rank: number;
  method: string;
  title?: string;
}

export class LexcaseRetriever extends BaseRetriever<LexcaseDocumentMetadata> {
  static override lc_name(): string {
    return 'LexcaseRetriever';
  }
  lc_namespace = ['lexcase', 'retrievers'];

  readonly method: string;
  readonly k: number;
  private readonly index: string | Retriever;
  private readonly options: Record<string, unknown>;
  private opened?: Promise<Retriever>;

  constructor(fields: LexcaseRetrieverInput) {
    super(fields);
    if (!fields || (typeof fields.index !== 'string' && typeof fields.index?.search !== 'function'))
      throw errors.invalidInput('index', 'LexcaseRetriever needs `index`: an index directory or a lexcase Retriever');
    if (typeof fields.index === 'string' && !fields.index) throw errors.invalidInput('index', 'index directory must be a non-empty path');
    const k = searchK(fields.k, 1);
    const own = typeof fields.index === 'string' ? undefined : String(fields.index.method);
    if (own !== undefined && fields.method !== undefined && fields.method !== own)
      throw errors.invalidInput('method', `the Retriever given as index is "${own}", not "${fields.method}"`);
    this.index = fields.index;
    this.method = own ?? fields.method ?? 'bm25';
    this.k = k;
    this.options = fields.options ?? {};
  }

  /** The lexcase Retriever behind this adapter (opened on first use). */
  retriever(): Promise<Retriever> {
    if (typeof this.index !== 'string') return Promise.resolve(this.index);
    if (!this.opened) {
      this.opened = openRetriever(this.index, this.method, this.options);
      this.opened.catch(() => (this.opened = undefined));
    }
    return this.opened;
  }

  override async _getRelevantDocuments(query: string, _runManager?: CallbackManagerForRetrieverRun): Promise<Document<LexcaseDocumentMetadata>[]> {
    const r = await this.retriever();
    const hits = await r.search(query, { k: this.k, withText: true });
    return hits.map((h) => {
      if (h.text === undefined) throw errors.usage(`the ${this.method} retriever returned passage ${h.id} without its text`, 'implement `withText` in the Retriever passed as `index`');
      const metadata: LexcaseDocumentMetadata = { id: h.id, score: h.score, rank: h.rank, method: this.method };
      if (h.title) metadata.title = h.title;
      return new Document({ pageContent: h.text, metadata, id: h.id });
    });
  }
}
