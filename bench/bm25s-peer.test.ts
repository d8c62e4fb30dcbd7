import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BM25S_ENV, resolveBm25sSrc, runBm25sPeer, topAgreement } from './bm25s-peer.js';
import { defaultScaleOptions, renderScaleMarkdown, runScale } from './scale.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lexcase-bm25s-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('where the BM25S source comes from', () => {
  it('skips the peer with one line naming the flag and the variable when none is given', () => {
    const r = resolveBm25sSrc(undefined, {});
    expect('skip' in r && r.skip).toMatch(/BM25S peer skipped: no source given \(--bm25s-src DIR or LEXCASE_BM25S_SRC=DIR/);
  });

  it('takes the flag over the variable, and refuses a dir without the bm25s package, naming it', async () => {
    const fake = join(dir, 'src-ok');
    await mkdir(join(fake, 'bm25s'), { recursive: true });
    await writeFile(join(fake, 'bm25s', '__init__.py'), '');
    expect(resolveBm25sSrc(fake, { [BM25S_ENV]: '/nonexistent' })).toEqual({ src: fake });
    expect(resolveBm25sSrc(undefined, { [BM25S_ENV]: fake })).toEqual({ src: fake });
    expect(() => resolveBm25sSrc(join(dir, 'empty'), {})).toThrow(/--bm25s-src .*empty: no bm25s\/__init__.py there/);
    expect(() => resolveBm25sSrc(undefined, { [BM25S_ENV]: join(dir, 'empty') })).toThrow(/LEXCASE_BM25S_SRC .*no bm25s/);
  });

  it("reports the python child's own error when the package does not import", async () => {
    const bad = join(dir, 'src-bad');
    await mkdir(join(bad, 'bm25s'), { recursive: true });
    await writeFile(join(bad, 'bm25s', '__init__.py'), 'raise ImportError("this bm25s needs a newer numpy")\n');
    await expect(runBm25sPeer({ src: bad, n: 10, seed: 1, profile: 'zipf', shapes: [], workDir: dir, timeoutS: 60 })).rejects.toThrow(
      /BM25S child exit 1: [\s\S]*this bm25s needs a newer numpy/,
    );
  });
});

it('scores top-10 agreement: overlap, identical order, and the (k1 + 1) scale between the two BM25 forms', () => {
  const k1 = 0.9;
  const peer = [
    { ids: ['a', 'b', 'c'], scores: [3, 2, 1] },
    { ids: ['x', 'y', 'z'], scores: [5, 4, 2] },
  ];
  const lex = [
    { ids: ['a', 'b', 'c'], scores: [3 * (k1 + 1), 2 * (k1 + 1), 1 * (k1 + 1) * (1 + 1e-6)] },
    { ids: ['x', 'z', 'w'], scores: [5 * (k1 + 1), 2 * (k1 + 1), 1.5] },
  ];
  const a = topAgreement(lex, peer, true, k1);
  expect(a.queries).toBe(2);
  expect(a.top10Overlap).toBeCloseTo((1 + 2 / 3) / 2, 3);
  expect(a.sameOrder).toBe(1);
  expect(a.maxRelScoreDiff).toBeCloseTo(1e-6, 8);
  expect(topAgreement(lex, peer, false, k1).maxRelScoreDiff).toBeNull();
});

// The peer end to end against the real BM25S source. A test may not depend on a path of this
// machine: it runs only when LEXCASE_BM25S_SRC names a checkout of github.com/xhluca/bm25s
// (docs/bench.md says how to get one) and python3 has numpy and scipy.
const src = process.env[BM25S_ENV];
describe.skipIf(!src)(`BM25S peer on a 3,000-passage zipf corpus (needs ${BM25S_ENV}: skipped without a bm25s checkout)`, () => {
  it('builds BM25S on the same stream and queries, with the same top-10 and scores = lexcase ÷ (k1 + 1)', async () => {
    const o = {
      ...defaultScaleOptions(),
      sizes: [3000],
      corpora: ['zipf' as const],
      methods: ['bm25' as const],
      queries: 6,
      workers: 1,
      workDir: join(dir, 'work'),
      write: false,
      print: false,
      bm25sSrc: src!,
      settleS: 0,
      log: () => {},
    };
    const res = await runScale(o);
    const run = res.runs[0];
    expect(run.status).toBe('ok');
    const peer = run.bm25s!;
    expect(peer.status, peer.reason).toBe('ok');
    expect(peer.result!.passages).toBe(3000);
    expect(peer.result!.buildPeakRssMiB).toBeGreaterThan(10);
    expect(peer.result!.shapes.map((s) => `${s.shape}@${s.k}:${s.queries}`)).toEqual(['worst@1000:6', 'agent@10:6']);
    expect(peer.compare).toHaveLength(2);
    for (const c of peer.compare) {
      expect(c.speedupP50).toBeGreaterThan(0);
      expect(c.agreement!.queries).toBe(6);
      expect(c.agreement!.top10Overlap).toBeGreaterThanOrEqual(0.9);
      expect(c.agreement!.maxRelScoreDiff!).toBeLessThan(1e-5);
    }
    // The lexcase top-10 lists are dropped once compared.
    expect(run.queries[0].shapes.every((s) => s.top10 === undefined)).toBe(true);
    expect(renderScaleMarkdown([res])).toContain('| 3,000 | zipf | ');
  }, 240_000);
});
