/**
 * Posting codec conformance (docs/index-format.md, "Changing the format"): the posting format has
 * two writers (ByteSink + writePosting in indexer/sparse/varint.ts, PostingPool in
 * indexer/sparse/posting-pool.ts) and several decoders kept apart on purpose, for speed —
 * readVarint/decodePostings (varint.ts, the segment merge), decodeCompact behind compactPostings,
 * decodedPostings and denseTfs (decoded-postings.ts, scoring) and termFrequency (term-frequency.ts,
 * explain). Random posting lists — gaps and tfs of every varint length (1–5 bytes, up to 2^32 − 1),
 * tfs across the 8-bit and 16-bit escapes, lists sparse and dense, over doc ranges that cut the
 * 65,536-doc chunks — come out of every decoder exactly as they went in, read from memory and from
 * a file descriptor; and an index built through the real pipeline (spilled segments, merged) gives
 * every decoder the brute-force term frequencies.
 */
import fc from 'fast-check';
import { closeSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { decodePostings, readVarint, writeVarint } from '../../indexer/sparse/varint.js';
import { PostingPool } from '../../indexer/sparse/posting-pool.js';
import { scoringView, type ScoringData, type ScoringView } from '../../indexer/sparse/scoring-view.js';
import { buildIndex } from '../../indexer/build.js';
import { BruteForce, fromArray, tempDir, texts } from '../../indexer/build-test-helpers.js';
import { createRng } from '../../core/rng.js';
import { CHUNK_DOCS, compactPostings, compactTf, decodedPostings, denseTfs, TF_ESCAPE, DENSE_ONLY_SHARE } from './decoded-postings.js';
import { termFrequency } from './term-frequency.js';
import { closeSparseIndexes, openSparseIndex } from '../open.js';
import { listData, rangeView, sinkBytes, type List } from './test-support/list-data.js';

const tmp = tempDir('lexcase-codec-');
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

/** One posting list: strictly increasing doc ids ≥ 0 and tfs ≥ 1. */

const U32_MAX = 2 ** 32 - 1;
/** Largest doc id whose gap from −1 still fits a varint of gap·2 + 1 < 2^32. */
const DOC_MAX = 2 ** 31 - 2;

/** tfs from every varint length and across both escapes (255 in the compact form, 65,535 in the wide one). */
const tfArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant(1) },
  { weight: 4, arbitrary: fc.integer({ min: 2, max: 127 }) },
  { weight: 2, arbitrary: fc.integer({ min: 128, max: 300 }) },
  { weight: 1, arbitrary: fc.constantFrom(254, 255, 256, 16383, 16384, 65534, 65535, 65536, 2 ** 21 - 1, 2 ** 21, 2 ** 28 - 1, 2 ** 28, U32_MAX) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: U32_MAX }) },
);

/** A list over [0, n): gaps small (dense lists), chunk-sized, or up to the largest a varint holds. */
const listArb = (n: number) =>
  fc
    .array(
      fc.record({
        gap: fc.oneof(
          { weight: 8, arbitrary: fc.integer({ min: 1, max: 3 }) },
          { weight: 2, arbitrary: fc.integer({ min: 1, max: 70_000 }) },
          { weight: 1, arbitrary: fc.integer({ min: 1, max: DOC_MAX + 1 }) },
        ),
        tf: tfArb,
      }),
      { minLength: 0, maxLength: 400 },
    )
    .map((ps): List => {
      const docs: number[] = [];
      const tfs: number[] = [];
      let doc = -1;
      for (const p of ps) {
        if (doc + p.gap >= n) break;
        doc += p.gap;
        docs.push(doc);
        tfs.push(p.tf);
      }
      return { docs, tfs };
    });

/** A collection size: inside one chunk, a few chunks, or as many docs as a varint gap can reach. */
const sizeArb = fc.constantFrom(50, 700, 3 * CHUNK_DOCS + 123, DOC_MAX + 1);

/** The same lists written through one PostingPool, postings of all lists interleaved (as a segment's terms are). */
function poolBytes(lists: List[], seed: number): Uint8Array[] {
  const pool = new PostingPool();
  pool.ensureTerms(lists.length);
  const next = lists.map(() => 0);
  const rng = createRng(seed);
  let left = lists.reduce((s, l) => s + l.docs.length, 0);
  while (left > 0) {
    const t = rng.int(0, lists.length - 1);
    const i = next[t];
    if (i >= lists[t].docs.length) continue;
    pool.posting(t, lists[t].docs[i] - (i ? lists[t].docs[i - 1] : -1), lists[t].tfs[i]);
    next[t]++;
    left--;
  }
  return lists.map((_, t) => {
    const out = { buf: new Uint8Array(4) };
    const len = pool.copyTo(t, out);
    return out.buf.slice(0, len);
  });
}

/** What every decoder must give for `l` restricted to [lo, hi). */
const within = (l: List, lo: number, hi: number): List => {
  const docs: number[] = [];
  const tfs: number[] = [];
  l.docs.forEach((d, i) => {
    if (d >= lo && d < hi) {
      docs.push(d);
      tfs.push(l.tfs[i]);
    }
  });
  return { docs, tfs };
};

/** Walk the bytes with readVarint alone (the reference reading of the format). */
function byReadVarint(buf: Uint8Array, pos: number, count: number): List & { end: number } {
  const docs: number[] = [];
  const tfs: number[] = [];
  let doc = -1;
  for (let i = 0; i < count; i++) {
    let v: number;
    [v, pos] = readVarint(buf, pos);
    doc += Math.floor(v / 2);
    let tf = 1;
    if (v % 2 === 0) [tf, pos] = readVarint(buf, pos);
    docs.push(doc);
    tfs.push(tf);
  }
  return { docs, tfs, end: pos };
}

/** The compact form (decoded-postings.ts) read back as doc ids and tfs. */
function fromCompact(view: ScoringView, t: number): List {
  const c = compactPostings(view, t);
  const docs: number[] = [];
  const tfs: number[] = [];
  let p = 0;
  for (let k = 0; k < c.chunkEnd.length; k++) for (; p < c.chunkEnd[k]; p++) docs.push((c.c0 + k) * CHUNK_DOCS + c.low[p]);
  expect(p).toBe(c.length);
  for (let i = 0; i < c.length; i++) tfs.push(compactTf(c, i));
  return { docs, tfs };
}

/** The wide form (decodedPostings) read back, 16-bit tf escape resolved. */
function fromWide(view: ScoringView, t: number): List {
  const w = decodedPostings(view, t);
  const docs = Array.from(w.docs.subarray(0, w.length));
  const tfs = Array.from(w.tfs.subarray(0, w.length), (tf, i) => (tf === TF_ESCAPE ? w.bigTf!.get(i)! : tf));
  return { docs, tfs };
}

/** Every decoder over one view agrees with `lists` (restricted to the view's range). */
function checkDecoders(view: ScoringView, lists: List[]): void {
  lists.forEach((l, t) => {
    const want = within(l, view.lo, view.hi);
    expect(fromCompact(view, t)).toEqual(want);
    // Second call: the cached form (lists of ≥ 64 postings) reads the same.
    expect(fromCompact(view, t)).toEqual(want);
    expect(fromWide(view, t)).toEqual(want);
    const dense = denseTfs(view, t);
    if (dense) {
      expect(want.docs.length).toBeGreaterThanOrEqual(DENSE_ONLY_SHARE * (view.hi - view.lo));
      const got: List = { docs: [], tfs: [] };
      dense.tfs.subarray(0, view.hi - view.lo).forEach((tf, i) => {
        if (tf) {
          got.docs.push(view.lo + i);
          got.tfs.push(tf);
        }
      });
      expect(got).toEqual(want);
      // Held densely from now on: the compact and wide forms are decoded afresh and still agree.
      expect(fromCompact(view, t)).toEqual(want);
      expect(fromWide(view, t)).toEqual(want);
    }
    // termFrequency reads the whole list (ignores the range): every posting, and docs between them.
    l.docs.forEach((d, i) => {
      expect(termFrequency(view, t, d)).toBe(l.tfs[i]);
      if (i === 0 || l.docs[i - 1] < d - 1) expect(termFrequency(view, t, d - 1)).toBe(0);
    });
    if (l.docs.length) expect(termFrequency(view, t, l.docs[l.docs.length - 1] + 1)).toBe(0);
  });
}

/** Doc ranges a view can cover: the whole collection, halves, and a range cutting a chunk boundary. */
function ranges(n: number): [number, number][] {
  const out: [number, number][] = [
    [0, n],
    [0, n >> 1],
    [n >> 1, n],
  ];
  if (n > CHUNK_DOCS + 10) out.push([CHUNK_DOCS - 7, CHUNK_DOCS + 9]);
  return out;
}

it('both writers write the same bytes, and every decoder reads back every list exactly (memory and file descriptor)', () => {
  let run = 0;
  fc.assert(
    fc.property(
      sizeArb.chain((n) => fc.tuple(fc.constant(n), fc.array(listArb(n), { minLength: 1, maxLength: 6 }))),
      fc.integer({ min: 0, max: 2 ** 30 }),
      ([n, lists], seed) => {
        const bytes = lists.map(sinkBytes);
        expect(poolBytes(lists, seed)).toEqual(bytes);
        const data = listData(n, lists, bytes);
        lists.forEach((l, t) => {
          const start = data.offsets[t];
          const end = data.offsets[t + 1];
          // decodePostings: whole list, and split in two with the doc carried over (as the segment merge does).
          const docs = new Array<number>(l.docs.length);
          const tfs = new Array<number>(l.docs.length);
          expect(decodePostings(data.postings, start, l.docs.length, docs, tfs)).toBe(end);
          expect({ docs, tfs }).toEqual(l);
          const cut = l.docs.length >> 1;
          const a = { docs: new Array<number>(cut), tfs: new Array<number>(cut) };
          const b = { docs: new Array<number>(l.docs.length - cut), tfs: new Array<number>(l.docs.length - cut) };
          const mid = decodePostings(data.postings, start, cut, a.docs, a.tfs);
          expect(decodePostings(data.postings, mid, l.docs.length - cut, b.docs, b.tfs, cut ? a.docs[cut - 1] : -1)).toBe(end);
          expect({ docs: [...a.docs, ...b.docs], tfs: [...a.tfs, ...b.tfs] }).toEqual(l);
          // Into typed arrays (what the merge passes): doc ids fit Uint32, tfs too.
          const du = new Uint32Array(l.docs.length);
          const tu = new Uint32Array(l.docs.length);
          decodePostings(data.postings, start, l.docs.length, du, tu);
          expect({ docs: Array.from(du), tfs: Array.from(tu) }).toEqual(l);
          const ref = byReadVarint(data.postings, start, l.docs.length);
          expect(ref.end).toBe(end);
          expect({ docs: ref.docs, tfs: ref.tfs }).toEqual(l);
        });
        for (const [lo, hi] of ranges(n)) checkDecoders(rangeView(data, lo, hi), lists);
        // The same bytes read per list through a file descriptor (how large indexes are served).
        const file = join(tmp.dir, `postings-${run++}.bin`);
        writeFileSync(file, data.postings);
        const fd = openSync(file, 'r');
        try {
          const onDisk: ScoringData = { ...data, postings: new Uint8Array(0), postingsFd: fd, postingsFile: file };
          checkDecoders(rangeView(onDisk, 0, n), lists);
        } finally {
          closeSync(fd);
        }
      },
    ),
    { numRuns: 60, seed: 28 },
  );
});

it('varints of every length round-trip, and a posting costs one varint when tf = 1', () => {
  const buf = new Uint8Array(5);
  for (const v of [0, 1, 127, 128, 16383, 16384, 2 ** 21 - 1, 2 ** 21, 2 ** 28 - 1, 2 ** 28, 2 ** 31 - 1, 2 ** 31, U32_MAX]) {
    const end = writeVarint(buf, 0, v);
    expect(end).toBe(v < 2 ** 7 ? 1 : v < 2 ** 14 ? 2 : v < 2 ** 21 ? 3 : v < 2 ** 28 ? 4 : 5);
    expect(readVarint(buf, 0)).toEqual([v, end]);
  }
  expect(sinkBytes({ docs: [0, 5], tfs: [1, 3] })).toEqual(Uint8Array.from([1 * 2 + 1, 5 * 2, 3]));
});

it('an index built through spilled and merged segments gives every decoder the brute-force term frequencies', async () => {
  const rng = createRng(2828);
  const vocab = ['tort', 'contract', 'lease', 'duty', 'breach', 'damages', 'notice', 'estoppel', 'waiver', 'remedy'];
  const ts: string[] = [];
  for (let i = 0; i < 1500; i++) {
    const words: string[] = [];
    const len = rng.int(1, 12);
    // Skewed: low ranks are frequent (dense lists), high ranks rare; one passage repeats a word 300 times.
    for (let j = 0; j < len; j++) words.push(vocab[Math.min(vocab.length - 1, Math.floor(-Math.log(1 - rng.next()) * 2))]);
    ts.push(i === 777 ? Array.from({ length: 300 }, () => 'remedy').join(' ') : words.join(' '));
  }
  const passages = texts(ts);
  const dir = join(tmp.dir, 'built');
  // Tiny segments: the postings are spilled, decoded by decodePostings and re-encoded by the merge.
  await buildIndex(fromArray(passages), { out: dir, corpusName: 'codec', workers: 0, segmentPostings: 500, batchPassages: 100 });
  const index = await openSparseIndex(dir);
  const bf = new BruteForce(index.analyzer, passages);
  const lists: List[] = index.terms.map((term) => {
    const docs: number[] = [];
    const tfs: number[] = [];
    bf.docs.forEach((m, d) => {
      const tf = m.get(term);
      if (tf) {
        docs.push(d);
        tfs.push(tf);
      }
    });
    return { docs, tfs };
  });
  expect(index.terms.length).toBe(bf.df.size);
  expect(lists.some((l) => l.tfs.includes(300))).toBe(true);
  lists.forEach((l, t) => {
    const docs: number[] = [];
    const tfs: number[] = [];
    decodePostings(index.postings, index.offsets[t], index.df[t], docs, tfs);
    expect({ docs, tfs }).toEqual(l);
  });
  for (const [lo, hi] of ranges(index.N)) checkDecoders(scoringView(index, lo, hi), lists);
  // Some lists are held densely on the whole range, some stay compact.
  const whole = scoringView(index, 0, index.N);
  const dense = lists.filter((_, t) => denseTfs(whole, t)).length;
  expect(dense).toBeGreaterThan(0);
  expect(dense).toBeLessThan(lists.length);
}, 120_000);
