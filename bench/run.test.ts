import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BenchResults } from './report.js';
import { defaultOptions, runBench } from './run.js';

// Smoke test: the whole harness (generator → JSONL → one child process per engine → comparisons →
// targets → JSON + Markdown) on 2,000 passages and a few queries, peers on, both corpora (today's
// and the worst-case Zipf one, lexcase only); lexcase builds with 2 worker threads as in the real run.
describe('bench harness on a tiny corpus', () => {
  let dir: string;
  let results: BenchResults;
  let written: BenchResults;
  let md: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lexcase-bench-'));
    results = await runBench({
      ...defaultOptions(),
      sizes: [2000],
      queries: 5,
      ks: [100, 10],
      only: ['lexcase', 'lancedb', 'wink', 'minisearch'],
      peerMaxSize: 2000,
      workers: 2,
      approxShares: [1, 0.25],
      workDir: join(dir, 'work'),
      outDir: join(dir, 'results'),
      childTimeoutS: 120,
      print: false,
      log: () => {},
    });
    written = JSON.parse(await readFile(join(dir, 'results', 'latest.json'), 'utf8')) as BenchResults;
    md = await readFile(join(dir, 'results', 'latest.md'), 'utf8');
  }, 180_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('writes the JSON it returns, with machine info and the corpus it generated', () => {
    expect(written).toEqual(JSON.parse(JSON.stringify(results)));
    expect(written.schema).toBe('lexcase-bench/1');
    expect(written.machine.cpus).toBeGreaterThan(0);
    expect(written.machine.node).toBe(process.version);
    expect(written.corpora).toHaveLength(2);
    expect(written.corpora[0].passages).toBe(2000);
    expect(written.corpora[0].meanWords).toBeGreaterThan(120);
    expect(written.corpora[0].rawTextBytes).toBeGreaterThan(1_000_000);
    expect(written.corpora[0].profile).toBeUndefined();
    expect(written.corpora[1]).toMatchObject({ size: 2000, passages: 2000, profile: 'zipf' });
    // Generated tokens only: a different text from today's corpus, same word count per passage.
    expect(written.corpora[1].rawTextBytes).not.toBe(written.corpora[0].rawTextBytes);
  });

  it('runs every engine in its own process and times both k values', () => {
    const names = written.runs.map((r) => `${r.engine}${r.method ? `:${r.method}` : ''}${r.corpus ? `@${r.corpus}` : ''}`);
    expect(names).toEqual(['lexcase:bm25', 'lexcase:qld', 'lancedb-fts', 'wink-bm25', 'minisearch', 'lexcase:bm25@zipf', 'lexcase:qld@zipf']);
    for (const r of written.runs) {
      expect(r.status, `${r.engine} ${r.reason ?? ''}`).toBe('ok');
      for (const k of ['100', '10']) {
        const s = r.query!.byK[k];
        expect(s.queries).toBe(5);
        expect(s.p50Ms).toBeGreaterThan(0);
        expect(s.p95Ms).toBeGreaterThanOrEqual(s.p50Ms);
        expect(s.samplesMs).toHaveLength(5);
        expect(s.cpuP50Ms).toBeGreaterThan(0);
      }
      expect(r.query!.queryPeakRssMiB).toBeGreaterThan(20);
    }
    const lex = written.runs[0];
    expect(lex.build!.buildS).toBeGreaterThan(0);
    expect(lex.build!.buildPeakRssMiB).toBeGreaterThan(20);
    expect(lex.build!.indexBytes).toBeGreaterThan(lex.build!.postingsBytes!);
    expect(lex.query!.loadS).toBeGreaterThanOrEqual(0);
    // the block checksum work of opening the index and of the queries (indexer/block-checksums.ts)
    expect(lex.query!.blockChecks!.openMiB).toBeGreaterThan(0);
    expect(lex.query!.blockChecks!.queriesMiB).toBeGreaterThan(0);
    expect(lex.query!.blockChecks!.openMs).toBeGreaterThanOrEqual(0);
    expect(md).toMatch(/\| block checks ms: open \/ all queries \(MiB\) \|/);
    expect(written.runs[1].build).toBeUndefined(); // qld reuses the bm25 build
    const zipf = written.runs[5];
    expect(zipf.build!.buildS).toBeGreaterThan(0);
    expect(zipf.build!.indexBytes).toBeGreaterThan(0);
  });

  it('times the approximate mode on the zipf corpus only, labelled, with recall@k against exact (share 1 is exact: recall 1)', () => {
    for (const r of written.runs) {
      if (r.engine !== 'lexcase' || r.corpus !== 'zipf') {
        expect(r.query?.approx).toBeUndefined();
        continue;
      }
      const [all, quarter] = r.query!.approx!;
      expect(all).toMatchObject({ approximate: true, postingShare: 1, k: 100, queries: 5, recallMean: 1, recallMin: 1 });
      expect(all.exactP50Ms).toBe(r.query!.byK['100'].p50Ms);
      expect(quarter).toMatchObject({ approximate: true, postingShare: 0.25, k: 100, queries: 5 });
      expect(quarter.p50Ms).toBeGreaterThan(0);
      // A quarter of a 170-token query's postings drops the frequent terms: some exact hits are lost.
      expect(quarter.recallMean).toBeGreaterThan(0);
      expect(quarter.recallMean).toBeLessThan(1);
      expect(quarter.recallMin).toBeLessThanOrEqual(quarter.recallMean);
    }
    expect(md).toContain('## lexcase APPROXIMATE mode');
    expect(md).toMatch(/\| 2,000 \| lexcase qld \(zipf\) approx \| 0\.25 \| 100 \|/);
  });

  it('compares lexcase with each peer on the same queries; wink with the same analyzer ranks alike', () => {
    const wink = written.comparisons.find((c) => c.peer === 'wink-bm25' && c.k === 10)!;
    expect(wink.commonQueries).toBe(5);
    expect(wink.speedup).toBeCloseTo(wink.peerP50Ms / wink.lexcaseP50Ms, 0);
    expect(wink.memoryRatio).toBeCloseTo(wink.lexcasePeakRssMiB / wink.peerPeakRssMiB, 2);
    expect(wink.servingMemoryRatio).toBeCloseTo(wink.lexcaseServingRssMiB / wink.peerPeakRssMiB, 2);
    expect(wink.cpuSpeedup).toBeGreaterThan(0);
    expect(wink.top10Overlap).toBeGreaterThan(0.8);
    expect(new Set(written.comparisons.map((c) => c.peer))).toEqual(new Set(['wink-bm25', 'minisearch', 'lancedb-fts']));
  });

  it('lists every target, unmeasured ones as such, and renders the Markdown table', () => {
    expect(written.targets.map((t) => t.id)).toEqual([
      'build-time',
      'build-rss',
      'index-size',
      'p50-bm25',
      'p50-qld',
      'zipf-p50-bm25',
      'zipf-p95-bm25',
      'zipf-rss-bm25',
      'zipf-p50-qld',
      'zipf-p95-qld',
      'zipf-rss-qld',
      'vs-wink-speed',
      'vs-wink-memory',
      'vs-wink-memory-peak',
      'ann-p50',
      'ann-recall',
      'embed-openai-client',
      'use-lite-bound',
      'startup-version',
      'startup-search',
    ]);
    expect(written.targets.every((t) => t.pass === null)).toBe(true); // no 856K / 100K run here
    expect(md).toContain('| 2,000 | lexcase bm25 |');
    expect(md).toContain('| 2,000 | wink-bm25 |');
    expect(md).toContain('| 2,000 | lexcase qld (zipf) |');
    expect(md).toContain('| zipf | 2,000 |');
    expect(md).toMatch(/## Targets/);
  });
});
