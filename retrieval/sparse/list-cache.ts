/**
 * The decoded-list cache's bookkeeping (issue 38 item 3): per scoring view, the bytes its cached
 * lists (decoded-postings.ts: compact lists and dense tf bytes, held in the view's kernel memory)
 * take, under a byte budget, with least-recently-used eviction.
 *
 * Eviction never changes a result: a list a query has touched is pinned until the next query on the
 * view begins (`beginQuery`, called by score-core.ts scoreTopK), so nothing the running query holds
 * is released under it; when the budget cannot be met without evicting a pinned list, the new list
 * is simply not cached (decoded into arrays of its own for this query, as short lists always are).
 * Lists are decoded from the same bytes whenever they come back, so scores are bit-identical.
 */
import { envNumber } from '../../core/env-number.js';
import { errors } from '../../core/errors.js';

/** Default budget of the decoded-list cache, in MiB, for a whole index (split over its query threads). */
export const DEFAULT_CACHE_MIB = 1024;

/** The budget for an index: `cacheMib` when given, else LEXCASE_CACHE_MIB, else DEFAULT_CACHE_MIB; in bytes. */
export function cacheBudgetBytes(cacheMib?: number, env: NodeJS.ProcessEnv = process.env): number {
  const mib = cacheMib ?? envNumber('LEXCASE_CACHE_MIB', { min: 0, unit: 'MiB' }, env) ?? DEFAULT_CACHE_MIB;
  if (!Number.isFinite(mib) || mib < 0) throw errors.invalidInput('cacheMib', `expected a number of MiB ≥ 0, got ${JSON.stringify(cacheMib)}`);
  return Math.floor(mib * 2 ** 20);
}

export interface CacheEntry {
  /** Bytes the entry holds (as allocated). */
  readonly bytes: number;
  /** The query epoch that last touched it: pinned while it is the cache's current one. */
  epoch: number;
  /** Drop it from its owner's table and release its memory. */
  evict(): void;
}

export class ListCache {
  /** Bytes held by the entries (never above `budget`). */
  bytes = 0;
  /** Largest `bytes` seen. */
  peakBytes = 0;
  evictions = 0;
  /** Lists not cached because the budget could not be met (all the rest pinned by the running query). */
  refused = 0;
  private epoch = 1;
  /** Oldest first: a touch moves an entry to the end. */
  private readonly lru = new Map<number, CacheEntry>();
  /** Entries dropped from their table while pinned: released at the next query (or when room is needed and they are no longer pinned). */
  private retired: CacheEntry[] = [];

  constructor(public budget: number) {}

  /** A new query on the view: what the last one touched is no longer pinned. */
  beginQuery(): void {
    this.epoch++;
    for (const e of this.retired) this.free(e);
    this.retired = [];
  }

  get size(): number {
    return this.lru.size;
  }

  has(key: number): boolean {
    return this.lru.has(key);
  }

  /** Mark `key` used by the running query (most recently used, pinned). */
  touch(key: number): void {
    const e = this.lru.get(key);
    if (!e) return;
    this.lru.delete(key);
    this.lru.set(key, e);
    e.epoch = this.epoch;
  }

  /** Whether `bytes` more fit without evicting anything. */
  fits(bytes: number): boolean {
    return this.bytes + bytes <= this.budget;
  }

  /** Evict least recently used entries the running query has not touched until `bytes` more fit the budget; false when they cannot. */
  makeRoom(bytes: number): boolean {
    if (bytes > this.budget) return false;
    while (this.bytes + bytes > this.budget) if (!this.evictOne()) return false;
    return true;
  }

  /** Evict the least recently used entry the running query has not touched; false when there is none. */
  evictOne(): boolean {
    for (let i = 0; i < this.retired.length; i++) {
      const e = this.retired[i];
      if (e.epoch === this.epoch) continue;
      this.retired.splice(i, 1);
      this.free(e);
      return true;
    }
    for (const [k, e] of this.lru) {
      if (e.epoch === this.epoch) continue;
      this.lru.delete(k);
      this.free(e);
      return true;
    }
    return false;
  }

  /** Hold a new entry under `key` (room made first with makeRoom), touched by the running query. */
  add(key: number, entry: Omit<CacheEntry, 'epoch'>): void {
    const e = entry as CacheEntry;
    e.epoch = this.epoch;
    this.lru.set(key, e);
    this.bytes += e.bytes;
    if (this.bytes > this.peakBytes) this.peakBytes = this.bytes;
  }

  /**
   * Take `key` out of the table (its owner dropped it, e.g. a list now held densely): released now
   * when the running query has not touched it, else at the next query.
   */
  retire(key: number): void {
    const e = this.lru.get(key);
    if (!e) return;
    this.lru.delete(key);
    if (e.epoch === this.epoch) this.retired.push(e);
    else this.free(e);
  }

  private free(e: CacheEntry): void {
    this.bytes -= e.bytes;
    this.evictions++;
    e.evict();
  }
}
