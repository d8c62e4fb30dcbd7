/**
 * Dense queries the model reads only in part. A transformers model reads at most its tokenizer's
 * model_max_length tokens of a text (512 for BGE and the tiny test model) and the pipeline cuts a
 * longer one there, silently; a query is one window (dense-query.ts), so a long one was embedded
 * from its start without a word. The dense retriever (and so hybrid's dense component) counts the
 * distinct queries it embedded and those cut, warns once naming the first cut one, and a `--topics`
 * run or `eval retrieval` says the count (queriesCutNote). Results are unchanged. use-lite's windows
 * always fit its 128 tokens; an OpenAI-compatible server's limit is not known here: not counted.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { isMainThread } from 'node:worker_threads';
import { log } from '../core/log.js';
import type { Embedder } from '../indexer/embed/types.js';
import { queryTexts, type DenseQueryRule } from './dense-query.js';
import type { QueriesReadInPart } from './types.js';

/** Whether the model reads `query` under `rule` only in part; undefined where its limit is unknown. */
export function queryReadInPart(embedder: Embedder, query: string, rule: DenseQueryRule, maxWords?: number): { maxTokens: number; cut: boolean } | undefined {
  const limit = embedder.tokenLimit;
  if (!limit) return undefined;
  const texts = queryTexts(query, rule, embedder.provider, maxWords);
  return { maxTokens: limit.maxTokens, cut: texts.some((t) => limit.readsInPart(t, 'query')) };
}

/**
 * One agent item's dense searches (an agent run's results.jsonl `denseSearches`): how many reached a
 * dense model whose token limit is known, and how many of them it read only in part. Every search
 * counts (a query searched twice counts twice), so "7 of 40 searches" is of the item's own searches.
 * Queries embedded for exact similarities to given passages (a dense retriever's `similarities()`:
 * CASE's learned evidence selector's dense signals, six per question) are no searches: they are
 * counted apart in `similarityQueries` (before 2026-12-02 they were counted as searches, tilting
 * "X of Y dense searches were cut").
 */
export interface DenseSearchCount {
  searches: number;
  cut: number;
  provider: string;
  maxTokens: number;
  /** Queries embedded for exact similarities (not searches), and those read only in part; absent when none. */
  similarityQueries?: { embedded: number; cut: number };
}

/** What a query was embedded for: a search (its hits ranked), or exact similarities to given passages (`similarities()`). */
export type DenseQueryUse = 'search' | 'similarity';

/** A tally of the dense searches made under withDenseSearchTally (the runner: one per item). */
export class DenseSearchTally {
  private count: DenseSearchCount | undefined;

  /** `parent`: the tally this one runs inside (withDenseSearchTally nested), which counts every search too. */
  constructor(private readonly parent?: DenseSearchTally) {}

  add(provider: string, maxTokens: number, cut: boolean, use: DenseQueryUse = 'search'): void {
    const c = (this.count ??= { searches: 0, cut: 0, provider, maxTokens });
    if (use === 'search') {
      c.searches++;
      if (cut) c.cut++;
    } else {
      const q = (c.similarityQueries ??= { embedded: 0, cut: 0 });
      q.embedded++;
      if (cut) q.cut++;
    }
    this.parent?.add(provider, maxTokens, cut, use);
  }

  /** The count, or undefined when no search reached a dense model with a known limit. */
  toRecord(): DenseSearchCount | undefined {
    return this.count ? { ...this.count, ...(this.count.similarityQueries ? { similarityQueries: { ...this.count.similarityQueries } } : {}) } : undefined;
  }
}

const tallyScope = new AsyncLocalStorage<DenseSearchTally>();

/** Run `fn` with `tally` counting its dense searches (eval/runner.ts: one per item). */
export function withDenseSearchTally<T>(tally: DenseSearchTally, fn: () => T): T {
  return tallyScope.run(tally, fn);
}

/**
 * Run `fn` counting its dense searches in a tally of its own (findEvidence: one call), the enclosing
 * tally (a runner's item), if any, counting them as well.
 */
export async function countingDenseSearches<T>(fn: () => Promise<T>): Promise<{ value: T; count: DenseSearchCount | undefined }> {
  const tally = new DenseSearchTally(tallyScope.getStore());
  const value = await tallyScope.run(tally, fn);
  return { value, count: tally.toRecord() };
}

/**
 * One call's note (findEvidence's `queryCut`) when any of its dense searches was read only in part:
 * "2 of 6 dense searches were longer than the transformers model's 512 tokens: embedded from their
 * first 512 (the rest not read)"; undefined when none was, or no search reached a model with a known limit.
 */
export function searchesCutNote(count: DenseSearchCount | undefined): string | undefined {
  if (!count) return undefined;
  const n = (x: number) => x.toLocaleString('en-US');
  const limit = `the ${count.provider} model's ${count.maxTokens} tokens`;
  const q = count.similarityQueries;
  const notes = [
    ...(count.cut
      ? [
          `${n(count.cut)} of ${n(count.searches)} dense ${count.searches === 1 ? 'search was' : 'searches were'} longer than ${limit}: embedded from their first ${count.maxTokens} (the rest not read; the ranking read the query's start only)`,
        ]
      : []),
    ...(q?.cut ? [`${similarityQueriesText(q)} longer than ${limit}: embedded from their first ${count.maxTokens}`] : []),
  ];
  return notes.length ? notes.join('; ') : undefined;
}

/** "2 of 6 similarity queries (the learned evidence selector's dense signals, not searches) were": how many of a count's similarity queries were cut. */
function similarityQueriesText(q: { embedded: number; cut: number }): string {
  const n = (x: number) => x.toLocaleString('en-US');
  return `${n(q.cut)} of ${n(q.embedded)} similarity ${q.embedded === 1 ? 'query' : 'queries'} (the learned evidence selector's dense signals, not searches) ${q.cut === 1 ? 'was' : 'were'}`;
}

/**
 * Count one dense query embedding of `query` in the current tally (none outside one; nothing where the
 * model's limit is unknown): a search, or (`use` 'similarity') a query of exact similarities, counted apart.
 */
export function countDenseSearch(embedder: Embedder, query: string, rule: DenseQueryRule, maxWords?: number, use: DenseQueryUse = 'search'): void {
  const t = tallyScope.getStore();
  if (!t || !query.trim()) return;
  const r = queryReadInPart(embedder, query, rule, maxWords);
  if (r) t.add(embedder.provider, r.maxTokens, r.cut, use);
}

/**
 * A run's line (report.md, report.json `denseSearches`) from its items' counts: "7 of 40 searches were cut
 * to the transformers model's 512 tokens (their rest not read)", with the items that hold a cut one;
 * undefined when no item recorded a dense search. The same for every system that searches.
 */
export function denseSearchesCutLine(
  counts: readonly (DenseSearchCount | undefined)[],
): { line: string; searches: number; cut: number; items: number; similarityQueries?: { embedded: number; cut: number } } | undefined {
  const given = counts.filter((c): c is DenseSearchCount => !!c);
  if (!given.length) return undefined;
  const searches = given.reduce((a, c) => a + c.searches, 0);
  const cut = given.reduce((a, c) => a + c.cut, 0);
  const items = given.filter((c) => c.cut > 0).length;
  const limits = [...new Set(given.map((c) => `the ${c.provider} model's ${c.maxTokens} tokens`))].join(' or ');
  const n = (x: number) => x.toLocaleString('en-US');
  // the learned selector's similarity queries: embedded, not searched, so counted apart
  const sim = given.reduce((a, c) => ({ embedded: a.embedded + (c.similarityQueries?.embedded ?? 0), cut: a.cut + (c.similarityQueries?.cut ?? 0) }), {
    embedded: 0,
    cut: 0,
  });
  const line =
    `${n(cut)} of ${n(searches)} dense ${searches === 1 ? 'search was' : 'searches were'} cut to ${limits} (their rest not read)` +
    (cut ? ` in ${n(items)} of ${n(counts.length)} items: their rankings, and every figure made from them, read the query's start only` : '') +
    (sim.embedded
      ? `; apart from them, ${n(sim.cut)} of ${n(sim.embedded)} similarity ${sim.embedded === 1 ? 'query' : 'queries'} (the learned evidence selector's dense signals, not searches) ${sim.cut === 1 ? 'was' : 'were'} cut${sim.cut ? ': the selector read their start only' : ''}`
      : '');
  return { line, searches, cut, items, ...(sim.embedded ? { similarityQueries: sim } : {}) };
}

/** The first 40 characters of a query, on one line, quoted. */
const startOf = (q: string) => {
  const flat = q.replace(/\s+/g, ' ').trim();
  return `"${flat.length > 40 ? `${flat.slice(0, 40)}…` : flat}"`;
};

/**
 * Most queries a counter remembers having seen (least recently seen forgotten first), as 128-bit
 * digests of rule and text (~100 bytes each, not the query): a retriever that lives as long as
 * `lexcase serve` or the MCP server keeps at most this many however many queries it answers. A
 * `--topics` batch or `eval retrieval` counts exactly while each query comes back within this many
 * others (a batch sees each topic once, a search past a tie again at once); one forgotten and
 * searched again counts again.
 */
export const QUERY_CUT_MEMORY = 10_000;

/**
 * A counter of one retriever's queries: `see` each query as it is embedded, `counts` for
 * queriesReadInPart (distinct queries and those cut); `remembered`: how many it holds (at most
 * `memory`, QUERY_CUT_MEMORY).
 */
export function createQueryCutCounter(embedder: Embedder, maxWords?: number, memory = QUERY_CUT_MEMORY) {
  const seen = new Set<string>();
  let of = 0;
  let cut = 0;
  let maxTokens: number | undefined;
  return {
    see(query: string, rule: DenseQueryRule): void {
      if (!embedder.tokenLimit) return;
      const key = createHash('sha256').update(JSON.stringify(rule)).update('\u0000').update(query).digest('base64url').slice(0, 22);
      if (seen.has(key)) {
        // seen again: the most recent now
        seen.delete(key);
        seen.add(key);
        return;
      }
      seen.add(key);
      if (seen.size > memory) seen.delete(seen.values().next().value as string);
      of++;
      const r = queryReadInPart(embedder, query, rule, maxWords);
      if (!r) return;
      maxTokens = r.maxTokens;
      if (!r.cut) return;
      // said on the calling thread only: a batch's worker threads (eval/trec/search-worker.ts) leave it to its count over the topics
      if (++cut === 1 && isMainThread)
        log.warn(
          `dense: the query ${startOf(query)} is longer than the ${embedder.provider} model's ${r.maxTokens} tokens: embedded from its first ${r.maxTokens} (the rest is not read; said once, a --topics run or eval retrieval counts them)`,
        );
    },
    counts(): QueriesReadInPart | undefined {
      return maxTokens === undefined ? undefined : { provider: embedder.provider, maxTokens, of, cut };
    },
    remembered(): number {
      return seen.size;
    },
  };
}

/** "3 of 40 queries were longer than the transformers model's 512 tokens: embedded from their first 512"; undefined when none was. */
export function queriesCutNote(
  r: { queriesReadInPart?(queries?: readonly string[]): QueriesReadInPart | undefined },
  queries?: readonly string[],
): string | undefined {
  const c = r.queriesReadInPart?.(queries);
  if (!c?.cut) return undefined;
  return `${c.cut.toLocaleString('en-US')} of ${c.of.toLocaleString('en-US')} ${c.of === 1 ? 'query was' : 'queries were'} longer than the ${c.provider} model's ${c.maxTokens} tokens: embedded from their first ${c.maxTokens}`;
}

/** One search's note (`lexcase search --json` queryCut): `query` is longer than the dense model reads; undefined when it is not, or the limit is unknown. */
export function queryCutNote(
  r: { method: string; queryReadInPart?(query: string): { provider: string; maxTokens: number } | undefined },
  query: string,
): string | undefined {
  const c = r.queryReadInPart?.(query);
  if (!c) return undefined;
  const head = `the query is longer than the ${c.provider} model's ${c.maxTokens} tokens`;
  return r.method === 'dense'
    ? `${head}: embedded from its first ${c.maxTokens} (the rest is not read)`
    : `${head}: the ${r.method} ranking's dense component embedded it from its first ${c.maxTokens} (the rest is not read there; its other components read it whole)`;
}
