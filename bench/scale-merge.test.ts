/**
 * The scale plot merges result files per size and corpus (the last quiet run). A `--reuse` run
 * queried the index an earlier `--keep` run of the same work dir, corpus and seed built: the merged
 * run keeps that run's build figures. Before, 2026-12-02's refit (a full run, then 856,835 bench
 * queried again with --reuse after its first query phase was loaded) stamped "reused: built by an
 * earlier --keep run" in the build cells and fitted the bench build without 856,835.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { mergeRuns } from './scale-plot.js';
import type { ScaleResults } from './scale.js';

const read = (f: string) => JSON.parse(readFileSync(new URL(`./results/${f}`, import.meta.url), 'utf8')) as ScaleResults;
const full = read('scale-2026-12-02T07-52-11-099Z.json');
const reuse = read('scale-2026-12-02T09-09-43-319Z.json');

describe('mergeRuns', () => {
  it('a --reuse run of the same work dir, corpus and seed takes the build figures of the run that built its index', () => {
    const merged = mergeRuns([full, reuse]).find((r) => r.size === 856_835 && r.profile === 'bench')!;
    const built = full.runs.find((r) => r.size === 856_835 && r.profile === 'bench')!;
    expect(merged.queries).toEqual(reuse.runs[0].queries); // the quiet rerun's query figures
    expect(merged.build).toEqual(built.build);
    expect(merged.build?.buildS).toBe(42.73);
    expect(merged.generate).toEqual(built.generate);
  });

  it('not from another work dir or seed: the build of another index is not this one’s', () => {
    for (const options of [
      { ...reuse.options, workDir: '/elsewhere' },
      { ...reuse.options, seed: 7 },
    ]) {
      const merged = mergeRuns([full, { ...reuse, options }]).find((r) => r.size === 856_835 && r.profile === 'bench')!;
      expect(merged.reused).toBe(true);
      expect(merged.build).toBeUndefined();
    }
  });
});
