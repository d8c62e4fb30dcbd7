/**
 * The option keys each retrieval method reads (openRetriever's `opts`), and the helpers that share
 * one options object over several methods: what each gets, which keys none of them reads and the
 * one wording of that warning. Below both the registry (methods.ts, whose entries take their
 * `options` and `fusable` from here) and hybrid-open.ts (which shares its options over its
 * components), so neither imports the other for them.
 */
import { log } from '../core/log.js';

/** A method's option keys, and whether hybrid may fuse it (then hybrid takes its keys too and passes them on). */
export interface MethodOptions {
  /** The keys of openRetriever's `opts` it reads (hybrid also passes every key on to its components). */
  readonly options: readonly string[];
  /** hybrid may fuse it. */
  readonly fusable: boolean;
}

/** Each method's option keys, in registry order (methods.ts METHODS: one entry per method, each with its line here). */
export const METHOD_OPTIONS = {
  bm25: { options: ['k1', 'b', 'threads', 'scorer', 'cacheMib', 'rm3'], fusable: true },
  qld: { options: ['mu', 'variant', 'threads', 'scorer', 'cacheMib', 'rm3'], fusable: true },
  wink: { options: ['k1', 'b'], fusable: false },
  dense: {
    options: ['embedder', 'model', 'modelDir', 'baseURL', 'apiKey', 'cacheDir', 'offline', 'nprobes', 'refineFactor', 'ef', 'exact', 'queryWords'],
    fusable: true,
  },
  hybrid: { options: ['methods', 'hybridMethods', 'fusion', 'weights', 'rrfK', 'depth'], fusable: false },
  'lancedb-fts': { options: [], fusable: true },
} as const satisfies Record<string, MethodOptions>;

const ENTRIES: readonly [string, MethodOptions][] = Object.entries(METHOD_OPTIONS);

/** The option keys `method` takes: its own, and for hybrid those of every method it may fuse (it passes them on). */
export function methodOptionKeys(method: string): readonly string[] {
  const spec = (METHOD_OPTIONS as Record<string, MethodOptions>)[method];
  if (!spec) return [];
  return method === 'hybrid' ? [...new Set([...spec.options, ...ENTRIES.filter(([, m]) => m.fusable).flatMap(([, m]) => m.options)])] : spec.options;
}

/** Every option key some method takes: openRetriever refuses any other. */
export const RETRIEVER_OPTION_KEYS: readonly string[] = [...new Set(ENTRIES.flatMap(([, m]) => m.options))];

/** The methods that read option `key` (their own `options`), in registry order. */
export const methodsReading = (key: string): string[] => ENTRIES.filter(([, m]) => m.options.includes(key)).map(([name]) => name);

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

/**
 * One options object shared over `methods` (eval retrieval --method bm25,qld --k1 …): warns once
 * about each key none of them reads (`who` names the caller), and gives each method the keys it reads,
 * so openRetriever does not warn about a key meant for another of them.
 */
export function shareOptions(opts: Record<string, unknown> = {}, methods: readonly string[], who: string): (method: string) => Record<string, unknown> {
  for (const key of unreadOptions(opts, methods)) log.warn(`${who}: ${unreadOptionText(key, methods)}`);
  return (method) => optionsFor(method, opts);
}
