/**
 * The segment merge split by term range, so two build workers can each merge half of the terms at
 * the same time (the merge was single-threaded on the critical path, the other core idle):
 *
 *   planSplit    picks a split term from the segments' sampled records (segment-file.ts) so the two
 *                ranges hold about the same postings bytes, and where each segment's upper range starts;
 *   mergeRangeToParts  (in a worker) merges one range into `<prefix>.postings` / `<prefix>.terms`;
 *   joinRanges   (main thread) concatenates the ranges into the final sparse files, hashing them.
 *
 * Terms are ordered by UTF-16 code units everywhere (as `<` compares strings), so range 0 (terms <
 * split) followed by range 1 (terms ≥ split) is byte for byte what one merge over all terms writes.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { HashingFile } from './hashing-file.js';
import { SPARSE_FILES } from './format.js';
import { mergeTermRange, writeStatFiles, type MergeResult, type MergeSource } from './merge-segments.js';
import type { SegmentInfo } from './segment-spiller.js';
import { BlockRows, writeBlockRows, type BlockBoundsSpec, type BlockRowsPart } from './block-bounds.js';

/** One range's work: the sources (from where to read) and its bounds. */
export interface RangeJob {
  sources: MergeSource[];
  lo?: string;
  hi?: string;
  /** Derive the range's block bounds rows too (doclen in a SharedArrayBuffer: not copied per worker). */
  bounds?: BlockBoundsSpec;
}

/** What a worker sends back for its range. */
export interface RangeOutput {
  df: Uint32Array;
  cf: Float64Array;
  /** End of each term's postings in `<prefix>.postings`. */
  ends: Float64Array;
  postings: number;
  /** The range's block bounds rows (ids from the range's first term), when the job asked for them. */
  bounds?: BlockRowsPart;
}

/** First sample of `s` whose term is ≥ `t` (its offset; the file's end bytes when none). */
function offsetAtOrAbove(s: SegmentInfo, t: string, fileEnd: number): number {
  for (const x of s.samples) if (x.term >= t) return x.offset;
  return fileEnd;
}

/**
 * Two ranges of about equal postings bytes, or null when there is nothing worth splitting (fewer
 * than two sampled records in all). `sizes[i]` is the byte size of segment i.
 */
export function planSplit(segments: SegmentInfo[], sizes: number[]): [RangeJob, RangeJob] | null {
  const candidates = [...new Set(segments.flatMap((s) => s.samples.slice(1).map((x) => x.term)))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  if (candidates.length === 0) return null;
  const total = sizes.reduce((a, b) => a + b, 0);
  let split = candidates[0];
  let bestGap = Infinity;
  // Bytes below a candidate grow with it: binary search for the one nearest half.
  let lo = 0;
  let hi = candidates.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const below = segments.reduce((a, s, i) => a + offsetAtOrAbove(s, candidates[mid], sizes[i]), 0);
    if (Math.abs(below - total / 2) < bestGap) {
      bestGap = Math.abs(below - total / 2);
      split = candidates[mid];
    }
    if (below < total / 2) lo = mid + 1;
    else hi = mid - 1;
  }
  const upper: MergeSource[] = segments.map((s) => {
    // The last sample below the split: the reader starts there and skips up to the split.
    let from: { offset: number; index: number } | undefined;
    for (const x of s.samples) if (x.term < split) from = { offset: x.offset, index: x.index };
    return { path: s.path, ...(from ? { from } : {}) };
  });
  return [
    { sources: segments.map((s) => ({ path: s.path })), hi: split },
    { sources: upper, lo: split },
  ];
}

/** Merge one range into `<prefix>.postings` and `<prefix>.terms` (run in a build worker). */
export function mergeRangeToParts(job: RangeJob, prefix: string): RangeOutput {
  const termsFile = new HashingFile(`${prefix}.terms`);
  const postingsFile = new HashingFile(`${prefix}.postings`, 1 << 22);
  const rows = job.bounds ? new BlockRows(job.bounds) : undefined;
  const r = mergeTermRange(job.sources, job.lo, job.hi, termsFile, postingsFile, rows);
  termsFile.close();
  postingsFile.close();
  return {
    df: Uint32Array.from(r.df),
    cf: Float64Array.from(r.cf),
    ends: Float64Array.from(r.ends),
    postings: r.postings,
    ...(rows ? { bounds: rows.part() } : {}),
  };
}

/** Append the whole of file `path` to `out`. */
function appendFile(out: HashingFile, path: string, chunk: Uint8Array): void {
  const fd = openSync(path, 'r');
  try {
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      out.write(chunk.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
}

/** Concatenate the ranges (in term order) written under `prefixes` into the final sparse files of `outDir` (and their block bounds rows, with `bounds`). */
export function joinRanges(prefixes: string[], outputs: RangeOutput[], outDir: string, bounds?: BlockBoundsSpec): MergeResult {
  const termsFile = new HashingFile(join(outDir, SPARSE_FILES.terms));
  const postingsFile = new HashingFile(join(outDir, SPARSE_FILES.postings), 1 << 22);
  const chunk = new Uint8Array(1 << 22);
  const nl = new Uint8Array([10]);
  const terms = outputs.reduce((a, o) => a + o.df.length, 0);
  const df = new Uint32Array(terms);
  const cf = new Float64Array(terms);
  const offsets = new Float64Array(terms + 1);
  let t = 0;
  let postings = 0;
  prefixes.forEach((prefix, i) => {
    const o = outputs[i];
    if (o.df.length === 0) return;
    if (t > 0) termsFile.write(nl);
    appendFile(termsFile, `${prefix}.terms`, chunk);
    const base = postingsFile.bytesWritten;
    appendFile(postingsFile, `${prefix}.postings`, chunk);
    df.set(o.df, t);
    cf.set(o.cf, t);
    for (let k = 0; k < o.ends.length; k++) offsets[t + k + 1] = base + o.ends[k];
    t += o.df.length;
    postings += o.postings;
  });
  const checksums: Record<string, string> = {};
  checksums[SPARSE_FILES.terms] = termsFile.close();
  const bytes = postingsFile.bytesWritten;
  checksums[SPARSE_FILES.postings] = postingsFile.close();
  writeStatFiles(outDir, df, cf, offsets, checksums);
  let blockBounds: MergeResult['blockBounds'];
  if (bounds) {
    const firsts: number[] = [];
    outputs.reduce((first, o) => (firsts.push(first), first + o.df.length), 0);
    blockBounds = writeBlockRows(
      outDir,
      bounds,
      outputs.map((o) => o.bounds ?? { ids: new Uint32Array(0), minDl: new Uint16Array(0), maxTf: new Uint8Array(0) }),
      firsts,
    );
  }
  return { terms, postings, bytes, checksums, ...(blockBounds ? { blockBounds } : {}) };
}
