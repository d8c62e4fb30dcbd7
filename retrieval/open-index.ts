/**
 * openIndex(dir): the one way from an index dir to what a caller searches — its manifest, analyzer,
 * doc store and a Retriever per method (opened lazily through retrieval/open.ts and cached). The
 * CLI, the explorer (web/server/index-context.ts), retrieval evaluation and the agents all open an
 * index through here; agents take the eager view `openCaseIndex` (every method that opens).
 */
import { warnAnalyzerUnicode } from '../indexer/analyzer-unicode.js';
import { errorMessage, errors, isLexcaseError, type ErrorCode } from '../core/errors.js';
import { createAnalyzer, type Analyzer } from '../indexer/analyzer.js';
import { openDocStore, type OpenedDocStore } from '../indexer/docstore.js';
import { readManifest, type Manifest } from '../indexer/manifest.js';
import { indexStamp } from './index-stamp.js';
import { closeSparseIndexes, openRetriever } from './open.js';
import { METHODS, offers } from './methods.js';
import type { Retriever } from './types.js';

export { INDEX_METHODS } from './methods.js';
/** What an index holds (corpus, checksum, passages, analyzer, dense model): what an agent run records, so a resume over another index is refused. */
export { indexContent } from '../indexer/manifest.js';

/** Errors that say the index itself is damaged or unreadable: never swallowed by allRetrievers. */
const INDEX_FAULTS = new Set<ErrorCode>(['INDEX_CORRUPT', 'INDEX_INCOMPATIBLE', 'INDEX_MISSING']);

export interface OpenedIndex {
  dir: string;
  manifest: Manifest;
  analyzer: Analyzer;
  docs: OpenedDocStore;
  /** INDEX_METHODS this index offers (methods.ts `offers`: its build step is in the manifest; hybrid when dense is). */
  methods: string[];
  /** The method's Retriever (cached when opened without options). */
  retriever(method: string, opts?: Record<string, unknown>): Promise<Retriever>;
  /** Every listed method's retriever that opens (among `wanted`, if given); why each other one did not is in `unopened`. */
  allRetrievers(wanted?: readonly string[]): Promise<Partial<Record<string, Retriever>>>;
  /** The listed methods allRetrievers could not open, each with its error's message and code (dense whose embedding endpoint refused the key: EMBEDDER_UNAVAILABLE; hybrid without qld: METHOD_UNAVAILABLE). */
  unopened: Map<string, { message: string; code?: ErrorCode }>;
  getPassage(id: string): Promise<{ id: string; text: string; title?: string; source?: string } | undefined>;
  /**
   * Throws (INDEX_INCOMPATIBLE, errors.indexReplaced) when the dir no longer holds what was opened
   * (index-stamp.ts: manifest.json's content, a data file it lists, the lancedb-fts table's
   * versions): the index was rebuilt in place, a method added or a file replaced, and this
   * object (its manifest, analyzer, doc store, retrievers) is the index as it was. Long-lived
   * holders (the explorer, `serve --api`, MCP) call it before answering.
   */
  assertCurrent(): void;
  close(): Promise<void>;
}

/** What the index dir holds now (index-stamp.ts: manifest content, data files' stats), '-' when its manifest cannot be read. */
const manifestStamp = (dir: string): string => indexStamp(dir) ?? '-';

/** Opens of an index that a build keeps replacing meanwhile before INDEX_INCOMPATIBLE (indexReplacedWhileOpening). */
const OPEN_ATTEMPTS = 3;

/**
 * The manifest and doc store of `dir` from one and the same index: a build swaps a new index into
 * place (indexer/build-dirs.ts) between reads, so the manifest's stamp is taken before and checked
 * after; an open that straddled a swap (or failed because of one: the dir missing between the two
 * renames, files of the other index) is tried again.
 */
async function openConsistent(dir: string): Promise<{ stamp: string; manifest: Manifest; docs: OpenedDocStore }> {
  for (let attempt = 1; ; attempt++) {
    // taken before the manifest is read: a rebuild in between is refused later, never missed
    const stamp = manifestStamp(dir);
    let manifest: Manifest;
    let docs: OpenedDocStore;
    try {
      manifest = await readManifest(dir);
      docs = await openDocStore(dir);
    } catch (e) {
      if (manifestStamp(dir) === stamp) throw e;
      if (attempt >= OPEN_ATTEMPTS) throw errors.indexReplacedWhileOpening(dir);
      continue;
    }
    if (manifestStamp(dir) === stamp) return { stamp, manifest, docs };
    await docs.close();
    if (attempt >= OPEN_ATTEMPTS) throw errors.indexReplacedWhileOpening(dir);
  }
}

export async function openIndex(dir: string): Promise<OpenedIndex> {
  const { stamp, manifest, docs } = await openConsistent(dir);
  warnAnalyzerUnicode(dir, manifest);
  const methods: string[] = METHODS.filter((m) => m.agents && offers(m, manifest.methods)).map((m) => m.name);
  const cache = new Map<string, Promise<Retriever>>();
  // A retriever opens its own files (the sparse index reads the manifest again): one opened after
  // the index was replaced would rank another index's passages than `manifest` and `docs` describe
  // (`search` printed the new index's ids with no text, exit 0). Checked once it is open; an open
  // that failed because of the swap (files of two indexes: "index file is corrupt") says so.
  const sameIndex = (p: Promise<Retriever>): Promise<Retriever> =>
    p.then(
      (r) => {
        if (manifestStamp(dir) !== stamp) throw errors.indexReplacedWhileOpening(dir);
        return r;
      },
      (e: unknown) => {
        if (manifestStamp(dir) !== stamp) throw errors.indexReplacedWhileOpening(dir);
        throw e;
      },
    );
  const retriever = (method: string, opts?: Record<string, unknown>): Promise<Retriever> => {
    if (opts && Object.keys(opts).length) return sameIndex(openRetriever(dir, method, opts));
    let r = cache.get(method);
    if (!r) {
      r = sameIndex(openRetriever(dir, method));
      cache.set(method, r);
      r.catch(() => cache.delete(method));
    }
    return r;
  };
  const unopened: OpenedIndex['unopened'] = new Map();
  return {
    dir,
    manifest,
    analyzer: createAnalyzer(manifest.analyzer),
    docs,
    methods,
    retriever,
    unopened,
    async allRetrievers(wanted) {
      // No prototype: a method name like "__proto__" or "constructor" finds nothing here.
      const out: Partial<Record<string, Retriever>> = Object.create(null);
      for (const m of methods.filter((x) => !wanted || wanted.includes(x))) {
        try {
          out[m] = await retriever(m);
        } catch (e) {
          // A damaged or unreadable index is an error, not a method quietly left out (a server
          // would start with no methods and answer every search "method bm25 is not in index").
          if (isLexcaseError(e) && INDEX_FAULTS.has(e.code)) throw e;
          // listed but not openable here (no embedder, its endpoint refused the key): callers use the
          // others, and say why this one is missing (before: "method dense is not in index", silently)
          unopened.set(m, { message: errorMessage(e), ...(isLexcaseError(e) ? { code: e.code } : {}) });
          continue;
        }
        unopened.delete(m);
      }
      return out;
    },
    getPassage: async (id) => (await docs.get(id)) ?? undefined,
    assertCurrent() {
      if (manifestStamp(dir) !== stamp) throw errors.indexReplaced(dir);
    },
    async close() {
      await docs.close();
      await closeSparseIndexes(dir);
    },
  };
}

/** An opened index with every method's retriever already open: what agent systems take. */
export type AgentIndex = OpenedIndex & { retrievers: Partial<Record<string, Retriever>> };

/** openIndex, then every listed method (among `wanted`) that opens. */
export async function openCaseIndex(dir: string, wanted?: string[]): Promise<AgentIndex> {
  const idx = await openIndex(dir);
  return Object.assign(idx, { retrievers: await idx.allRetrievers(wanted) });
}
