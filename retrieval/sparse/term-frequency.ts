/**
 * termFrequency(view, term, doc): the tf of one (term, doc) pair, for explanations (bm25.ts and
 * qld.ts explain each query term of each passage; the offline CASE advocate explains many passages
 * for the same query terms). Not for ranking.
 *
 * A term's whole list (ignoring the view's doc range) is varint-decoded once into sorted doc ids and
 * tfs, kept per view in a small LRU cache, and each pair is then a binary search: O(log df) instead
 * of decoding the list up to the doc (O(df), and a positional read of the list for an on-disk index)
 * on every call. The cache holds at most TF_CACHE_POSTINGS postings per view (8 bytes each, a list
 * counted as at least 32); a list longer than that is scanned as before. Same tfs either way.
 */
import type { ScoringView } from '../../indexer/sparse/scoring-view.js';
import { decodePostings } from '../../indexer/sparse/varint.js';
import { listBytes } from './list-bytes.js';

/** Postings the cache of one view holds at most (16 MiB of doc ids and tfs). */
export const TF_CACHE_POSTINGS = 1 << 21;
/** What a cached list counts for at least (its arrays' and the map entry's overhead). */
const MIN_CHARGE = 32;

interface TfList {
  readonly docs: Uint32Array;
  readonly tfs: Uint32Array;
  /** The cache's clock at the list's last use. */
  used: number;
}

interface TfCache {
  readonly lists: Map<number, TfList>;
  postings: number;
  clock: number;
}

const caches = new WeakMap<ScoringView, TfCache>();

/** Lists read (decoded whole or scanned) by termFrequency in this process (what its cache saves; tests read it). */
export const termFrequencyStats = { listReads: 0 };

const charge = (df: number) => Math.max(df, MIN_CHARGE);

/** Term frequency of `doc` in `termId`'s postings (0 when absent). */
export function termFrequency(index: ScoringView, termId: number, doc: number): number {
  const df = index.df[termId];
  if (df === 0) return 0;
  if (charge(df) > TF_CACHE_POSTINGS) return scanTf(index, termId, doc);
  let cache = caches.get(index);
  if (!cache) caches.set(index, (cache = { lists: new Map(), postings: 0, clock: 0 }));
  let list = cache.lists.get(termId);
  if (!list) {
    list = decodeList(index, termId, df);
    cache.postings += charge(df);
    cache.lists.set(termId, list);
    list.used = ++cache.clock;
    if (cache.postings > TF_CACHE_POSTINGS) evict(cache);
  } else list.used = ++cache.clock; // a use stamp, not a Map reorder (deleting and re-adding the entry each call was most of the cost)
  const { docs, tfs } = list;
  let lo = 0;
  let hi = docs.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const d = docs[mid];
    if (d === doc) return tfs[mid];
    if (d < doc) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}

/** Drop the least recently used lists until the cache is within its budget (the newest list stays). */
function evict(cache: TfCache): void {
  const byAge = [...cache.lists].sort((a, b) => a[1].used - b[1].used);
  for (const [t, l] of byAge) {
    if (cache.postings <= TF_CACHE_POSTINGS) break;
    cache.lists.delete(t);
    cache.postings -= charge(l.docs.length);
  }
}

/** The whole list of `termId`: its doc ids (ascending) and tfs. */
function decodeList(index: ScoringView, termId: number, df: number): TfList {
  termFrequencyStats.listReads++;
  const { buf, pos } = listBytes(index, termId);
  const docs = new Uint32Array(df);
  const tfs = new Uint32Array(df);
  decodePostings(buf, pos, df, docs, tfs);
  return { docs, tfs, used: 0 };
}

/** Postings a long list is scanned by at a time. */
const SCAN_CHUNK = 256;
const scanDocs = new Uint32Array(SCAN_CHUNK);
const scanTfs = new Uint32Array(SCAN_CHUNK);

/** The list decoded a chunk at a time up to `doc` (lists too long to cache; exported for its test). */
export function scanTf(index: ScoringView, termId: number, doc: number): number {
  termFrequencyStats.listReads++;
  let { buf, pos } = listBytes(index, termId);
  let left = index.df[termId];
  let prev = -1;
  while (left > 0) {
    const n = Math.min(left, SCAN_CHUNK);
    pos = decodePostings(buf, pos, n, scanDocs, scanTfs, prev);
    prev = scanDocs[n - 1];
    if (prev >= doc) {
      for (let i = 0; i < n; i++) if (scanDocs[i] >= doc) return scanDocs[i] === doc ? scanTfs[i] : 0;
    }
    left -= n;
  }
  return 0;
}
