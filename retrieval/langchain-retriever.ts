/**
 * LexcaseRetriever: a LangChain.js `BaseRetriever` over any lexcase method (bm25, qld, dense,
 * hybrid, wink, lancedb-fts), so lexcase plugs into LangChain chains:
 *
 *   const retriever = new LexcaseRetriever({ index: 'my-index', method: 'bm25', k: 5 });
 *   const docs = await retriever.invoke('adverse possession');   // Document[]
 *
 * Each Document has `pageContent` = the passage text and `metadata` = { id, score, rank, method }
 * plus, from an index dir, the passage's `source`, `doc_id`, `title` and the JSON fields kept at
 * build (the Documents' other metadata, with fromDocuments). `index` is an index dir (opened on
 * first use with openRetriever and `options`, e.g. { k1, b } or { methods: 'bm25,dense', fusion:
 * 'rrf' }) or a ready lexcase Retriever. `filter` (an index dir only) keeps the passages whose
 * metadata matches (retrieval/langchain-filter.ts): the top k among them. Tied hits come in the
 * order `lexcase search`, /v1 and the evaluation give them (retrieval/top-k.ts), filter or not.
 *
 *   const r = await LexcaseRetriever.fromDocuments(docs, { out: 'my-index', filter: { source: 'fre' } });
 */
import { BaseRetriever, type BaseRetrieverInput } from '@langchain/core/retrievers';
import { Document, type DocumentInterface } from '@langchain/core/documents';
import type { CallbackManagerForRetrieverRun } from '@langchain/core/callbacks/manager';
import { errors } from '../core/errors.js';
import { didYouMean } from '../core/did-you-mean.js';
import { log } from '../core/log.js';
import type { OpenedDocStore } from '../indexer/docstore.js';
import { buildIndex, type BuildOptions } from '../indexer/build.js';
import { openRetriever, openSparseIndex } from './open.js';
import type { Hit, MethodName, Retriever } from './types.js';
import { searchK } from './search-options.js';
import { searchFiltered } from './filtered-search.js';
import { printedRun } from './top-k.js';
import { documentsToPassages } from './langchain-documents.js';
import { compileFilter, metadataView, sourceOnly, type LexcaseMetadataFilter, type PassageMetadataView } from './langchain-filter.js';

export type { LexcaseMetadataFilter, PassageMetadataView } from './langchain-filter.js';

export interface LexcaseRetrieverInput extends BaseRetrieverInput {
  /** An index dir, or an opened lexcase Retriever. */
  index: string | Retriever;
  /** Method to open the index dir with (default 'bm25'); must match the Retriever's when one is given. */
  method?: MethodName;
  /** Documents per query (default SEARCH_K, retrieval/default-k.ts). */
  k?: number;
  /** Method options for openRetriever (k1, b, mu, variant, methods, fusion, weights, embedder, …). */
  options?: Record<string, unknown>;
  /**
   * Keep only passages whose metadata matches (an index dir only): an object of fields (source,
   * doc_id, title, id, any kept JSON field; an array value = any of these) or a function of the
   * metadata. The top k among the kept passages, ranked 1…k, with their unfiltered scores.
   */
  filter?: LexcaseMetadataFilter;
}

/** `fromDocuments` / `fromTexts`: where and how to build the index, then the retriever's fields. */
export interface LexcaseFromDocumentsInput extends Omit<LexcaseRetrieverInput, 'index'>, Omit<BuildOptions, 'inputs'> {
  /** The index directory to build (refused if it holds anything but a lexcase index). */
  out: string;
}

export interface LexcaseDocumentMetadata extends Record<string, unknown> {
  id: string;
  score: number;
  rank: number;
  method: string;
  /** The passage's source (from an index dir). */
  source?: string;
  /** The passage's document id, when it has one (from an index dir). */
  doc_id?: string;
  title?: string;
}

/** Every field the constructor reads: its own and LangChain's BaseRetrieverInput's (a Record over the interface's keys). */
const RETRIEVER_FIELDS: Record<keyof LexcaseRetrieverInput, true> = {
  index: true,
  method: true,
  k: true,
  options: true,
  filter: true,
  callbacks: true,
  tags: true,
  metadata: true,
  verbose: true,
};

/** fromDocuments' build fields (BuildOptions but `inputs`; a Record over its keys: one added to BuildOptions must be added here). */
const BUILD_FIELDS: Record<keyof Omit<BuildOptions, 'inputs'>, true> = {
  out: true,
  corpusName: true,
  methods: true,
  analyzer: true,
  workers: true,
  segmentPostings: true,
  batchPassages: true,
  onProgress: true,
  signal: true,
  dense: true,
  densePrebuilt: true,
  onDensePrebuilt: true,
  onSparseBuilt: true,
  compressDocs: true,
  blockBounds: true,
  onPhases: true,
};

/** Other retrievers' and APIs' names for these fields, too far from them for the spelling match to find. */
const FIELD_ALIASES: Record<string, string> = { searchKwargs: 'filter', search_kwargs: 'filter', topK: 'k', top_k: 'k', option: 'options' };

/**
 * A field the retriever does not read is refused, naming each with the closest field (core/did-you-mean.ts):
 * before, { filters: … } (as /v1 and MCP spell it), searchKwargs, topK or option were taken and dropped, the
 * search running unfiltered, with the default k and options.
 */
function refuseUnknownFields(fields: object, known: readonly string[], who: string): void {
  const unknown = Object.keys(fields).filter((f) => !known.includes(f));
  if (!unknown.length) return;
  const near = (f: string) => {
    const hint = FIELD_ALIASES[f] && known.includes(FIELD_ALIASES[f]) ? `did you mean "${FIELD_ALIASES[f]}"? ` : didYouMean(f, known);
    return hint ? ` (${hint.trim()})` : '';
  };
  throw errors.invalidInput(
    `field${unknown.length > 1 ? 's' : ''} ${unknown.map((f) => `"${f}"`).join(', ')}`,
    `${who} takes no such field: ${unknown.map((f) => `"${f}"${near(f)}`).join(', ')}; the fields are ${known.join(', ')}`,
  );
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
  private readonly filter?: LexcaseMetadataFilter;
  private readonly keep?: (view: PassageMetadataView) => boolean;
  private opened?: Promise<Retriever>;
  /** Passage index → whether the filter keeps it (a passage's fields are read and tested once per opened doc store). */
  private verdicts = new Map<number, boolean>();
  private verdictsOf?: OpenedDocStore;
  /** The metadata fields of the passages the filter has tested (of verdictsOf). */
  private fieldsSeen = new Set<string>();

  constructor(fields: LexcaseRetrieverInput) {
    super(fields);
    if (fields && typeof fields === 'object') refuseUnknownFields(fields, Object.keys(RETRIEVER_FIELDS), 'LexcaseRetriever');
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
    if (fields.filter !== undefined) {
      if (typeof fields.index !== 'string')
        throw errors.invalidInput('filter', "a metadata filter needs `index` as an index directory (it reads the passages' fields from its doc store)");
      this.keep = compileFilter(fields.filter);
      this.filter = fields.filter;
    }
  }

  /**
   * Build an index at `out` from LangChain Documents (pageContent → text; Document.id or metadata.id
   * → passage id, else doc-<n>; metadata.source / doc_id / title → passage fields; every other key
   * kept as a JSON field) and return a retriever over it. `methods` as for buildIndex (default bm25,
   * qld; add 'dense' with `dense: { embedder }`).
   */
  static async fromDocuments(docs: Iterable<DocumentInterface>, input: LexcaseFromDocumentsInput): Promise<LexcaseRetriever> {
    if (!input || typeof input.out !== 'string' || !input.out) throw errors.invalidInput('out', 'fromDocuments needs `out`: the index directory to build');
    if (!docs || typeof (docs as Iterable<unknown>)[Symbol.iterator] !== 'function')
      throw errors.invalidInput('documents', 'expected an array (or iterable) of LangChain Documents');
    // `inputs` is refused too: the passages are the documents given
    refuseUnknownFields(input, [...Object.keys(RETRIEVER_FIELDS).filter((f) => f !== 'index'), ...Object.keys(BUILD_FIELDS)], 'fromDocuments');
    const { out, method, k, options, filter, callbacks, tags, metadata, verbose, ...build } = input;
    // Check the retriever's fields before building anything.
    new LexcaseRetriever({ index: out, method, k, options, filter, callbacks, tags, metadata, verbose });
    await buildIndex(documentsToPassages(docs), { ...build, out });
    return new LexcaseRetriever({ index: out, method, k, options, filter, callbacks, tags, metadata, verbose });
  }

  /** fromDocuments for texts: `metadatas` one object for all, or one per text (as LangChain's VectorStore.fromTexts). */
  static async fromTexts(
    texts: readonly string[],
    metadatas: Record<string, unknown> | readonly Record<string, unknown>[],
    input: LexcaseFromDocumentsInput,
  ): Promise<LexcaseRetriever> {
    if (!Array.isArray(texts)) throw errors.invalidInput('texts', 'expected an array of strings');
    if (Array.isArray(metadatas) && metadatas.length !== texts.length)
      throw errors.invalidInput('metadatas', `expected ${texts.length} objects (one per text) or one object, got ${metadatas.length}`);
    const mdOf = (i: number) => (Array.isArray(metadatas) ? metadatas[i] : metadatas) as Record<string, unknown> | undefined;
    return LexcaseRetriever.fromDocuments(
      texts.map((t, i) => new Document({ pageContent: t, metadata: { ...(mdOf(i) ?? {}) } })),
      input,
    );
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
    if (typeof this.index !== 'string') {
      const hits = await printedRun(r, query, this.k, { withText: true });
      return hits.map((h) => {
        if (h.text === undefined)
          throw errors.usage(`the ${r.method} retriever returned passage ${h.id} without its text`, 'implement `withText` in the Retriever passed as `index`');
        const metadata: LexcaseDocumentMetadata = { id: h.id, score: h.score, rank: h.rank, method: String(r.method) };
        if (h.title) metadata.title = h.title;
        return new Document({ pageContent: h.text, metadata, id: h.id });
      });
    }
    const docs = (await openSparseIndex(this.index)).docs;
    const hits = this.keep ? await this.filtered(r, docs, query) : await printedRun(r, query, this.k);
    const out: Document<LexcaseDocumentMetadata>[] = [];
    for (const h of hits) {
      const i = docs.indexOf(h.id);
      if (i < 0) throw errors.indexCorrupt(this.index, `passage "${h.id}" of the ${r.method} ranking is not in the doc store`);
      const p = await docs.at(i);
      // Kept JSON fields first; the passage's and the search's own fields win on a clash.
      // the opened retriever's label: "bm25+rm3" with the rm3 option, as the CLI, the service and openRetriever say
      const metadata: LexcaseDocumentMetadata = { ...metadataView(p), score: h.score, rank: out.length + 1, method: String(r.method) };
      out.push(new Document({ pageContent: p.text, metadata, id: h.id }));
    }
    return out;
  }

  /**
   * The top k hits the filter keeps (retrieval/filtered-search.ts: the same for an object filter and
   * a function, and the same as filtering the unfiltered ranking by hand). A source-only object
   * filter is answered from the doc store's source column; other filters read each hit's fields once.
   * Fewer than k kept within the ranking a filtered search looks at (hybrid: its depth): a warning.
   */
  private async filtered(r: Retriever, docs: OpenedDocStore, query: string): Promise<Hit[]> {
    const sources = sourceOnly(this.filter!);
    if (sources) {
      // as /v1's filters.sources: a misspelt source would keep nothing, and say nothing
      const held = docs.sources();
      const unknown = sources.filter((n) => !held.includes(n));
      if (unknown.length) throw errors.unknownSources('filter.source', unknown, held);
    }
    const mask = sources ? docs.sourceMask(sources) : undefined;
    if (this.verdictsOf !== docs) {
      // A rebuilt index reopens its doc store: passage positions may mean other passages now.
      this.verdicts = new Map();
      this.fieldsSeen = new Set();
      this.verdictsOf = docs;
    }
    const looked = new Set<number>(); // a deeper round tests the top of the ranking again
    const keeps = async (i: number): Promise<boolean> => {
      looked.add(i);
      if (mask) return mask.mask[i] === 1;
      let v = this.verdicts.get(i);
      if (v === undefined) {
        const view = metadataView(await docs.fieldsAt(i));
        for (const f of Object.keys(view)) this.fieldsSeen.add(f);
        this.verdicts.set(i, (v = this.keep!(view)));
      }
      return v;
    };
    const { hits, note } = await searchFiltered(r, query, this.k, { size: docs.size, kept: mask?.count, indexOf: docs.indexOf, keeps });
    if (note) log.warn(`LexcaseRetriever (${this.index}): ${note}`);
    // none kept of a ranking that had passages: said, naming a field no passage tested had (a misspelt key keeps nothing)
    else if (hits.length === 0 && looked.size > 0)
      log.warn(`LexcaseRetriever (${this.index}): ${keptNoneNote(this.filter!, r.method, looked.size, this.fieldsSeen)}`);
    return hits;
  }
}

/** "the filter keeps none of the 12 passages of the bm25 ranking for this query; none of the passages it tested has the field "sorce"". */
function keptNoneNote(filter: LexcaseMetadataFilter, method: string, looked: number, fieldsSeen: ReadonlySet<string>): string {
  const absent = typeof filter === 'function' ? [] : Object.keys(filter).filter((f) => !fieldsSeen.has(f));
  return (
    `the filter keeps none of the ${looked} ${looked === 1 ? 'passage' : 'passages'} of the ${method} ranking for this query: no hits` +
    (absent.length ? `; none of the passages it tested has the ${absent.length === 1 ? 'field' : 'fields'} ${absent.map((f) => `"${f}"`).join(', ')}` : '')
  );
}
