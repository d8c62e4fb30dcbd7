/**
 * In-memory inverted index over a run of documents (one build worker's share), spilled to a
 * term-sorted segment file when it holds `threshold` postings. Doc ids are global and must be
 * added in increasing order; postings are delta+varint encoded as they arrive.
 */
import type { Analyzer } from '../analyzer.js';
import { ByteSink, writePosting } from './varint.js';
import { writeSegment } from './segment-file.js';

const SURFACE_CACHE_MAX = 1_000_000;
const DICT_MAX = 4_000_000;

export class SegmentBuilder {
  private dict = new Map<string, number>();
  private surface = new Map<string, number>();
  private terms: string[] = [];
  private sinks: ByteSink[] = [];
  private last = new Int32Array(1024);
  private df = new Uint32Array(1024);
  private cf = new Float64Array(1024);
  private tfCount = new Int32Array(1024);
  private touched: number[] = [];
  /** Postings held in memory now. */
  postings = 0;
  docs = 0;

  constructor(private readonly analyzer: Analyzer) {}

  private termId(raw: string): number {
    let id = this.surface.get(raw);
    if (id !== undefined) return id;
    const t = this.analyzer.term(raw);
    if (t === null) id = -1;
    else {
      id = this.dict.get(t);
      if (id === undefined) {
        id = this.terms.length;
        this.terms.push(t);
        this.dict.set(t, id);
        this.sinks.push(new ByteSink(8));
        if (id >= this.last.length) this.growTermArrays();
        this.last[id] = -1;
      }
    }
    if (this.surface.size >= SURFACE_CACHE_MAX) this.surface.clear();
    this.surface.set(raw, id);
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
    let dl = 0;
    const touched = this.touched;
    this.analyzer.scan(text, (raw) => {
      const id = this.termId(raw);
      if (id < 0) return;
      dl++;
      if (this.tfCount[id]++ === 0) touched.push(id);
    });
    for (let i = 0; i < touched.length; i++) {
      const id = touched[i];
      const tf = this.tfCount[id];
      this.tfCount[id] = 0;
      writePosting(this.sinks[id], doc - this.last[id], tf);
      this.last[id] = doc;
      this.df[id]++;
      this.cf[id] += tf;
    }
    this.postings += touched.length;
    touched.length = 0;
    this.docs++;
    return dl;
  }

  /** True when the dictionary is so large that the next spill should also drop it. */
  get dictionaryFull(): boolean {
    return this.terms.length >= DICT_MAX;
  }

  /** Write the held postings as a segment file and start a fresh segment. */
  spill(path: string): { terms: number; postings: number } {
    const ids: number[] = [];
    for (let id = 0; id < this.terms.length; id++) if (this.df[id] > 0) ids.push(id);
    ids.sort((a, b) => (this.terms[a] < this.terms[b] ? -1 : this.terms[a] > this.terms[b] ? 1 : 0));
    writeSegment(
      path,
      ids.length,
      ids.map((id) => ({ term: this.terms[id], df: this.df[id], cf: this.cf[id], postings: this.sinks[id].view() })),
    );
    const out = { terms: ids.length, postings: this.postings };
    if (this.dictionaryFull) this.resetDictionary();
    else {
      for (const id of ids) {
        this.sinks[id] = new ByteSink(8);
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
    this.terms = [];
    this.sinks = [];
    this.last.fill(-1);
    this.df.fill(0);
    this.cf.fill(0);
  }
}
