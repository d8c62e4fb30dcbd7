/**
 * In-memory inverted index over a run of documents (one build worker's share), spilled to a
 * term-sorted segment file when it holds `threshold` postings. Doc ids are global and must be
 * added in increasing order; postings are delta+varint encoded as they arrive.
 */
import { scanTokens, type Analyzer } from '../analyzer.js';
import { PostingPool } from './posting-pool.js';
import { AsciiInterner, HASH_START, MISSING } from './ascii-interner.js';
import { writeSegment, type SegmentSample } from './segment-file.js';

const SURFACE_CACHE_MAX = 1_000_000;
const DICT_MAX = 4_000_000;

/** ASCII letters and digits: what scanTokens treats as token characters in all-ASCII text. */
const WORD = new Uint8Array(128);
for (let c = 0; c < 128; c++) if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) WORD[c] = 1;
// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

export class SegmentBuilder {
  private dict = new Map<string, number>();
  private surface = new Map<string, number>();
  /** The all-ASCII scan's raw token → term id cache (-1: dropped by the analyzer). */
  private ascii = new AsciiInterner();
  private terms: string[] = [];
  private pool = new PostingPool();
  private last = new Int32Array(1024);
  private df = new Uint32Array(1024);
  private cf = new Float64Array(1024);
  private tfCount = new Int32Array(1024);
  private touched: number[] = [];
  /** Postings held in memory now. */
  postings = 0;
  docs = 0;

  /** The analyzer scans with scanTokens, so all-ASCII text may take the inlined scan. */
  private readonly fastScan: boolean;

  constructor(private readonly analyzer: Analyzer) {
    this.fastScan = analyzer.scan === scanTokens;
  }

  private termId(raw: string): number {
    let id = this.surface.get(raw);
    if (id !== undefined) return id;
    id = this.termOf(raw);
    if (this.surface.size >= SURFACE_CACHE_MAX) this.surface.clear();
    this.surface.set(raw, id);
    return id;
  }

  /** Raw token → term id (assigned on first sight), or -1 when the analyzer drops it. */
  private termOf(raw: string): number {
    let id: number | undefined;
    const t = this.analyzer.term(raw);
    if (t === null) id = -1;
    else {
      id = this.dict.get(t);
      if (id === undefined) {
        id = this.terms.length;
        this.terms.push(t);
        this.dict.set(t, id);
        if (id >= this.last.length) this.growTermArrays();
        this.pool.ensureTerms(id + 1);
        this.last[id] = -1;
      }
    }
    return id;
  }

  private growTermArrays(): void {
    const n = this.last.length * 2;
    const grow = <T extends Int32Array | Uint32Array | Float64Array>(a: T, make: (n: number) => T): T => {
      const b = make(n);
      b.set(a as never);
      return b;
    };
    this.last = grow(this.last, (k) => new Int32Array(k));
    this.df = grow(this.df, (k) => new Uint32Array(k));
    this.cf = grow(this.cf, (k) => new Float64Array(k));
    this.tfCount = grow(this.tfCount, (k) => new Int32Array(k));
  }

  /** Index one document; returns its length in index terms. */
  addDoc(doc: number, text: string): number {
    const dl = this.fastScan && !NON_ASCII.test(text) ? this.scanAscii(text) : this.scanAny(text);
    const touched = this.touched;
    const tfCount = this.tfCount;
    const last = this.last;
    const df = this.df;
    const cf = this.cf;
    const pool = this.pool;
    for (let i = 0; i < touched.length; i++) {
      const id = touched[i];
      const tf = tfCount[id];
      tfCount[id] = 0;
      pool.posting(id, doc - last[id], tf);
      last[id] = doc;
      df[id]++;
      cf[id] += tf;
    }
    this.postings += touched.length;
    touched.length = 0;
    this.docs++;
    return dl;
  }

  /** The analyzer's own scan (any text, any Analyzer); counts into tfCount/touched. */
  private scanAny(text: string): number {
    let dl = 0;
    const touched = this.touched;
    this.analyzer.scan(text, (raw) => {
      const id = this.termId(raw);
      if (id < 0) return;
      dl++;
      if (this.tfCount[id]++ === 0) touched.push(id);
    });
    return dl;
  }

  /**
   * scanTokens for all-ASCII text, inlined: a token is a run of [A-Za-z0-9] (no normalisation,
   * no surrogates, no combining marks below U+0080), so the same raw tokens in the same order.
   */
  private scanAscii(text: string): number {
    let dl = 0;
    const touched = this.touched;
    const ascii = this.ascii;
    const n = text.length;
    let start = -1;
    let h = 0;
    for (let i = 0; i <= n; i++) {
      const c = i < n ? text.charCodeAt(i) : 32;
      if (WORD[c] === 1) {
        if (start < 0) {
          start = i;
          h = HASH_START;
        }
        h = Math.imul(h ^ c, 16777619); // hashStep, inlined
        continue;
      }
      if (start < 0) continue;
      let id = ascii.get(text, start, i, h);
      if (id === MISSING) {
        id = this.termOf(text.slice(start, i));
        if (ascii.size >= SURFACE_CACHE_MAX) ascii.clear();
        ascii.set(text, start, i, h, id);
      }
      start = -1;
      if (id < 0) continue;
      dl++;
      if (this.tfCount[id]++ === 0) touched.push(id);
    }
    return dl;
  }

  /** True when the dictionary is so large that the next spill should also drop it. */
  get dictionaryFull(): boolean {
    return this.terms.length >= DICT_MAX;
  }

  /** Write the held postings as a segment file and start a fresh segment. */
  spill(path: string): { terms: number; postings: number; samples: SegmentSample[]; bytes: number } {
    const ids: number[] = [];
    for (let id = 0; id < this.terms.length; id++) if (this.df[id] > 0) ids.push(id);
    ids.sort((a, b) => (this.terms[a] < this.terms[b] ? -1 : this.terms[a] > this.terms[b] ? 1 : 0));
    const pool = this.pool;
    const scratch = { buf: new Uint8Array(1 << 16) };
    const terms = this.terms;
    const df = this.df;
    const cf = this.cf;
    function* records() {
      for (const id of ids) {
        const n = pool.copyTo(id, scratch);
        yield { term: terms[id], df: df[id], cf: cf[id], postings: scratch.buf.subarray(0, n) };
      }
    }
    const { samples, bytes } = writeSegment(path, ids.length, records());
    const out = { terms: ids.length, postings: this.postings, samples, bytes };
    pool.clear(this.terms.length);
    if (this.dictionaryFull) this.resetDictionary();
    else {
      for (const id of ids) {
        this.last[id] = -1;
        this.df[id] = 0;
        this.cf[id] = 0;
      }
    }
    this.postings = 0;
    return out;
  }

  private resetDictionary(): void {
    this.dict.clear();
    this.surface.clear();
    this.ascii.clear();
    this.terms = [];
    this.last.fill(-1);
    this.df.fill(0);
    this.cf.fill(0);
  }
}
