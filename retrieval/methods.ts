/**
 * The retrieval methods: ONE entry per method, from which every list of methods derives —
 * openRetriever's dispatch and its "known methods" (open.ts), the methods an opened index offers
 * agents and the explorer (open-index.ts), the agents' search tools (tools/index.ts), the CLI's
 * `--method` help (src/cli/commands/search.ts), hybrid's fusable components (hybrid-open.ts) and
 * sparse methods' shared index. A new method is one entry here, its option keys in
 * method-options.ts (with the helpers that share options over methods) plus its own files; see
 * docs/architecture.md, "Add a retrieval method". A method's code is imported when it is opened.
 */
import type { Manifest } from '../indexer/manifest.js';
import { METHOD_OPTIONS } from './method-options.js';
import type { Retriever } from './types.js';

export type OpenRetriever = (dir: string, method: string, opts?: Record<string, unknown>) => Promise<Retriever>;

export interface MethodSpec {
  readonly name: string;
  /** One line for --help. */
  readonly summary: string;
  /**
   * The index build step (indexer/build.ts `methods`: bm25, qld, dense, lancedb-fts) whose files the
   * method reads, or null when it reads only the doc store (built in memory when opened).
   */
  readonly buildStep: 'bm25' | 'qld' | 'dense' | 'lancedb-fts' | null;
  /** Scored from the shared sparse index (sparse/…: exact strategies, approx mode, explain). */
  readonly sparse: boolean;
  /** hybrid may fuse it (method-options.ts). */
  readonly fusable: boolean;
  /** Takes RM3 query expansion (`rm3` in its options: retrieval/rm3.ts, rm3-params.ts). */
  readonly rm3?: boolean;
  /** The keys of openRetriever's `opts` it reads (method-options.ts; hybrid also passes every key on to its components). */
  readonly options: readonly string[];
  /** Whether an index with these manifest methods offers it (default: the manifest lists its build step). */
  offeredBy?(manifestMethods: readonly string[]): boolean;
  /**
   * Offered to agents and the explorer (their menus, in registry order) when the index has it, as
   * the search tool `tool` (tools/search-tool.ts) whose description the model reads.
   */
  readonly agents?: { tool: string; description: string };
  open(dir: string, manifest: Manifest, opts: Record<string, unknown>, openRetriever: OpenRetriever): Promise<Retriever>;
}

const listed = (step: string) => (m: readonly string[]) => m.includes(step);

export const METHODS: readonly MethodSpec[] = [
  {
    name: 'bm25',
    summary: 'Lucene BM25 over the sparse index (k1, b)',
    ...METHOD_OPTIONS.bm25,
    buildStep: 'bm25',
    sparse: true,
    rm3: true,
    agents: {
      tool: 'bm25_search',
      description:
        'Keyword search (BM25) over the legal passage corpus. Best for exact legal terms of art, doctrine names and statutory words. Returns passage ids, scores and snippets.',
    },
    open: async (dir, manifest, opts) => (await import('./open-sparse.js')).openSparseMethod(dir, manifest, 'bm25', opts),
  },
  {
    name: 'qld',
    summary: 'query likelihood, Dirichlet smoothing (mu; variant textbook | lucene)',
    ...METHOD_OPTIONS.qld,
    buildStep: 'qld',
    sparse: true,
    rm3: true,
    agents: {
      tool: 'qld_search',
      description:
        'Query-likelihood search with Dirichlet smoothing (QLD) over the legal passage corpus. Lexical like BM25 but favours passages whose wording as a whole is likely to produce the query; good for longer, descriptive queries. Returns passage ids, scores and snippets.',
    },
    open: async (dir, manifest, opts) => (await import('./open-sparse.js')).openSparseMethod(dir, manifest, 'qld', opts),
  },
  {
    name: 'wink',
    summary: 'wink-bm25-text-search over the doc store, in memory (a reference peer)',
    ...METHOD_OPTIONS.wink,
    buildStep: null,
    sparse: false,
    open: async (dir, _manifest, opts) => (await import('./wink.js')).createWinkRetrieverFromIndex(dir, opts),
  },
  {
    name: 'dense',
    summary: 'LanceDB vectors of the index embedder',
    ...METHOD_OPTIONS.dense,
    buildStep: 'dense',
    sparse: false,
    agents: {
      tool: 'dense_search',
      description:
        'Semantic (embedding) search over the legal passage corpus. Finds passages that mean the same thing with different words; good for fact patterns and paraphrased rules. Returns passage ids, scores and snippets.',
    },
    open: async (dir, _manifest, opts) => (await import('./dense-open.js')).openDenseFromOptions(dir, opts),
  },
  {
    name: 'hybrid',
    summary: 'fusion of fusable methods (methods, fusion, weights)',
    ...METHOD_OPTIONS.hybrid,
    buildStep: null,
    sparse: false,
    offeredBy: listed('dense'),
    agents: {
      tool: 'hybrid_search',
      description:
        'Hybrid search: keyword and semantic rankings fused into one list. A good default when unsure which search to use. Returns passage ids, scores and snippets.',
    },
    open: async (dir, _manifest, opts, openRetriever) => (await import('./hybrid-open.js')).openHybridRetriever(dir, opts, openRetriever, FUSABLE),
  },
  {
    name: 'lancedb-fts',
    summary: "LanceDB's own full-text index",
    ...METHOD_OPTIONS['lancedb-fts'],
    buildStep: 'lancedb-fts',
    sparse: false,
    open: async (dir) => (await import('./lancedb-fts.js')).openLanceFtsRetriever(dir),
  },
];

/** Methods hybrid may fuse. */
export const FUSABLE: readonly string[] = METHODS.filter((m) => m.fusable).map((m) => m.name);

const byName = new Map(METHODS.map((m) => [m.name, m]));

/** The method's entry, or undefined. */
export const methodSpec = (name: string): MethodSpec | undefined => byName.get(name);

/** Every method name, in registry order. */
export const METHOD_NAMES: readonly string[] = METHODS.map((m) => m.name);

/** Methods an opened index offers to agents and the explorer, in menu order (the registry's methods with a search tool). */
export const INDEX_METHODS: readonly string[] = METHODS.filter((m) => m.agents).map((m) => m.name);

/** Whether an index whose manifest lists `manifestMethods` offers `m`. */
export const offers = (m: MethodSpec, manifestMethods: readonly string[]): boolean =>
  m.offeredBy ? m.offeredBy(manifestMethods) : m.buildStep === null || manifestMethods.includes(m.buildStep);

/** Methods that take RM3 (`rm3` in their options). */
export const RM3_METHODS: readonly string[] = METHODS.filter((m) => m.rm3).map((m) => m.name);

/** "bm25 | qld | …" with each method's summary, for --help. */
export const methodsHelp = (): string => METHODS.map((m) => `${m.name} (${m.summary})`).join('; ');
