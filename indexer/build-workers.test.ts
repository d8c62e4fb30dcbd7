/**
 * Build workers follow the cores (issue 38 item 4): `workers: 'auto'` — the default — is one per
 * usable core (os.availableParallelism()), a number is taken as given, and with more than two
 * workers each holds a share of 24M postings before spilling, so memory does not grow with the
 * cores; the index built is the same whatever the count. The CLI takes `--workers N|auto`.
 */
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { buildIndex, defaultSegmentPostings, resolveWorkers } from './build.js';
import { fromArray, tempDir, texts } from './build-test-helpers.js';
import { workersOpt } from '../src/cli/commands/index-cmd.js';
import { createRng } from '../core/rng.js';
import { zipfText } from '../retrieval/sparse/test-support/zipf-text.js';

const tmp = tempDir('lexcase-workers-');
afterAll(() => tmp.cleanup());

it("resolves 'auto' (and no option) to the usable cores, and a number as given", () => {
  expect(resolveWorkers(undefined, 8)).toBe(8);
  expect(resolveWorkers('auto', 16)).toBe(16);
  expect(resolveWorkers('auto', 1)).toBe(1);
  expect(resolveWorkers(0, 8)).toBe(0);
  expect(resolveWorkers(3.7, 8)).toBe(3);
  expect(() => resolveWorkers('many' as never, 8)).toThrow(/"auto"/);
});

it('keeps the postings held before a spill at 24M in all beyond two workers (at least 3M each)', () => {
  expect(defaultSegmentPostings(1)).toBe(12_000_000);
  expect(defaultSegmentPostings(2)).toBe(12_000_000);
  expect(defaultSegmentPostings(4)).toBe(6_000_000);
  expect(defaultSegmentPostings(16)).toBe(3_000_000);
});

it('--workers takes auto or an integer from 0 to 64', () => {
  expect(workersOpt('auto')).toBe('auto');
  expect(workersOpt('3')).toBe(3);
  expect(() => workersOpt('abc')).toThrow(/expected an integer from 0 to 64, or auto/);
  expect(() => workersOpt('65')).toThrow(/or auto/);
});

it('builds the same index with auto workers (small segments, several spilled per worker) as on the main thread', async () => {
  const rng = createRng(4);
  const ps = texts(Array.from({ length: 1500 }, () => zipfText(rng, 200, rng.int(5, 40))));
  const a = await buildIndex(fromArray(ps), { out: join(tmp.dir, 'main'), corpusName: 'w', workers: 0 });
  const b = await buildIndex(fromArray(ps), { out: join(tmp.dir, 'auto'), corpusName: 'w', workers: 'auto', segmentPostings: 5000 });
  expect(b.sparse!.segments).toBeGreaterThan(1);
  const sparse = Object.keys(a.checksums).filter((x) => x.startsWith('sparse/'));
  expect(sparse.length).toBeGreaterThanOrEqual(3);
  for (const f of sparse) expect(b.checksums[f], f).toBe(a.checksums[f]);
}, 60_000);
