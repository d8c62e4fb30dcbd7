/**
 * Merge term-sorted segment files into the final sparse index files (format.ts). Memory holds one
 * read buffer per segment, the per-term statistics and one term's postings at a time.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { HashingFile } from './hashing-file.js';
import { SegmentReader } from './segment-file.js';
import { SPARSE_FILES } from './format.js';
import { ByteSink, decodePostings, writePosting } from './varint.js';
import { BlockRows, writeBlockRows, type BlockBoundsSection, type BlockBoundsSpec } from './block-bounds.js';

export interface MergeResult {
  terms: number;
  postings: number;
  bytes: number;
  checksums: Record<string, string>;
  /** The block bounds written (block-bounds.ts), when the merge was asked for them. */
  blockBounds?: { section: BlockBoundsSection; sha256: string };
}

const enc = new TextEncoder();

/** Merge `segmentPaths` into the sparse files of `outDir`; with `bounds`, the block bounds too (from the postings as they are merged). */
export function mergeSegments(segmentPaths: string[], outDir: string, removeSegments = true, bounds?: BlockBoundsSpec): MergeResult {
  const rows = bounds ? new BlockRows(bounds) : undefined;
  const termsFile = new HashingFile(join(outDir, SPARSE_FILES.terms));
  const postingsFile = new HashingFile(join(outDir, SPARSE_FILES.postings), 1 << 22);
  const merged = mergeTermRange(
    segmentPaths.map((path) => ({ path })),
    undefined,
    undefined,
    termsFile,
    postingsFile,
    rows,
  );
  const checksums: Record<string, string> = {};
  checksums[SPARSE_FILES.terms] = termsFile.close();
  const bytes = postingsFile.bytesWritten;
  checksums[SPARSE_FILES.postings] = postingsFile.close();
  const offsets = new Float64Array(merged.ends.length + 1);
  offsets.set(merged.ends, 1);
  writeStatFiles(outDir, Uint32Array.from(merged.df), Float64Array.from(merged.cf), offsets, checksums);
  if (removeSegments) for (const p of segmentPaths) rmSync(p, { force: true });
  const blockBounds = bounds && rows ? writeBlockRows(outDir, bounds, [rows.part()], [0]) : undefined;
  return { terms: merged.df.length, postings: merged.postings, bytes, checksums, ...(blockBounds ? { blockBounds } : {}) };
}

/** Write df.u32, cf.f64 and offsets.f64; their checksums land in `checksums`. */
export function writeStatFiles(outDir: string, df: Uint32Array, cf: Float64Array, offsets: Float64Array, checksums: Record<string, string>): void {
  const write = (name: string, a: ArrayBufferView) => {
    const f = new HashingFile(join(outDir, name));
    f.writeTyped(a);
    checksums[name] = f.close();
  };
  write(SPARSE_FILES.df, df);
  write(SPARSE_FILES.cf, cf);
  write(SPARSE_FILES.offsets, offsets);
}

/** A segment file to merge, optionally from a sampled record on (SegmentReader's `from`). */
export interface MergeSource {
  path: string;
  from?: { offset: number; index: number };
}

/**
 * Merge the terms t with lo ≤ t < hi (a missing bound: no limit) of the sources: terms joined by
 * "\n" into `termsFile`, postings into `postingsFile`. Returns per term df, cf and the end of its
 * postings in `postingsFile` (bytes from where this call started). With `rows`, each long term's
 * block bounds row (by its index among this call's terms) from its merged postings.
 */
export function mergeTermRange(
  sources: MergeSource[],
  lo: string | undefined,
  hi: string | undefined,
  termsFile: HashingFile,
  postingsFile: HashingFile,
  rows?: BlockRows,
): { df: number[]; cf: number[]; ends: number[]; postings: number } {
  const minRow = rows ? rows.spec.minPostings : Infinity;
  const readers = sources.map((s) => new SegmentReader(s.path, 1 << 22, s.from));
  for (const r of readers) {
    r.next();
    if (lo !== undefined) while (!r.done && r.term < lo) r.next();
  }
  const base = postingsFile.bytesWritten;
  const df: number[] = [];
  const cf: number[] = [];
  const ends: number[] = [];
  let postingsTotal = 0;
  let first = true;
  const sink = new ByteSink(1 << 16);
  let docsA = new Uint32Array(1024);
  let tfsA = new Uint32Array(1024);
  const nl = enc.encode('\n');

  for (;;) {
    let term: string | undefined;
    for (const r of readers) if (!r.done && (term === undefined || r.term < term)) term = r.term;
    if (term === undefined || (hi !== undefined && term >= hi)) break;
    let tdf = 0;
    let tcf = 0;
    const parts: SegmentReader[] = [];
    for (const r of readers) {
      if (!r.done && r.term === term) {
        parts.push(r);
        tdf += r.df;
        tcf += r.cf;
      }
    }
    if (parts.length === 1) {
      postingsFile.write(parts[0].postings);
      if (tdf >= minRow) {
        if (tdf > docsA.length) {
          docsA = new Uint32Array(tdf * 2);
          tfsA = new Uint32Array(tdf * 2);
        }
        decodePostings(parts[0].postings, 0, tdf, docsA, tfsA);
        rows!.add(df.length, docsA, tfsA, tdf);
      }
    } else {
      if (tdf > docsA.length) {
        docsA = new Uint32Array(tdf * 2);
        tfsA = new Uint32Array(tdf * 2);
      }
      // Decode every part after the previous ones, then order by doc (parts interleave across workers).
      // A part that starts above where the previous one ends continues its run: one worker's
      // segments follow each other in doc order, so there are as many runs as workers, not segments
      // (the merge's cost per switch between runs grows with the runs, and segments with the corpus).
      let n = 0;
      const runs: number[] = [];
      for (const p of parts) {
        decodePostings(p.postings, 0, p.df, docsA.subarray(n), tfsA.subarray(n));
        if (n > 0 && docsA[n] > docsA[n - 1]) runs[runs.length - 1] += p.df;
        else runs.push(p.df);
        n += p.df;
      }
      let docs: Uint32Array = docsA.subarray(0, n);
      let tfs: Uint32Array = tfsA.subarray(0, n);
      if (runs.length > 1) [docs, tfs] = mergeRuns(runs, docs, tfs);
      sink.len = 0;
      let prev = -1;
      for (let i = 0; i < n; i++) {
        writePosting(sink, docs[i] - prev, tfs[i]);
        prev = docs[i];
      }
      postingsFile.write(sink.view());
      if (tdf >= minRow) rows!.add(df.length, docs, tfs, n);
    }
    if (!first) termsFile.write(nl);
    termsFile.write(enc.encode(term));
    first = false;
    df.push(tdf);
    cf.push(tcf);
    postingsTotal += tdf;
    ends.push(postingsFile.bytesWritten - base);
    for (const p of parts) p.next();
  }
  for (const r of readers) r.close();
  return { df, cf, ends, postings: postingsTotal };
}

/**
 * Merge consecutive sorted runs (lengths `runs`) of (doc, tf) into one doc-sorted list. Runs come
 * from workers that took alternating batches, so they interleave in long stretches: copy from the
 * smallest head while it stays below the second smallest.
 */
function mergeRuns(runs: number[], docs: Uint32Array, tfs: Uint32Array): [Uint32Array, Uint32Array] {
  const n = docs.length;
  const S = runs.length;
  const pos = new Int32Array(S);
  const end = new Int32Array(S);
  let acc = 0;
  for (let s = 0; s < S; s++) {
    pos[s] = acc;
    acc += runs[s];
    end[s] = acc;
  }
  const d2 = new Uint32Array(n);
  const t2 = new Uint32Array(n);
  let o = 0;
  while (o < n) {
    let best = -1;
    let second = Infinity;
    for (let s = 0; s < S; s++) {
      if (pos[s] >= end[s]) continue;
      const h = docs[pos[s]];
      if (best < 0 || h < docs[pos[best]]) {
        if (best >= 0) second = Math.min(second, docs[pos[best]]);
        best = s;
      } else second = Math.min(second, h);
    }
    let p = pos[best];
    const e = end[best];
    do {
      d2[o] = docs[p];
      t2[o++] = tfs[p++];
    } while (p < e && docs[p] < second);
    pos[best] = p;
  }
  return [d2, t2];
}
