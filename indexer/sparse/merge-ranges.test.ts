import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createAnalyzer } from '../analyzer.js';
import { tempDir } from '../build-test-helpers.js';
import { syntheticPassagesSync } from '../../bench/synthetic.js';
import { SPARSE_FILES } from './format.js';
import { mergeSegments } from './merge-segments.js';
import { joinRanges, mergeRangeToParts, planSplit, type RangeJob } from './merge-ranges.js';
import { SegmentSpiller, type SegmentInfo } from './segment-spiller.js';

const tmp = tempDir('lexcase-merge-ranges-');
afterAll(() => tmp.cleanup());

/** Segments as two build workers write them: batches of 50 passages dealt in turn, spilled every 20K postings. */
function segments(dir: string): SegmentInfo[] {
  const texts = [...syntheticPassagesSync({ n: 4000 })].map((p) => p.text);
  const spillers = [0, 1].map((i) => new SegmentSpiller(createAnalyzer(), { segDir: dir, name: `w${i}`, threshold: 20_000 }));
  for (let b = 0, k = 0; b < texts.length; b += 50, k ^= 1) spillers[k].addBatch(b, texts.slice(b, b + 50));
  return spillers.flatMap((s) => s.finish());
}

/** sha256 of each merged file (comparing the bytes themselves with toEqual is slow). */
const files = (dir: string) =>
  Object.fromEntries(
    Object.values(SPARSE_FILES)
      .filter((f) => !/doclen|bylen/.test(f))
      .map((f) => [
        f,
        createHash('sha256')
          .update(readFileSync(join(dir, f)))
          .digest('hex'),
      ]),
  );

describe('merge split by term range', () => {
  const segDir = join(tmp.dir, 'segs');
  const serialDir = join(tmp.dir, 'serial');
  const segs = (() => {
    mkdirSync(join(serialDir, 'sparse'), { recursive: true });
    mkdirSync(segDir, { recursive: true });
    return segments(segDir);
  })();
  const serial = mergeSegments(
    segs.map((s) => s.path),
    serialDir,
    false,
  );
  const sizes = segs.map((s) => readFileSync(s.path).length);

  const runRanges = (jobs: RangeJob[], name: string) => {
    const dir = join(tmp.dir, name);
    mkdirSync(join(dir, 'sparse'), { recursive: true });
    const prefixes = jobs.map((_, i) => join(dir, `range-${i}`));
    const outputs = jobs.map((j, i) => mergeRangeToParts(j, prefixes[i]));
    return { result: joinRanges(prefixes, outputs, dir), dir };
  };

  it('two halves planned from the segment samples join into the same files as one merge, and split the postings about evenly', () => {
    expect(segs.length).toBeGreaterThan(4);
    // The spiller's sizes (what the build passes) are the files' sizes.
    expect(segs.map((s) => s.bytes)).toEqual(sizes);
    const plan = planSplit(segs, sizes)!;
    expect(plan).not.toBeNull();
    // The upper half starts some segments from a sampled record, not from their first term.
    expect(plan[1].sources.some((s) => s.from && s.from.index > 0)).toBe(true);
    const { result, dir } = runRanges(plan, 'planned');
    expect(result).toEqual(serial);
    expect(files(dir)).toEqual(files(serialDir));
    const lowBytes = readFileSync(join(dir, 'range-0.postings')).length;
    const highBytes = readFileSync(join(dir, 'range-1.postings')).length;
    expect(Math.min(lowBytes, highBytes) / Math.max(lowBytes, highBytes)).toBeGreaterThan(0.6);
  });

  it('any split term, from every segment sample, and empty ranges give the same files as one merge', () => {
    const terms = [...new Set(segs.flatMap((s) => s.samples.map((x) => x.term)))].sort();
    const picks = [terms[1], terms[Math.floor(terms.length / 3)], terms[terms.length - 1], terms[terms.length - 1] + 'zzz', '0'];
    picks.forEach((split, k) => {
      const upper = segs.map((s) => {
        let from: { offset: number; index: number } | undefined;
        for (const x of s.samples) if (x.term < split) from = { offset: x.offset, index: x.index };
        return { path: s.path, ...(from ? { from } : {}) };
      });
      const { result, dir } = runRanges(
        [
          { sources: segs.map((s) => ({ path: s.path })), hi: split },
          { sources: upper, lo: split },
        ],
        `split-${k}`,
      );
      expect(result).toEqual(serial);
      expect(files(dir)).toEqual(files(serialDir));
    });
  });
});
