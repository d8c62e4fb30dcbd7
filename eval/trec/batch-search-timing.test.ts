/**
 * `search --topics --threads N`'s "search time" (audit: with N > 1 it included starting the worker
 * threads and opening the index in each, while with one thread the index is opened before timing,
 * so more threads read as slower). The search is now timed from the first topic handed out, every
 * worker having opened the index, and the start-up is reported apart (latency.startMs). The clock
 * is injected: each reading advances it 1,000 ms, so the spans are counts of readings.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../indexer/build.js';
import { fromArray, tempDir } from '../../indexer/build-test-helpers.js';
import { openRetriever } from '../../retrieval/open.js';
import { batchSearch } from './batch-search.js';

const tmp = tempDir('lexcase-batch-timing-');
const idx = `${tmp.dir}/idx`;
const passages = [
  { id: 'easement', text: 'An easement by prescription arises from open, notorious and continuous use of a path for the statutory period.' },
  { id: 'adverse', text: 'Adverse possession requires actual, open, hostile and continuous possession of the land.' },
  { id: 'hearsay', text: 'Hearsay is an out-of-court statement offered to prove the truth of the matter asserted.' },
  { id: 'contract', text: 'A contract requires offer, acceptance and consideration; a promise without consideration is not enforceable.' },
];
const topics = [
  { id: 'q1', text: 'prescriptive easement over a path' },
  { id: 'q2', text: 'hearsay statement' },
  { id: 'q3', text: 'consideration for a promise' },
];

beforeAll(async () => {
  await buildIndex(fromArray(passages.map((p) => ({ ...p, source: 'toy' }))), { out: idx, workers: 0 });
}, 60_000);
afterAll(() => tmp.cleanup());

/** A clock that reads 0, 1000, 2000, … ms: one step a reading. */
const ticking = () => {
  let t = -1000;
  return () => (t += 1000);
};

describe('batch search time', () => {
  it('on worker threads starts once every worker has opened the index; the start-up is reported apart', async () => {
    const r = await batchSearch(await openRetriever(idx, 'bm25'), topics, { k: 2, threads: 2, source: { index: idx, method: 'bm25' }, now: ticking() });
    expect(r.threads).toBe(2);
    // readings: the call (0), every worker ready (1000), the end (2000): the per-topic times are the workers' own
    expect(r.latency).toMatchObject({ startMs: 1000, wallMs: 1000 });
    expect([...r.run.keys()].sort()).toEqual(['q1', 'q2', 'q3']);
  });

  it('on the calling thread has no start-up (its index is opened before) and times the same span', async () => {
    const r = await batchSearch(await openRetriever(idx, 'bm25'), topics, { k: 2, now: ticking() });
    expect(r.threads).toBe(1);
    // readings: the call (0), each topic's start and end (1000 … 6000), the end (7000)
    expect(r.latency).toMatchObject({ startMs: 0, wallMs: 7000, totalMs: 3000 });
  });
});
