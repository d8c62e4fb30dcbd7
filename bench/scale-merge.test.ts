/**
 * The scale plot merges result files per size and corpus (the last quiet run). A `--reuse` run
 * queried the index an earlier `--keep` run of the same work dir, corpus and seed built: the merged
 * run keeps that run's build figures. Before, 2026-12-02's refit (a full run, then 856,835 bench
 * queried again with --reuse after its first query phase was loaded) stamped "reused: built by an
 * earlier --keep run" in the build cells and fitted the bench build without 856,835.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { mergeRuns, writeScaleDocs } from './scale-plot.js';
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

  it('the doc stamped from both files has the 856,835 bench row with the first run’s build and the rerun’s queries, and fits the build on it', async () => {
    // before: writeScaleDocs matched merged runs to their files by identity, and left such a run out
    const dir = mkdtempSync(join(tmpdir(), 'lexcase-scale-merge-'));
    try {
      const doc = join(dir, 'bench.md');
      const proj = join(dir, 'scale.md');
      writeFileSync(doc, '<!-- scale:begin -->\n<!-- scale:end -->\n');
      writeFileSync(proj, '<!-- scale-projection:begin -->\n<!-- scale-projection:end -->\n');
      const files = ['scale-2026-12-02T07-52-11-099Z.json', 'scale-2026-12-02T09-09-43-319Z.json'].map((f) =>
        fileURLToPath(new URL(`./results/${f}`, import.meta.url)),
      );
      const r = await writeScaleDocs(files, join(dir, 'plot.svg'), doc, proj, { dropLoaded: true });
      expect(r.runs).toBe(8);
      const md = readFileSync(doc, 'utf8');
      expect(md).toMatch(/\| 856,835 \| bench \| 42\.73 \(77\.47\) \| 730\.4 \| .*\| agent, 10 \| 0\.9 \/ 1\.8 \|/);
      expect(readFileSync(proj, 'utf8')).toMatch(/\| bench \| build wall \| 856,835, 3,000,000, 10,000,000 \|/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
