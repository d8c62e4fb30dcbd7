/**
 * The faster build (issue 18) writes the same bytes as before: postings in one block pool instead of
 * a buffer per term, an inlined scan for all-ASCII text, a shift-based varint. The expected sha256s
 * were recorded by building the same inputs with the code at commit 4c9bb11 (before this change);
 * legalDefault again on 2026-11-28, with that commit's code, when the bundled legal corpus lost the
 * 9 passages of its role-play rules (legal_corpus/SOURCE.md); the old input still gives the old sums.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../build.js';
import { createAnalyzer, type Analyzer } from '../analyzer.js';
import { tempDir } from '../build-test-helpers.js';
import { SegmentBuilder } from './segment-builder.js';
import { PostingPool } from './posting-pool.js';
import { ByteSink, writePosting } from './varint.js';
import { BLOCK_BOUNDS_FILE } from './block-bounds.js';
import { syntheticPassagesSync } from '../../bench/synthetic.js';
import { BAREXAM_PASSAGES, LEGAL_CORPUS_PASSAGES, bundledLines } from '../../tests/support/bundled-data.js';

const tmp = tempDir('lexcase-build-exact-');
afterAll(() => tmp.cleanup());

const load = (file: string): { id: string; text: string }[] =>
  bundledLines(file)
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; text: string })
    .map((r) => ({ id: r.id, text: r.text }));

/** sha256 of the sparse files, recorded from commit 4c9bb11 for the builds below (block bounds, added later, are not among them: block-bounds.test.ts). */
const BEFORE: Record<string, Record<string, string>> = {
  legalDefault: {
    'sparse/bylen.u32': '0b39c57660178f6219c4a158ee9c0d17ae741a51440040b902243285a649f11a',
    'sparse/cf.f64': '3bbd5d117fd06b654d036297e2551610f356d166b28322892a427797d02b7522',
    'sparse/df.u32': '9af6810249d143007c6360b7b3248a96066cfd03964700923b21cd35f4c56348',
    'sparse/doclen.u32': '78b95123da7c919e8a56247a62f1f68db9bed06d19c22cbfcd3ffb90eb41053c',
    'sparse/offsets.f64': '19c53524dacebe7077406510bd07c1c63dff5096ce41a18a55b1f69809ad3ec6',
    'sparse/postings.bin': '866ccebb02bf27bc4992ae98c2a2d99ea943994d988c8b66218030078fa9d8e7',
    'sparse/terms.txt': 'a3af4a77905194fa97fc5416488ff20591043ff0b2f98447700b7f0857242bde',
  },
  barexamRaw: {
    'sparse/bylen.u32': '89410a339c64093ac7e90939dd2f4d1f432f89fbeeda2bf8cc560067ef666e86',
    'sparse/cf.f64': '75f494030fe7e08b768be8311eba96ee14500efc6c0b3f9fe2797337438ccda5',
    'sparse/df.u32': '7bc2a5a2be89c88d199ceef8e8d2895893628ca5f27302051ee0a01abdc416cd',
    'sparse/doclen.u32': '925a5f91f1d723ecb244fe6f430739b81c6ccd121af03ae40a38675cf5acabe3',
    'sparse/offsets.f64': 'c61034b57f06a01b003bf8a62363b2d0ab36fa224e1b230035d476dc3b162337',
    'sparse/postings.bin': '6b9447e1dee49d6cf2e1ade66c10afa23602486b2dfaf4fa59190cf61aae05b8',
    'sparse/terms.txt': 'ba73fab45f7c685f8e79917a92d0f0aa820cc2b103cd03ad08b08f660d4b9f98',
  },
};

describe('faster sparse build', () => {
  it('builds the bundled legal corpus (4,993 passages, 2 workers, many spills) byte-identical to the previous build', async () => {
    const m = await buildIndex(load(LEGAL_CORPUS_PASSAGES), { out: join(tmp.dir, 'legal'), workers: 2, segmentPostings: 20_000, batchPassages: 100 });
    const sparse = Object.fromEntries(Object.entries(m.checksums).filter(([f]) => f.startsWith('sparse/') && f !== BLOCK_BOUNDS_FILE));
    expect(sparse).toEqual(BEFORE.legalDefault);
  }, 120_000);

  it('builds the bundled Bar Exam passages with stopwords and stemming off, in process, byte-identical to the previous build', async () => {
    const m = await buildIndex(load(BAREXAM_PASSAGES), {
      out: join(tmp.dir, 'bar'),
      workers: 0,
      segmentPostings: 50_000,
      analyzer: { stopwords: 'none', stemmer: 'none' },
    });
    const sparse = Object.fromEntries(Object.entries(m.checksums).filter(([f]) => f.startsWith('sparse/') && f !== BLOCK_BOUNDS_FILE));
    expect(sparse).toEqual(BEFORE.barexamRaw);
  }, 120_000);

  it("the inlined ASCII scan yields the same segment bytes as the analyzer's own scan, on ASCII and non-ASCII text", () => {
    const legal = load(LEGAL_CORPUS_PASSAGES).slice(0, 1500);
    const synthetic = [...syntheticPassagesSync({ n: 1500 })];
    const docs = [...legal, ...synthetic].map((p) => p.text);
    expect(docs.filter((t) => /[^\x00-\x7f]/.test(t)).length).toBeGreaterThan(100);
    expect(docs.filter((t) => !/[^\x00-\x7f]/.test(t)).length).toBeGreaterThan(1000);
    const real = createAnalyzer();
    // Same analysis, but not scanTokens itself: the builder must take its generic path.
    const generic: Analyzer = { ...real, scan: (text, emit) => real.scan(text, emit) };
    const build = (a: Analyzer, name: string) => {
      const b = new SegmentBuilder(a);
      const lengths = docs.map((t, i) => b.addDoc(i, t));
      const path = join(tmp.dir, `${name}.seg`);
      b.spill(path);
      return { lengths, bytes: readFileSync(path) };
    };
    const fast = build(real, 'fast');
    const slow = build(generic, 'slow');
    expect(fast.lengths).toEqual(slow.lengths);
    expect(fast.bytes.length).toBeGreaterThan(10_000);
    expect(Buffer.compare(fast.bytes, slow.bytes)).toBe(0);
  });

  it('the posting pool holds exactly the bytes a ByteSink per term would, across block boundaries and large values', () => {
    const terms = 300;
    const pool = new PostingPool();
    pool.ensureTerms(terms);
    const sinks = Array.from({ length: terms }, () => new ByteSink(8));
    let seed = 12345;
    const rnd = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    for (let k = 0; k < 200_000; k++) {
      // Skewed: a few terms get long chains (many 4 KiB blocks), most stay in their first blocks.
      const id = Math.floor(terms * rnd() ** 3);
      const big = rnd() < 0.01;
      const gap = big ? 1 + Math.floor(rnd() * 2_000_000_000) : 1 + Math.floor(rnd() * 300);
      const tf = rnd() < 0.7 ? 1 : 1 + Math.floor(rnd() * (big ? 100_000 : 20));
      pool.posting(id, gap, tf);
      writePosting(sinks[id], gap, tf);
    }
    const out = { buf: new Uint8Array(16) };
    for (let id = 0; id < terms; id++) {
      const n = pool.copyTo(id, out);
      expect(n).toBe(sinks[id].len);
      expect(Buffer.compare(Buffer.from(out.buf.subarray(0, n)), Buffer.from(sinks[id].view()))).toBe(0);
    }
    pool.clear(terms);
    expect(pool.copyTo(0, out)).toBe(0);
    pool.posting(7, 3, 2);
    const sink = new ByteSink(8);
    writePosting(sink, 3, 2);
    expect(Array.from(out.buf.subarray(0, pool.copyTo(7, out)))).toEqual(Array.from(sink.view()));
  });
});
