/**
 * Plots: the Vega-Lite specs render to SVG in Node (no browser) with the data drawn in them, the
 * reliability bins and per-round MAD accuracy are computed from real run records, and writeReport
 * writes the reliability diagram beside report.md and embeds it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runExperiment } from '../runner.js';
import { writeReport } from '../report/write-report.js';
import {
  confidenceBins,
  unlabelledNote,
  queryRecallAt,
  recallCurve,
  recallCurveSpec,
  reliabilitySpec,
  renderSvg,
  roundAccuracy,
  roundAccuracySpec,
} from './index.js';

const root = mkdtempSync(join(tmpdir(), 'lexcase-plots-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('Recall@k curve', () => {
  it('computes recall at every k from gold ranks, with a CI that contains it, and renders one line per method', async () => {
    // 4 queries: gold at rank 1; at 7; two golds at 3 and 40; none found
    const qs = [
      { gold: 1, ranks: [1] },
      { gold: 1, ranks: [7] },
      { gold: 2, ranks: [3, 40] },
      { gold: 1, ranks: [] },
    ];
    expect(queryRecallAt(qs[2], 10)).toBe(0.5);
    const pts = recallCurve('bm25', qs, 100, { iterations: 300 });
    const at = (k: number) => pts.find((p) => p.k === k)!;
    expect(at(1).recall).toBeCloseTo(1 / 4);
    expect(at(10).recall).toBeCloseTo((1 + 1 + 0.5) / 4);
    expect(at(50).recall).toBeCloseTo(3 / 4);
    // 0/1 recall (k = 1, 2: one query found its only gold passage) gets Wilson at n = 4; graded recall
    // (k ≥ 3, where the 2-gold query has half) gets no bootstrap interval below n = 10
    expect(pts.filter((p) => p.lo !== null).every((p) => p.lo! <= p.recall && p.recall <= p.hi!)).toBe(true);
    expect(at(1).lo).not.toBeNull();
    expect(at(10)).toMatchObject({ lo: null, hi: null, missing: 'n < 10' });
    expect(pts.map((p) => p.k)).not.toContain(200); // beyond the retrieved depth
    const svg = await renderSvg(recallCurveSpec([...pts, ...recallCurve('qld', qs.slice(0, 2), 100, { iterations: 100 })], 'Recall@k test'));
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('Recall@k test');
    expect(svg).toContain('>bm25<');
    expect(svg).toContain('>qld<');
    expect(svg).toContain('k (log scale)');
  });

  it('a point with no interval (graded Recall@k over 8 topics: "n < 10" in the table) has no band and its tooltip says so, not a zero-width CI', async () => {
    // 8 topics with 3 relevant documents each, as `eval retrieval --topics --plot` draws them
    const ranks = [
      [1, 8, 41],
      [2, 26, 56],
      [1, 8, 41],
      [3, 26, 56],
      [2, 8, 41],
      [1, 26, 56],
      [1, 8, 41],
      [2, 26, 56],
    ];
    const pts = recallCurve(
      'bm25',
      ranks.map((r) => ({ gold: 3, ranks: r })),
      1000,
      { ks: [1, 10, 100] },
    );
    // k = 100: every relevant document found on every topic — 1 on every topic, a proportion (Wilson)
    expect(pts.map((p) => [p.k, +p.recall.toFixed(3), p.lo === null ? null : +p.lo.toFixed(3), p.missing])).toEqual([
      [1, 0.167, null, 'n < 10'],
      [10, 0.5, null, 'n < 10'],
      [100, 1, 0.676, undefined],
    ]);
    const svg = await renderSvg(recallCurveSpec(pts, 'Recall@k'));
    // before: "CI lo: 0.167; CI hi: 0.167" — a 95% interval of zero width where the table says "(n < 10)"
    expect(svg).toContain('recall: 0.167; 95% CI: none (n &lt; 10)'); // the SVG's aria-label, escaped
    expect(svg).not.toMatch(/CI lo|CI hi/);
    // one query with one relevant document: Wilson at any n, printed as the interval
    const one = recallCurve(
      'bm25',
      [
        { gold: 1, ranks: [1] },
        { gold: 1, ranks: [] },
      ],
      10,
      { ks: [1, 10] },
    );
    expect(await renderSvg(recallCurveSpec(one))).toContain('recall: 0.500; 95% CI: [0.095, 0.905]');
  });
});

describe('reliability bins', () => {
  it('labels are one bin each, ordered low → high, with counts and accuracy', () => {
    const rs = [...Array(6)].map((_, i) => ({ confidence: i < 4 ? 'high' : 'low', prediction: i !== 3 && i !== 5 ? 'B' : 'C', gold: 'B' }));
    const { bins, missing, numeric } = confidenceBins([...rs, { prediction: 'B', gold: 'B' }], { iterations: 200 });
    expect(numeric).toBe(false);
    expect(missing).toBe(1);
    expect(bins.map((b) => [b.bin, b.n, b.accuracy])).toEqual([
      ['low', 2, 0.5],
      ['high', 4, 0.75],
    ]);
    // Wilson intervals: a bin of 2 with 1 right is [9.5%, 90.5%], never a collapsed [x, x]
    expect([bins[0].lo, bins[0].hi].map((x) => Number(x.toFixed(3)))).toEqual([0.095, 0.905]);
  });

  it("CASE's tie and none bins come before low and high (no answer, then a tie-break, then a plurality, then unanimity)", () => {
    const conf = ['high', 'tie', 'low', 'none', 'high', 'tie'];
    const rs = conf.map((confidence, i) => ({ confidence, prediction: confidence === 'none' ? null : i % 2 ? 'B' : 'C', gold: 'B' }));
    // before: low, high, none, tie (the last two unknown, after every known label)
    expect(confidenceBins(rs, { iterations: 200 }).bins.map((b) => [b.bin, b.n, b.order])).toEqual([
      ['none', 1, 0],
      ['tie', 2, 1],
      ['low', 1, 2],
      ['high', 2, 3],
    ]);
  });

  it('a failed item counts as wrong (a prediction left on it is not scored) and items without a label have their rows, as in the report', () => {
    const records = [
      { confidence: 'high', prediction: 'B', gold: 'B', correct: true },
      // a failed item an older version recorded with its prediction and correct: true
      { confidence: 'high', prediction: 'B', gold: 'B', correct: true, error: 'juror vote: LLM_OUTPUT_INVALID' },
      { prediction: null, gold: 'B', correct: false, error: 'LLM request failed: HTTP 400' },
      { prediction: 'C', gold: 'B', correct: false },
    ];
    const rel = confidenceBins(records, { iterations: 200 });
    expect(rel.bins.map((b) => [b.bin, b.n, b.accuracy])).toEqual([['high', 2, 0.5]]); // before: 1 (scored by `correct`)
    expect(rel.unlabelled.map((b) => [b.bin, b.n, b.accuracy, b.order])).toEqual([
      ['failed (no confidence)', 1, 0, 1],
      ['no confidence', 1, 0, 2],
    ]);
    expect(unlabelledNote(rel)).toBe('4 items, 1 failed (no confidence, counted as wrong) and 1 without a confidence');
    // a numeric diagram cannot place them: its caption says so
    const numeric = confidenceBins([
      { confidence: '0.9', prediction: 'A', gold: 'A' },
      { prediction: null, gold: 'A' },
    ]);
    expect(unlabelledNote(numeric)).toBe('2 items, 1 failed (no confidence, counted as wrong): not on the confidence axis');
    expect((reliabilitySpec(numeric.bins, 't', numeric.unlabelled) as { layer: { data: { values: unknown[] } }[] }).layer[1].data.values).toHaveLength(1);
  });

  it("a bin's mean confidence is one figure whatever order results.jsonl lists its items in (as they finished)", () => {
    const cs = [0.61, 0.7, 0.65, 0.79, 0.62, 0.73, 0.67, 0.71, 0.77, 0.69];
    const rs = cs.map((c, i) => ({ id: `q${i}`, confidence: String(c), prediction: i % 3 ? 'A' : 'D', gold: 'A' }));
    const listed = confidenceBins(rs, { iterations: 200 }).bins;
    const reversed = confidenceBins([...rs].reverse(), { iterations: 200 }).bins;
    // before: 0.694 listed, 0.6940000000000001 reversed
    expect(reversed.map((b) => b.meanConfidence)).toEqual(listed.map((b) => b.meanConfidence));
  });

  it('numeric confidences fall into equal-width bins with their mean confidence, and the diagram shows the counts', async () => {
    const rs = [0.1, 0.15, 0.55, 0.9, 0.95, 1].map((c, i) => ({ confidence: String(c), prediction: i >= 3 ? 'A' : 'D', gold: 'A' }));
    const { bins, numeric } = confidenceBins(rs, { iterations: 200 });
    expect(numeric).toBe(true);
    expect(bins.map((b) => [b.bin, b.n, b.accuracy])).toEqual([
      ['0.0–0.2', 2, 0],
      ['0.4–0.6', 1, 0],
      ['0.8–1.0', 3, 1],
    ]);
    expect(bins[2].meanConfidence).toBeCloseTo((0.9 + 0.95 + 1) / 3);
    const svg = await renderSvg(reliabilitySpec(bins));
    for (const t of ['n=2', 'n=1', 'n=3', '0.8–1.0']) expect(svg).toContain(t);
  });
});

describe('MAD accuracy per round', () => {
  const rec = (correct: boolean, metrics: Record<string, boolean> = {}, error?: string) => ({ correct, metrics, ...(error ? { error } : {}) });
  it('counts every item of the run, an item that failed before a judgment as wrong (the headline rule), not only the judged ones', () => {
    const items = [
      rec(true, { correctAfterRound1: false, correctAfterRound2: true }),
      rec(true, { correctAfterRound1: true, correctAfterRound2: true }),
      rec(false, { correctAfterRound1: true, correctAfterRound2: false }),
      rec(false, {}, 'LLM_REQUEST_FAILED: HTTP 500'),
    ];
    expect(roundAccuracy(items, 2).map((r) => [r.round, r.n, r.accuracy])).toEqual([
      [1, 4, 0.5],
      [2, 4, 0.5],
    ]);
  });
  it('without per-round flags, one point: the final verdict over every item at the last round; no round known, no point', () => {
    const items = [rec(true), rec(false, {}, 'LLM_OUTPUT_INVALID: x'), rec(false), rec(true)];
    expect(roundAccuracy(items, 3).map((r) => [r.round, r.n, r.accuracy])).toEqual([[3, 4, 0.5]]);
    expect(roundAccuracy(items)).toEqual([]);
    expect(roundAccuracy([], 3)).toEqual([]);
  });
  it('a point\'s tooltip names its interval as the 95% Wilson CI it always is, not "CI lo" / "CI hi"', async () => {
    const items = [rec(true), rec(true), rec(true), rec(false)];
    const [r] = roundAccuracy(items, 2);
    const svg = await renderSvg(roundAccuracySpec([r]));
    // before: "round: 2; n: 4; CI lo: 0.301; CI hi: 0.954"
    // in %, as the tables beside the chart print accuracy
    expect(svg).toContain(`n: 4; 95% Wilson CI: [${(100 * r.lo).toFixed(1)}%, ${(100 * r.hi).toFixed(1)}%]`);
    expect(svg).not.toMatch(/CI lo|CI hi/);
  });
});

describe('report.md plots', () => {
  it('writeReport writes reliability.svg beside report.md and embeds it', async () => {
    const dir = join(root, 'run');
    const items = [...Array(12)].map((_, i) => ({ id: `q${i}`, answer: 'ABCD'[i % 4] }));
    await runExperiment({
      runDir: dir,
      system: async (item) => ({
        prediction: Number(item.id.slice(1)) % 3 ? item.answer : 'A',
        confidence: Number(item.id.slice(1)) % 2 ? 'high' : 'low',
        trace: {},
      }),
      items,
      gold: (q) => q.answer,
      makeContext: () => ({ seed: 0, tools: [], retrievers: {}, getPassage: async () => undefined, options: {} }),
      config: { system: 'scripted' },
      seed: 3,
    });
    const report = await writeReport(dir, { iterations: 200 });
    expect(report.markdown).toContain('![Reliability diagram: accuracy by confidence bin, with counts](reliability.svg)');
    expect(existsSync(join(dir, 'reliability.svg'))).toBe(true);
    const svg = readFileSync(join(dir, 'reliability.svg'), 'utf8');
    expect(svg).toContain('n=6'); // 6 high, 6 low
    expect(svg).toContain('>low<');
  });
});
