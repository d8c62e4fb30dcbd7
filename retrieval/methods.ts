/**
 * The retrieval methods: ONE entry per method, from which every list of methods derives —
 * openRetriever's dispatch and its "known methods" (open.ts), the methods an opened index offers
 * agents and the explorer (open-index.ts), the agents' search tools (tools/index.ts), the CLI's
 * `--method` help (src/cli/commands/search.ts), hybrid's fusable components (hybrid-open.ts) and
 * sparse methods' shared index. A new method is one entry here plus its own files; see
 * docs/architecture.md, "Add a retrieval method". A method's code is imported when it is opened.
 */
import { log } from '../core/log.js';
import type { Manifest } from '../indexer/manifest.js';
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
  /** hybrid may fuse it. */
  readonly fusable: boolean;
  /** Takes RM3 query expansion (`rm3` in its options: retrieval/rm3.ts, rm3-params.ts). */
  readonly rm3?: boolean;
  /** The keys of openRetriever's `opts` it reads (hybrid also passes every key on to its components). */
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
    options: ['k1', 'b', 'threads', 'scorer', 'cacheMib', 'rm3'],
    buildStep: 'bm25',
    sparse: true,
    fusable: true,
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
    options: ['mu', 'variant', 'threads', 'scorer', 'cacheMib', 'rm3'],
    buildStep: 'qld',
    sparse: true,
    fusable: true,
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
    options: ['k1', 'b'],
    buildStep: null,
    sparse: false,
    fusable: false,
    open: async (dir, _manifest, opts) => (await import('./wink.js')).createWinkRetrieverFromIndex(dir, opts),
  },
  {
    name: 'dense',
    summary: 'LanceDB vectors of the index embedder',
    options: ['embedder', 'model', 'modelDir', 'baseURL', 'apiKey', 'cacheDir', 'offline', 'nprobes', 'refineFactor', 'ef', 'exact', 'queryWords'],
    buildStep: 'dense',
    sparse: false,
    fusable: true,
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
    options: ['methods', 'hybridMethods', 'fusion', 'weights', 'rrfK', 'depth'],
    buildStep: null,
    sparse: false,
    fusable: false,
    offeredBy: listed('dense'),
    agents: {
      tool: 'hybrid_search',
      description:
        'Hybrid search: keyword and semantic rankings fused into one list. A good default when unsure which search to use. Returns passage ids, scores and snippets.',
    },
    open: async (dir, _manifest, opts, openRetriever) =>
      (await import('./hybrid-open.js')).openHybridRetriever(dir, opts, openRetriever, FUSABLE, shareOptions),
  },
  {
    name: 'lancedb-fts',
    summary: "LanceDB's own full-text index",
    options: [],
    buildStep: 'lancedb-fts',
    sparse: false,
    fusable: true,
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

/** The option keys `method` takes: its own, and for hybrid those of every method it may fuse (it passes them on). */
export function methodOptionKeys(method: string): readonly string[] {
  const spec = byName.get(method);
  if (!spec) return [];
  return spec.name === 'hybrid' ? [...new Set([...spec.options, ...METHODS.filter((m) => m.fusable).flatMap((m) => m.options)])] : spec.options;
}

/** Every option key some method takes: openRetriever refuses any other. */
export const RETRIEVER_OPTION_KEYS: readonly string[] = [...new Set(METHODS.flatMap((m) => m.options))];

/** The methods that read option `key` (their own `options`), in registry order. */
export const methodsReading = (key: string): string[] => METHODS.filter((m) => m.options.includes(key)).map((m) => m.name);

/** The keys of `opts` some method reads but none of `methods` does: they would change nothing (keys no method reads are openRetriever's to refuse). */
export function unreadOptions(opts: Record<string, unknown>, methods: readonly string[]): string[] {
  return Object.keys(opts).filter((k) => RETRIEVER_OPTION_KEYS.includes(k) && !methods.some((m) => methodOptionKeys(m).includes(k)));
}

/**
 * `opts` without the keys none of `methods` reads though another method does (they would change
 * nothing), except `rm3`, which a method without RM3 refuses (open.ts) rather than ignores.
 */
export function withoutUnreadOptions(opts: Record<string, unknown>, methods: readonly string[]): Record<string, unknown> {
  const unread = new Set(unreadOptions(opts, methods).filter((k) => k !== 'rm3'));
  return Object.fromEntries(Object.entries(opts).filter(([k]) => !unread.has(k)));
}

/**
 * What `method` gets of one options object shared over several (eval retrieval --method bm25,qld
 * --k1 …, hybrid's components): the keys it reads, so openRetriever warns only about a key the
 * caller meant for that one method.
 */
export const optionsFor = (method: string, opts: Record<string, unknown>): Record<string, unknown> => withoutUnreadOptions(opts, [method]);

/** "option "k1" is ignored by qld: only bm25, wink read it": the one wording of a key a method does not read. */
export const unreadOptionText = (key: string, methods: readonly string[]): string =>
  `option "${key}" is ignored by ${methods.join(', ')}: only ${methodsReading(key).join(', ')} ${methodsReading(key).length === 1 ? 'reads' : 'read'} it`;

/** Methods that take RM3 (`rm3` in their options). */
export const RM3_METHODS: readonly string[] = METHODS.filter((m) => m.rm3).map((m) => m.name);

/** "bm25 | qld | …" with each method's summary, for --help. */
export const methodsHelp = (): string => METHODS.map((m) => `${m.name} (${m.summary})`).join('; ');

/**
 * One options object shared over `methods` (eval retrieval --method bm25,qld --k1 …): warns once
 * about each key none of them reads (`who` names the caller), and gives each method the keys it reads,
 * so openRetriever does not warn about a key meant for another of them.
 */
export function shareOptions(opts: Record<string, unknown> = {}, methods: readonly string[], who: string): (method: string) => Record<string, unknown> {
  for (const key of unreadOptions(opts, methods)) log.warn(`${who}: ${unreadOptionText(key, methods)}`);
  return (method) => optionsFor(method, opts);
}
