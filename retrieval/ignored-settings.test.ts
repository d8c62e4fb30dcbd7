/**
 * Settings a search cannot use are said, or refused, never dropped silently (found 2026-12-04: a
 * sweep over any of them printed one figure with nothing saying why):
 * - ANN knobs (nprobes, refineFactor, ef) on a dense table with no ANN index, or with an exact search;
 * - rrfK under weighted fusion (only rrf reads it);
 * - hybrid weights all 0: every fused score 0, the "ranking" the tie order — refused.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { log } from '../core/log.js';
import { buildTinyBertIndex, tinyBertPassages } from '../tests/support/tiny-bert-index.js';
import { closeSparseIndexes, openRetriever } from './open.js';

const query = 'Is a statement offered for the truth of the matter asserted hearsay?';
let tmp: string;
let dir: string;
beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'lexcase-ignored-settings-'));
  dir = join(tmp, 'ix');
  await buildTinyBertIndex(dir, tinyBertPassages().slice(0, 30));
}, 120_000);
afterAll(async () => {
  await closeSparseIndexes();
  await rm(tmp, { recursive: true, force: true });
});
afterEach(() => vi.restoreAllMocks());

const warnings = () => {
  const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
  return () => warn.mock.calls.map((c) => c.map(String).join(' '));
};
const ranked = async (method: string, opts: Record<string, unknown> = {}) =>
  (await (await openRetriever(dir, method, opts)).search(query, { k: 10 })).map((h) => [h.id, h.score]);

describe('settings a search cannot use', () => {
  it('ANN knobs on a flat dense table, or with an exact search: warned, the hits unchanged', async () => {
    const plain = await ranked('dense');
    let said = warnings();
    expect(await ranked('dense', { nprobes: 1, refineFactor: 9, ef: 1 })).toEqual(plain);
    expect(said()).toContain(
      'options "nprobes", "refineFactor", "ef" (--nprobes, --refine-factor, --ef) are ignored: the dense table has no ANN index (a flat, exact search)',
    );
    vi.restoreAllMocks();
    said = warnings();
    expect(await ranked('dense', { exact: true, nprobes: 4 })).toEqual(plain);
    expect(said()).toContain('option "nprobes" (--nprobes) is ignored: an exact search (exact / --exact) reads no ANN setting');
    vi.restoreAllMocks();
    said = warnings();
    await ranked('dense');
    expect(said().filter((m) => m.includes('ignored'))).toEqual([]);
  }, 60_000);

  it('rrfK under weighted fusion: warned, the hits those without it; under rrf it changes the scores and says nothing', async () => {
    const hybrid = { hybridMethods: 'bm25,qld', fusion: 'weighted' };
    const plain = await ranked('hybrid', hybrid);
    const said = warnings();
    expect(await ranked('hybrid', { ...hybrid, rrfK: 5 })).toEqual(plain);
    expect(said()).toContain('option "rrfK" (--rrf-k) is ignored: only rrf fusion reads it, not weighted');
    const rrf = { hybridMethods: 'bm25,qld', fusion: 'rrf' };
    expect(await ranked('hybrid', { ...rrf, rrfK: 5 })).not.toEqual(await ranked('hybrid', rrf));
    expect(said().filter((m) => m.includes('rrfK'))).toHaveLength(1);
  }, 60_000);

  it('hybrid weights all 0 are refused, naming them; one above 0 is taken', async () => {
    await expect(openRetriever(dir, 'hybrid', { hybridMethods: 'bm25,qld', weights: 'bm25=0,qld=0' })).rejects.toThrow(
      "every method's weight is 0 (bm25=0,qld=0): the fused scores would all be 0; give at least one a weight above 0",
    );
    expect((await ranked('hybrid', { hybridMethods: 'bm25,qld', weights: 'bm25=0,qld=1' })).length).toBe(10);
  }, 60_000);
});
