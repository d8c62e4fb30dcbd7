/**
 * report.md's "Per-item metrics" gives a number metric the interval of the values' rule
 * (docs/eval.md), the one a reproduction table gives the same values: MAD's citationsSupportive at 0
 * on all ten answered items is 0 of 10, Wilson [0, 27.8%] — not a degenerate bootstrap [0, 0].
 */
import { describe, expect, it } from 'vitest';
import '../../../agents/systems.js'; // the bundled systems' declarations of their metrics' kinds (a run dir from before config.json recorded them)
import { meanInterval, outcomeInterval, perItemInterval } from '../../stats/index.js';
import { roundIntervals } from '../../plots/round-accuracy.js';
import { recordedMetricKinds } from '../../systems.js';
import { cellValue } from '../../reproduce/stats.js';
import type { Metric } from '../../reproduce/recipe.js';
import type { ResultRecord } from '../../types.js';
import type { RunConfigFile } from '../../run-config-file.js';
import { itemMetricsSection } from './item-metrics.js';
import { madMetrics } from '../../../agents/mad/metrics.js';

const rec = (i: number, metrics: ResultRecord['metrics']): ResultRecord => ({ id: `q${i}`, prediction: 'A', gold: 'A', correct: true, metrics, ms: 1 });
const run = (results: ResultRecord[]) => ({
  dir: '/nowhere',
  config: { seed: 13, config: { system: 'mad/mad' }, provenance: {} } as unknown as RunConfigFile,
  results,
  traces: new Map(),
  droppedTail: false,
});

describe('Per-item metrics: one interval rule with the reproduction tables', () => {
  it('a number metric that is 0 or 1 on every item gets Wilson, as perItemInterval gives the reproduce table; a graded one the bootstrap', async () => {
    const results = Array.from({ length: 10 }, (_, i) => rec(i, { citationsSupportive: 0, citationsExist: 1, citationsSeen: (i % 3) / 2 }));
    const s = await itemMetricsSection(run(results), { iterations: 2000, seed: 13 });
    const json = s!.json as Record<string, { kind: string; n: number; value: number; ci: { lo: number; hi: number; method: string } }>;
    const table = perItemInterval(Array(10).fill(0));
    expect(json.citationsSupportive).toMatchObject({ kind: 'mean', n: 10, value: 0, ci: { method: 'wilson', lo: table.lo, hi: table.hi } });
    expect(json.citationsSupportive.ci.hi).toBeCloseTo(0.2775, 4);
    expect(json.citationsExist.ci.method).toBe('wilson');
    expect(json.citationsSeen.ci.method).toBe('bootstrap');
    // the row says what the figure is: the share of items at 1, not a mean
    expect(s!.markdown).toMatch(/\| citationsSupportive \| +share of items at 1 \(each item 0 or 1\) \| 10 \| +0\.0% \[0\.0, 27\.8\] \| +95% Wilson \|/);
    expect(json.citationsSeen).toMatchObject({ measure: 'mean share' });
  });
});

describe('Per-item metrics: a count is a mean count, never a proportion', () => {
  it('unresolvedCitations and forfeits at 0 or 1 on every item get the bootstrap of a mean count, as in a run where one item counts 2; a share at 0 or 1 keeps Wilson', async () => {
    // a MAD run of 12 items: 3 with one forfeited brief and one unresolved citation, the rest none
    const ones = (i: number) => (i % 4 === 0 ? 1 : 0);
    const results = Array.from({ length: 12 }, (_, i) => rec(i, { unresolvedCitations: ones(i), forfeits: ones(i), citationsSupportive: ones(i) }));
    const s = await itemMetricsSection(run(results), { iterations: 2000, seed: 13 });
    const json = s!.json as Record<string, { kind: string; n: number; value: number; ci: { lo: number; hi: number; method: string } }>;
    // before: 0.250 [0.089, 0.532] 95% Wilson — the share of items with one, whose bound says no item can count 2
    const boot = meanInterval(
      results.map((r) => ones(Number(r.id.slice(1)))),
      { iterations: 2000, seed: 13 },
    );
    for (const k of ['unresolvedCitations', 'forfeits']) {
      expect(json[k]).toMatchObject({ kind: 'mean', n: 12, value: 0.25, ci: { method: 'bootstrap', lo: boot.lo, hi: boot.hi } });
      expect(s!.markdown).toMatch(new RegExp(`\\| ${k} +\\| +mean count \\| 12 \\| +0\\.250 \\[[0-9.]+, [0-9.]+\\] \\| +95% bootstrap \\|`));
    }
    expect(json.citationsSupportive.ci.method).toBe('wilson');
    // the reproduction table's cell of the same metric gives the same interval
    const kinds = recordedMetricKinds(run(results).config);
    const cell = cellValue(results, { stat: 'mean', key: 'unresolvedCitations' } as Metric, { iterations: 2000, seed: 13, kinds });
    expect(cell).toMatchObject({ method: 'bootstrap', lo: boot.lo, hi: boot.hi });
    expect(kinds.citationsSupportive).toBe('share');
  });
});

describe('Per-item metrics: the same items in another results.jsonl order give the same figures', () => {
  // ACAL's claimStrength of one hearsay run (8 items with a value, 4 failed), in the order the runner
  // wrote them at --concurrency 1 and at --concurrency 4 (results.jsonl lists items as they finish)
  const strengths: [string, number | null][] = [
    ['hearsay-test-0', null],
    ['hearsay-test-1', 0.5659804632695091],
    ['hearsay-test-2', 0.9205470947348853],
    ['hearsay-test-3', null],
    ['hearsay-test-4', null],
    ['hearsay-test-5', 0.9556908904927018],
    ['hearsay-test-6', 0.09213937240768982],
    ['hearsay-test-7', 0.4904021447827665],
    ['hearsay-test-8', 0.5602853320674738],
    ['hearsay-test-9', null],
    ['hearsay-test-10', 0.6505824927268788],
    ['hearsay-test-11', 0.8774228022413773],
  ];
  const concurrency4 = [0, 1, 3, 2, 4, 7, 6, 8, 5, 9, 10, 11];
  const acal = (order: number[]) => ({
    ...run(
      order.map((i) => {
        const [id, v] = strengths[i];
        return { id, prediction: 'Yes', gold: 'Yes', correct: true, ms: 1, ...(v === null ? {} : { metrics: { claimStrength: v } }) };
      }),
    ),
    config: { seed: 13, config: { system: 'acal/acal' }, provenance: {} } as unknown as RunConfigFile,
  });
  type Figure = { value: number; ci: { lo: number | null; hi: number | null } };

  it('an ACAL run written at --concurrency 1 and at 4 reports one claimStrength mean to the last bit', async () => {
    const a = (await itemMetricsSection(acal([...strengths.keys()]), { iterations: 2000, seed: 13 }))!;
    const b = (await itemMetricsSection(acal(concurrency4), { iterations: 2000, seed: 13 }))!;
    const fa = (a.json as Record<string, Figure>).claimStrength;
    const fb = (b.json as Record<string, Figure>).claimStrength;
    // before, the mean was summed in file order: 0.6391313240904104 beside 0.6391313240904103
    expect(fb.value).toBe(fa.value);
    expect(fb.ci).toEqual(fa.ci);
    expect(b.markdown).toBe(a.markdown);
  });

  it('reciprocal ranks at a rounding edge print one figure whatever their order', async () => {
    // 48 items, mean exactly 0.0125: summed 0.1 + 0.2 + 0.3 it is 0.0125000000000000017, summed the other way 0.0124999999999999990
    const values = [0.1, 0.2, 0.3, ...Array(45).fill(0)];
    const section = (vs: number[]) => itemMetricsSection(run(vs.map((v, i) => rec(i, { reciprocalRank: v }))), { iterations: 2000, seed: 13 });
    const a = (await section(values))!;
    const b = (await section([...values].reverse()))!;
    expect((b.json as Record<string, Figure>).reciprocalRank.value).toBe((a.json as Record<string, Figure>).reciprocalRank.value);
    // before: "0.013 [0.000, 0.029]" for one order, "0.012 [0.000, 0.029]" for the other
    expect(b.markdown).toBe(a.markdown);
  });
});

describe('Per-item metrics: n over the items that recorded the metric', () => {
  it('2 of 12 items failed and recorded no metric: rows of n = 10 and a line saying the failed items are in no row', async () => {
    const results = Array.from({ length: 12 }, (_, i) =>
      i < 10
        ? rec(i, { citationsSupportive: i % 3 === 0 ? 1 : 0 })
        : { ...rec(i, undefined), prediction: null, correct: false, error: 'LLM_REQUEST_FAILED: HTTP 500' },
    );
    const s = await itemMetricsSection(run(results), { iterations: 2000, seed: 13 });
    expect(s!.markdown).toMatch(/\| citationsSupportive \| .* \| 10 \|/);
    // before: no line; the n of 10 beside 12 items said nothing of why
    expect(s!.markdown).toContain(
      'n counts the items that recorded the metric: the 2 failed items recorded none and are in no row (the Accuracy section counts them as wrong).',
    );
    const answered = await itemMetricsSection(run(results.slice(0, 10)), { iterations: 2000, seed: 13 });
    expect(answered!.markdown).not.toContain('failed item');
  });
});

describe("Per-item metrics: MAD's verdict after each round by the rule of the accuracy-by-round table", () => {
  it(`2 of 12 items failed before any verdict: correctAfterRound rows are over all 12, the failed ones wrong, equal to the MAD section's table to the bit`, async () => {
    // items 0-9 answered: round 1 right on 0,3,6,9; round 2 right on 0-6
    const results = Array.from({ length: 12 }, (_, i) =>
      i < 10
        ? rec(i, { correctAfterRound1: i % 3 === 0, correctAfterRound2: i < 7, citationsSupportive: 1 })
        : { ...rec(i, undefined), prediction: null, correct: false, error: 'LLM_REQUEST_FAILED: HTTP 500' },
    );
    const s = await itemMetricsSection(run(results), { iterations: 2000, seed: 13 });
    const json = s!.json as Record<string, { n: number; value: number; ci: { lo: number; hi: number; method: string } }>;
    const byRound = madMetrics(results).byRound;
    expect(byRound.map((r) => [r.round, r.accuracy.n, r.accuracy.estimate])).toEqual([
      [1, 12, 4 / 12],
      [2, 12, 7 / 12],
    ]);
    // before: n 10, 4/10 and 7/10, beside the round table's 4/12 and 7/12
    for (const r of byRound)
      expect(json[`correctAfterRound${r.round}`]).toMatchObject({
        n: 12,
        value: r.accuracy.estimate,
        ci: { lo: r.accuracy.lo, hi: r.accuracy.hi, method: 'wilson' },
      });
    expect(s!.markdown).toMatch(/\| correctAfterRound1 +\| .* \| 12 \|/);
    // the other metrics stay over the items that recorded them
    expect(json.citationsSupportive.n).toBe(10);
    expect(s!.markdown).toContain(
      'The correctAfterRound1 and correctAfterRound2 rows count every item (n = 12), the 2 that did not record them as 0: their system declares them outcomes of every item (metric kind `outcome`), as accuracy counts a failed item wrong.',
    );
    // the failed items' line does not say they are in no row (before: "are in no row" beside the rows that count them)
    expect(s!.markdown).toContain(
      'the 2 failed items recorded none and are in no row but the outcome rows (as 0, below) (the Accuracy section counts them as wrong).',
    );
  });
});

describe("Per-item metrics: a metric its system declares an outcome of every item gets the rule of MAD's rounds", () => {
  // 12 items: 9 recorded `solved` (true on 0, 2, 4, 6, 8; false on 1, 3, 5, 7), 3 failed before the step and recorded none
  const results = Array.from({ length: 12 }, (_, i) =>
    i < 9 ? rec(i, { solved: i % 2 === 0, tries: 1 }) : { ...rec(i, undefined), prediction: null, correct: false, error: 'LLM_REQUEST_FAILED: HTTP 500' },
  );
  const own = (metricKinds?: Record<string, string>) => ({
    ...run(results),
    config: {
      seed: 13,
      config: { system: 'my-solver' },
      provenance: { lexcaseSystem: null },
      ...(metricKinds ? { metricKinds } : {}),
    } as unknown as RunConfigFile,
  });

  it("a system of the user's own declaring `solved` an outcome (config.json metricKinds) gets it over all 12 items, the 3 without it wrong: MAD's round code's figure", async () => {
    const s = (await itemMetricsSection(own({ solved: 'outcome' }), { iterations: 2000, seed: 13 }))!;
    const json = s.json as Record<string, { n: number; value: number; declared?: string; ci: { lo: number; hi: number; method: string } }>;
    const all = outcomeInterval('solved', results);
    expect(all).toMatchObject({ estimate: 5 / 12, n: 12 });
    // the same figure MAD's accuracy by round gives a flag of these values (roundIntervals, the same code)
    const asRound = roundIntervals(results.map((r) => ({ ...r, metrics: r.metrics && { correctAfterRound1: r.metrics.solved } })));
    expect(asRound[0].accuracy).toEqual(all);
    // before: n 9, 5/9 (the `outcome` kind did not exist and the record was dropped)
    expect(json.solved).toMatchObject({ n: 12, value: 5 / 12, declared: 'outcome', ci: { lo: all.lo, hi: all.hi, method: 'wilson' } });
    expect(s.markdown).toMatch(/\| solved +\| +share of items \| 12 \| +41\.7% \[/);
    expect(s.markdown).toContain(
      'The solved row counts every item (n = 12), the 3 that did not record it as 0: its system declares it an outcome of every item (metric kind `outcome`), as accuracy counts a failed item wrong.',
    );
    // a metric it does not declare so stays over the items that recorded it
    expect(json.tries.n).toBe(9);
  });

  it('undeclared, the same values stay over the 9 items that recorded them', async () => {
    const json = (await itemMetricsSection(own(), { iterations: 2000, seed: 13 }))!.json as Record<string, { n: number; value: number }>;
    expect(json.solved).toMatchObject({ n: 9, value: 5 / 9 });
  });

  it('a MAD run dir whose config.json recorded its metric kinds before the round flags were declared (2026-12-01) still reads them over every item', async () => {
    const flags = results.map((r) => ({ ...r, metrics: r.metrics && { correctAfterRound1: r.metrics.solved, forfeits: 0 } }));
    const mad = {
      ...run(flags),
      config: { seed: 13, config: { system: 'mad/mad' }, provenance: { lexcaseSystem: 'mad' }, metricKinds: { forfeits: 'count' } } as unknown as RunConfigFile,
    };
    const json = (await itemMetricsSection(mad, { iterations: 2000, seed: 13 }))!.json as Record<string, { n: number; value: number }>;
    expect(json.correctAfterRound1).toMatchObject({ n: 12, value: 5 / 12 });
    expect(recordedMetricKinds(mad.config)).toMatchObject({ forfeits: 'count', correctAfterRound1: 'outcome', correctAfterRound3: 'outcome' });
  });

  it('a declared outcome its values contradict (0.5 on an item) is read by its values and said', async () => {
    const half = results.map((r, i) => (i === 0 ? { ...r, metrics: { solved: 0.5, tries: 1 } } : r));
    const s = (await itemMetricsSection({ ...own({ solved: 'outcome' }), results: half }, { iterations: 2000, seed: 13 }))!;
    expect((s.json as Record<string, { n: number }>).solved.n).toBe(9);
    expect(s.markdown).toContain('**Warning:** solved is declared an outcome (0 or 1 on each item) but 1 of 9 items records another value (q0 = 0.5)');
  });
});

describe("Per-item metrics: 3-ply's per-item ratios beside its pooled figures, one unit per kind of figure", () => {
  // 12 triples of 2 scenarios: nGt 10 or 20, nUtil 1 or 4, no hallucination, every third abstained
  const results: ResultRecord[] = Array.from({ length: 12 }, (_, i) => {
    const nGt = i % 2 ? 20 : 10;
    const nUtil = i % 3 ? 1 : 4;
    return {
      id: `${i < 6 ? 'arguable' : 'mismatched'}-${String(i).padStart(3, '0')}`,
      prediction: 'argue',
      gold: 'argue',
      correct: true,
      ms: 1,
      metrics: { abstained: i % 3 === 2, nH: 0, nGt, nUtil, hallucinationAccuracy: 1, factorUtilizationRecall: nUtil / nGt },
    };
  });
  const threeply = {
    ...run(results),
    config: { seed: 13, config: { system: 'threeply/reflective' }, provenance: { lexcaseSystem: 'threeply' } } as unknown as RunConfigFile,
  };

  it('the hallucinationAccuracy and factorUtilizationRecall rows say they are means of per-item ratios, not the pooled figures, in percent', async () => {
    const s = (await itemMetricsSection(threeply, { iterations: 2000, seed: 13 }))!;
    const json = s.json as Record<string, { measure: string; unit: string; pooledFigure?: string }>;
    expect(json.factorUtilizationRecall).toMatchObject({ measure: 'mean of per-item ratios', unit: 'percent', pooledFigure: 'factor utilization recall' });
    expect(json.hallucinationAccuracy).toMatchObject({ measure: 'mean of per-item ratios', unit: 'percent', pooledFigure: 'hallucination accuracy' });
    // before: "| factorUtilizationRecall | mean | 12 | 0.150 [...]" and "| hallucinationAccuracy | share of items at 1 (each item 0 or 1) | 12 | 1.000 [0.758, 1.000]"
    expect(s.markdown).toMatch(/\| factorUtilizationRecall \| +mean of per-item ratios \| 12 \| +15\.0% \[/);
    expect(s.markdown).toMatch(/\| hallucinationAccuracy +\| +mean of per-item ratios \| 12 \| +100\.0% \[75\.8, 100\.0\] \|/);
    expect(s.markdown).toContain(
      "The factorUtilizationRecall and hallucinationAccuracy rows are the mean of the items' own ratios (each item weighs the same; Wilson where every item is 0 or 1, else a bootstrap over items): not the figures factor utilization recall and hallucination accuracy, which pool every item's counts into one ratio (the Figures section, with its own interval).",
    );
  });

  it('shares print as percentages, counts as decimals, and a line says which is which', async () => {
    const s = (await itemMetricsSection(threeply, { iterations: 2000, seed: 13 }))!;
    expect(s.markdown).toMatch(/\| abstained +\| +share of items \| 12 \| +33\.3% \[/);
    expect(s.markdown).toMatch(/\| nGt +\| +mean count \| 12 \| +15\.000 \[/);
    expect(s.markdown).toContain('Shares and ratios are percentages; means of counts and other values (which can exceed 1) are decimals.');
  });

  it("a system of the user's own writing the same metric names pools nothing: no such note", async () => {
    const own = { ...threeply, config: { seed: 13, config: { system: 'my-3ply' }, provenance: { lexcaseSystem: null } } as unknown as RunConfigFile };
    const s = (await itemMetricsSection(own, { iterations: 2000, seed: 13 }))!;
    expect(s.markdown).not.toContain("the mean of the items' own ratios");
    expect((s.json as Record<string, { measure: string }>).factorUtilizationRecall.measure).toBe('mean');
  });
});
