/**
 * The WebAssembly posting decoder (decode.wat, behind decodeCompact with decodeOptions.wasm) gives
 * exactly what the JavaScript decoder gives: random lists (gaps from 1 to past 2^30, so 5-byte
 * varints and doc ids past 2^28; tfs 1…300 and a few far past the 255 escape; a frequent term's
 * long runs of one-byte tf-1 postings, which the prefix skip takes 16 at a time) over random doc
 * ranges cutting them anywhere (chunk boundaries, empty ranges, one-document ranges), df 1 to
 * 50,000, in all three modes ('cache' into the view's kernel memory, 'fresh', 'scratch'): every
 * field of the compact list and every decodeStats counter equal. And an index built by the
 * project's builder ranks and scores identically with either decoder, whole and over ranges.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DECODE_WASM_BASE64 } from './decode-wasm.js';
// @ts-expect-error — a plain .mjs build script, no type declarations
import { compileWat } from '../../../scripts/compile-wat.mjs';
import { createRng } from '../../../core/rng.js';
import { scoringView, type ScoringData, type ScoringView } from '../../../indexer/sparse/scoring-view.js';
import { CHUNK_DOCS, type CompactList, decodeCompact, decodeOptions, decodeStats } from '../decoded-postings.js';
import { viewMemory } from './view-memory.js';
import { buildIndex } from '../../../indexer/build.js';
import { fromArray, tempDir, texts } from '../../../indexer/build-test-helpers.js';
import { closeSparseIndexes, openSparseIndex } from '../../open.js';
import type { SparseIndex } from '../../../indexer/sparse/sparse-index.js';
import { queryTerms } from '../query-terms.js';
import { listData, rangeView, sinkBytes, type List } from '../test-support/list-data.js';
import { geometricTexts } from '../test-support/zipf-text.js';
import { scoreTopK, type ScoreRequest } from '../score-core.js';

/** Run `f` with the WebAssembly decoder on or off (the default put back after). */
function withDecoder<T>(wasm: boolean, f: () => T): T {
  const was = decodeOptions.wasm;
  decodeOptions.wasm = wasm;
  try {
    return f();
  } finally {
    decodeOptions.wasm = was;
  }
}

/** A random list over [0, n): runs of small gaps, chunk-sized gaps, and now and then a gap past 2^28 (where it fits). */
function randomList(rng: ReturnType<typeof createRng>, n: number, df: number): List {
  const docs: number[] = [];
  const tfs: number[] = [];
  let doc = -1;
  while (docs.length < df && doc + 3 < n) {
    const r = rng.next();
    const gap = r < 0.8 ? rng.int(1, 3) : r < 0.97 ? rng.int(1, 70_000) : r < 0.995 ? rng.int(1, 2 ** 20) : rng.int(2 ** 28, 2 ** 30);
    if (doc + gap >= n) continue;
    doc += gap;
    docs.push(doc);
    const t = rng.next();
    tfs.push(t < 0.6 ? 1 : t < 0.97 ? rng.int(2, 300) : t < 0.99 ? rng.int(254, 256) : rng.int(300, 2 ** 31));
  }
  return { docs, tfs };
}

/** Scoring data over n docs whose postings file holds the lists end to end (what the decoders read). */
function scoringData(n: number, lists: List[]): ScoringData {
  return listData(n, lists, lists.map(sinkBytes));
}

/** Every field of a compact list, and the decodeStats counters its decode moved. */
function decoded(view: ScoringView, t: number, how: 'cache' | 'fresh' | 'scratch', wasm: boolean) {
  const before = { ...decodeStats };
  const c: CompactList = withDecoder(wasm, () => decodeCompact(view, t, how));
  const stats = Object.fromEntries(Object.entries(decodeStats).map(([k, v]) => [k, v - before[k as keyof typeof before]]));
  return {
    low: Array.from(c.low),
    tfs: Array.from(c.tfs),
    length: c.length,
    maxTf: c.maxTf,
    c0: c.c0,
    chunkEnd: Array.from(c.chunkEnd),
    bigTf: c.bigTf ? [...c.bigTf] : undefined,
    cached: c.cached,
    resident: c.lowOff >= 0 && c.tfOff === c.lowOff + 2 * c.length,
    stats,
  };
}

/** Two decodes field by field; an array field reports its first difference (a diff of 50,000-element arrays takes minutes). */
function sameDecode(wasm: ReturnType<typeof decoded>, js: ReturnType<typeof decoded>): void {
  for (const key of Object.keys(js) as (keyof typeof js)[]) {
    const a = wasm[key];
    const b = js[key];
    if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
      const at = a.findIndex((x, i) => x !== b[i] && JSON.stringify(x) !== JSON.stringify(b[i]));
      expect({ key, at, wasm: a[at] }).toEqual({ key, at: -1, wasm: undefined });
    } else expect({ key, wasm: a }).toEqual({ key, wasm: b });
  }
}

describe('the WebAssembly posting decoder', () => {
  it('the committed decode-wasm.ts is exactly what decode.wat compiles to (npm run build:kernel)', async () => {
    const wat = readFileSync(fileURLToPath(new URL('./decode.wat', import.meta.url)), 'utf8');
    const bytes: Uint8Array = await compileWat(wat, 'decode.wat');
    expect(Buffer.from(bytes).toString('base64')).toBe(DECODE_WASM_BASE64);
  });

  it('decodes random lists over random ranges exactly as the JavaScript decoder, field by field, in every mode', () => {
    const rng = createRng(38);
    const n = 2 ** 31;
    const dfs = [1, 1, 2, 3, 17, 64, 65, 500, 4_000, 20_000];
    const lists: List[] = [];
    for (let r = 0; r < 3; r++) for (const df of dfs) lists.push(randomList(rng, n, df));
    // Lists of a frequent term: long runs of one-byte tf-1 postings (gaps < 64), what the prefix
    // skip takes 16 at a time, broken now and then by a tf or a longer gap.
    const runs = new Set<number>();
    for (const df of [40, 3_000, 50_000]) {
      const docs: number[] = [];
      const tfs: number[] = [];
      for (let d = rng.int(0, 5); docs.length < df; ) {
        docs.push(d);
        tfs.push(rng.next() < 0.97 ? 1 : rng.int(2, 300));
        d += rng.next() < 0.98 ? rng.int(1, 63) : rng.int(64, 100_000);
      }
      if (df > 40) runs.add(lists.length);
      lists.push({ docs, tfs });
    }
    // A list of one posting past 2^30 (the first gap a 5-byte varint), and a list of every tf escape.
    lists.push({ docs: [2 ** 30 + 12_345], tfs: [300] });
    lists.push({ docs: [0, 1, 2, 3, 65_535, 65_536, 65_537], tfs: [254, 255, 256, 1, 2 ** 28, 127, 128] });
    const data = scoringData(n, lists);
    const far = lists.filter((l) => l.docs.some((d) => d >= 2 ** 28)).length;
    expect(far).toBeGreaterThan(5); // 5-byte gaps and doc ids past 2^28 are exercised
    let cut = 0;
    let escaped = 0;
    let checked = 0;
    // One view (one kernel memory) per decoder for the whole test, its range set before each decode:
    // a memory made per range (~900 of them) took most of the file's time under load.
    const jsView = rangeView(data, 0, n) as { lo: number; hi: number } & ScoringView;
    const wasmView = rangeView(data, 0, n) as { lo: number; hi: number } & ScoringView;
    lists.forEach((l, t) => {
      const last = l.docs[l.docs.length - 1];
      const ranges: [number, number][] = [
        [0, n],
        [0, 0],
        [last, last + 1],
        [last + 1, n],
        [CHUNK_DOCS, 2 * CHUNK_DOCS],
      ];
      for (let r = 0; r < 6; r++) {
        // cut at postings' own doc ids (± 1), at chunk boundaries, or anywhere
        const at = () => {
          const k = rng.next();
          if (k < 0.4) return Math.max(0, l.docs[rng.int(0, l.docs.length - 1)] + rng.int(-1, 1));
          if (k < 0.6) return rng.int(0, 40) * CHUNK_DOCS;
          return rng.int(0, n);
        };
        const a = at();
        const b = at();
        ranges.push([Math.min(a, b), Math.max(a, b)]);
      }
      // a run of consecutive postings each starting a range (every place in a 16-posting step)
      if (runs.has(t)) {
        const j0 = rng.int(0, l.docs.length - 30);
        for (let j = j0; j < j0 + 20; j++) ranges.push([l.docs[j], l.docs[j + 5]], [l.docs[j] + 1, l.docs[j + 5]]);
      }
      for (const [lo, hi] of ranges) {
        // the JS and wasm runs each on a view of its own (own kernel memory)
        for (const v of [jsView, wasmView]) {
          v.lo = lo;
          v.hi = hi;
        }
        for (const how of ['fresh', 'scratch', 'cache'] as const) {
          const js = decoded(jsView, t, how, false);
          const wasm = decoded(wasmView, t, how, true);
          sameDecode(wasm, js);
          checked++;
          if (js.length > 0 && js.length < l.docs.length) cut++;
          if (js.bigTf) escaped++;
        }
      }
    });
    expect(checked).toBeGreaterThan(1000);
    expect(cut).toBeGreaterThan(100);
    expect(escaped).toBeGreaterThan(50);
  });

  it('decodes into a view memory that already holds lists and grows under the decode: the cached lists read the same after', () => {
    const rng = createRng(7);
    const n = 80 * CHUNK_DOCS;
    // dense lists (gaps 1…16), one short one
    const dense = (df: number): List => {
      const docs: number[] = [];
      for (let d = rng.int(0, 9); docs.length < df && d < n; d += rng.int(1, 16)) docs.push(d);
      return { docs, tfs: docs.map(() => (rng.next() < 0.7 ? 1 : rng.int(2, 260))) };
    };
    const lists = [dense(120_000), dense(800), dense(240_000)];
    const data = scoringData(n, lists);
    const view = rangeView(data, 3 * CHUNK_DOCS + 11, 77 * CHUNK_DOCS - 5);
    const jsView = rangeView(data, view.lo, view.hi);
    const mem = viewMemory(view);
    const grew: number[] = [];
    const got = lists.map((_, t) => {
      const size = mem.kernel.memory.buffer.byteLength;
      const c = withDecoder(true, () => decodeCompact(view, t, 'cache'));
      grew.push(mem.kernel.memory.buffer.byteLength - size);
      return c;
    });
    // the memory grew for the first list, and again for the last, under the two cached before it
    expect(grew[0]).toBeGreaterThan(0);
    expect(grew[2]).toBeGreaterThan(0);
    lists.forEach((_, t) => {
      const c = got[t];
      expect(c.cached).toBe(true);
      const js = withDecoder(false, () => decodeCompact(jsView, t, 'fresh'));
      expect(Array.from(c.low)).toEqual(Array.from(js.low));
      expect(Array.from(c.tfs)).toEqual(Array.from(js.tfs));
      expect(Array.from(c.chunkEnd)).toEqual(Array.from(js.chunkEnd));
    });
  });
});

describe('an index scored with either decoder', () => {
  const tmp = tempDir('lexcase-decode-');
  const N = CHUNK_DOCS + 5_000;
  const VOCAB = ['court', 'appeal', 'motion', 'damages', 'contract', 'tort', 'statute', 'jury', 'verdict', 'remand', 'habeas', 'estoppel'];
  let index: SparseIndex;

  beforeAll(async () => {
    const ts = geometricTexts(createRng(38), N, VOCAB, 1, 8, 2.2);
    // tfs past the one-byte escape, in both chunks
    ts[17] = Array.from({ length: 300 }, () => 'estoppel').join(' ');
    ts[CHUNK_DOCS + 99] = Array.from({ length: 270 }, () => 'habeas remand').join(' ');
    await buildIndex(fromArray(texts(ts)), { out: tmp.dir, corpusName: 'decode', workers: 0 });
    index = await openSparseIndex(tmp.dir);
  }, 120_000);

  afterAll(async () => {
    await closeSparseIndexes();
    tmp.cleanup();
  });

  it('gives the same hits and scores, bit for bit, with the WebAssembly decoder as with the JavaScript one (whole index and ranges cutting chunks)', () => {
    const ranges: [number, number][] = [
      [0, N],
      [0, N >> 1],
      [N >> 1, N],
      [CHUNK_DOCS - 7, CHUNK_DOCS + 7],
    ];
    let hits = 0;
    for (const q of ['court appeal motion damages contract tort statute', 'habeas remand estoppel jury', 'verdict estoppel estoppel']) {
      const { ids, counts } = queryTerms(index, q);
      for (const k of [10, 1000]) {
        const reqs: ScoreRequest[] = [
          { method: 'bm25', k1: 0.9, b: 0.4, ids, counts, k },
          { method: 'qld', variant: 'textbook', mu: 2000, ids, counts, k },
        ];
        for (const [lo, hi] of ranges)
          for (const req of reqs)
            for (const strategy of ['blocked', 'exhaustive'] as const) {
              // fresh views: each decoder decodes every list itself
              const js = withDecoder(false, () => scoreTopK(scoringView(index, lo, hi), req, strategy));
              const wasm = withDecoder(true, () => scoreTopK(scoringView(index, lo, hi), req, strategy));
              expect(wasm.docs).toEqual(js.docs);
              expect(wasm.scores).toEqual(js.scores);
              hits += js.docs.length;
            }
      }
    }
    expect(hits).toBeGreaterThan(1000);
  });
});
