/**
 * The plot fixes of issue 30, each checked on the generated Vega-Lite spec and on the SVG vega
 * renders from it: legend swatches at full opacity, a tick at the largest k, a y axis that fits the
 * data, MAD's CI drawn as capped error bars with "95% CI" in the title, and a reliability diagram on
 * a probability scale with the calibration diagonal (labels: no diagonal, said so).
 */
import { describe, expect, it } from 'vitest';
import { compile, type TopLevelSpec } from 'vega-lite';
import { axisTop, figuresSpec, logTicks, recallCurveSpec, reliabilitySpec, renderSvg, roundAccuracySpec, type CurvePoint } from './index.js';
import { gridSpec, runColours, runLabels, type GridPoint } from './specs.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const layers = (s: any): any[] => s.layer;
const texts = (svg: string) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
const KS = [1, 2, 3, 5, 10, 20, 30, 50, 100, 200, 300, 500, 1000];
const curve = (method: string, top: number): CurvePoint[] =>
  KS.map((k) => ({ method, k, recall: (top * Math.log10(k)) / 3, lo: (0.8 * top * Math.log10(k)) / 3, hi: Math.min(1, (1.1 * top * Math.log10(k)) / 3) }));

describe('plot specs', () => {
  it('Recall@k: legend swatches at full opacity (not the 0.18 band), a tick at k = 1000, a y axis that ends near the data', async () => {
    const spec: any = recallCurveSpec([...curve('bm25', 0.27), ...curve('qld', 0.2)]);
    const line = layers(spec).find((l) => l.mark.type === 'line');
    expect(line.encoding.color.legend.symbolOpacity).toBe(1);
    expect(spec.config.legend.symbolOpacity).toBe(1);
    expect(spec.layer[0].encoding.x.axis.values.at(-1)).toBe(1000);
    expect(spec.layer[0].encoding.x.axis.labelOverlap).toBe(false);
    expect(spec.layer[0].encoding.y.scale.domain).toEqual([0, 0.3]);
    const svg = await renderSvg(spec);
    expect(texts(svg)).toContain('1,000');
    expect(texts(svg)).not.toContain('1.0'); // no empty 0.3–1.0 stretch of axis
    const swatch = /role-legend-symbol[^>]*>\s*<path[^>]*opacity="([\d.]+)"/.exec(svg);
    expect(Number(swatch?.[1])).toBe(1);
    expect(logTicks(KS)).toEqual([1, 2, 5, 10, 20, 50, 100, 200, 500, 1000]);
    expect(logTicks([1, 5, 10, 20, 50, 100])).toEqual([1, 5, 10, 20, 50, 100]);
    expect([axisTop(0.27), axisTop(0.3), axisTop(0.95), axisTop(0), axisTop(0.001)]).toEqual([0.3, 0.3, 1, 0.1, 0.1]);
  });

  it('MAD per round: the CI as capped error bars, "95% CI" in the title, one line per run when comparing', async () => {
    const rows = [
      { round: 1, n: 2, accuracy: 0, lo: 0, hi: 0.66 },
      { round: 2, n: 2, accuracy: 0.5, lo: 0.09, hi: 0.91 },
    ];
    const spec: any = roundAccuracySpec(rows);
    expect(spec.title).toMatch(/95% CI/);
    const bar = layers(spec).find((l) => l.mark.type === 'errorbar');
    expect(bar.mark.ticks).toBeTruthy();
    expect(layers(spec).some((l) => l.mark.type === 'rule')).toBe(false);
    expect(() => compile(spec as TopLevelSpec)).not.toThrow();
    const svg = await renderSvg(spec);
    expect(texts(svg).some((t) => /95% CI/.test(t))).toBe(true);
    // the axis in %, the unit of the tables beside the chart ("50.0% [9.5, 90.5]"); before: "accuracy" 0.0 … 1.0
    expect(texts(svg)).toEqual(expect.arrayContaining(['accuracy (%)', '0%', '20%', '100%']));
    expect(texts(svg)).not.toContain('0.5');
    const two: any = roundAccuracySpec([
      ...rows.map((r) => ({ ...r, series: 'run-a' })),
      ...rows.map((r) => ({ ...r, accuracy: 1 - r.accuracy, series: 'run-b' })),
    ]);
    expect(layers(two).find((l) => l.mark.type === 'line').encoding.color.field).toBe('series');
    expect(texts(await renderSvg(two))).toEqual(expect.arrayContaining(['run-a', 'run-b']));
  });

  it('reliability: numeric confidences on a 0–1 scale with the diagonal; labels as categories, titled as such', async () => {
    const numeric: any = reliabilitySpec([
      { bin: '0.6–0.8', order: 3, n: 5, accuracy: 0.6, lo: 0.2, hi: 1, meanConfidence: 0.71 },
      { bin: '0.8–1.0', order: 4, n: 9, accuracy: 0.89, lo: 0.67, hi: 1, meanConfidence: 0.93 },
    ]);
    const diag = layers(numeric).find((l) => l.mark.type === 'line');
    expect(diag.data.values).toEqual([
      { meanConfidence: 0, accuracy: 0 },
      { meanConfidence: 1, accuracy: 1 },
    ]);
    expect(layers(numeric).find((l) => l.mark.type === 'point').encoding.x).toMatchObject({
      field: 'meanConfidence',
      type: 'quantitative',
      scale: { domain: [0, 1] },
    });
    expect(numeric.title).toMatch(/reliability diagram \(95% CI\)/);
    expect(texts(await renderSvg(numeric))).toEqual(expect.arrayContaining(['n=5', 'n=9']));
    const labels: any = reliabilitySpec([
      { bin: 'low', order: 1, n: 3, accuracy: 0.33, lo: 0, hi: 0.9 },
      { bin: 'high', order: 4, n: 7, accuracy: 0.71, lo: 0.4, hi: 1 },
    ]);
    expect(layers(labels).some((l) => l.mark.type === 'line')).toBe(false);
    expect(labels.layer[0].encoding.x.title.join(' ')).toMatch(/not a probability/);
    expect(labels.title).toMatch(/by confidence label/);
  });

  it("several runs' figures side by side with their intervals (no interval drawn where there is none)", async () => {
    const spec: any = figuresSpec([
      { run: 'a', figure: 'accuracy', estimate: 0.5, lo: 0.15, hi: 0.85, n: 4 },
      { run: 'b', figure: 'accuracy', estimate: 1, lo: 0.34, hi: 1, n: 2 },
      { run: 'b', figure: 'macro-F1', estimate: 1, lo: null, hi: null, n: 2 },
    ]);
    // an interval bar only where there is an interval
    expect(spec.data.values.filter((v: { hasCi: boolean }) => v.hasCi)).toHaveLength(2);
    expect(spec.spec.layer[0].transform).toEqual([{ filter: 'datum.hasCi' }]);
    const t = texts(await renderSvg(spec));
    expect(t).toEqual(expect.arrayContaining(['accuracy', 'macro-F1', 'a', 'b']));
    // one panel per figure, each with its own y axis (never Recall and MRR on one axis called "value")
    expect(spec.resolve).toEqual({ scale: { y: 'independent' } });
    expect(t).not.toContain('value');
    // proportions, in % as the runs table prints them; before: "estimate [95% CI]" 0.0 … 1.0
    expect(t).toEqual(expect.arrayContaining(['estimate (%) [95% CI]', '0%', '100%']));
    expect(t).not.toContain('0.5');
  });

  it('runs keep one colour in every plot and distinct, uncut legend labels', async () => {
    const ids = ['reproduce-case-table3-n4/runs/bm25', 'reproduce-case-table3-n4/runs/qld', 'case-llm-scripted', 'x/a/dense', 'y/a/dense'];
    const labels = runLabels(ids);
    expect([...labels.values()]).toEqual(['…/bm25', '…/qld', 'case-llm-scripted', 'x/a/dense', 'y/a/dense']);
    const colours = runColours([...labels.values()]);
    expect(new Set(colours.range).size).toBe(ids.length);
    const curve = recallCurveSpec(
      [
        { method: '…/qld', k: 1, recall: 0.2, lo: 0.1, hi: 0.3 },
        { method: '…/qld', k: 10, recall: 0.4, lo: 0.3, hi: 0.5 },
      ],
      'r',
      colours,
    ) as any;
    const figs = figuresSpec([{ run: '…/qld', figure: 'MRR', estimate: 0.3, lo: 0.2, hi: 0.4, n: 4 }], 'f', colours) as any;
    // qld is the second run: the same colour in both plots, though it is the only run in each
    const qldColour = colours.range[1];
    expect((await renderSvg(curve)).includes(`stroke="${qldColour}"`)).toBe(true);
    expect((await renderSvg(figs)).includes(`fill="${qldColour}"`)).toBe(true);
  });
  it("a reproduction grid's chart: 16 rows (threeply-table2: 4 methods × 4 models) in 16 colours, long column labels at an angle, no empty layer where the paper has no value", async () => {
    const rows = ['Single Agent', 'Single Agent with Enhanced Prompting', 'Multi-Agent Debate without Reflection', 'Reflective Multi-Agent'].flatMap((m) =>
      ['GPT-4o', 'GPT-4o-mini', 'Llama-4-Maverick-17b-128e', 'Llama-4-Scout-17b-16e'].map((x) => `${m} · ${x}`),
    );
    const scenarios = ['Arguable', 'Mismatched', 'Non-Arguable'];
    const points: GridPoint[] = rows.flatMap((series, i) => scenarios.map((config) => ({ series, config, value: 100, lo: 51, hi: 100, paper: 80 + i })));
    const spec: any = gridSpec(points, scenarios, 'lexcase and paper (%)', 't', runColours(rows));
    // every row its own colour: a shared one left a line or a paper ◇ without its row (rows 1 and 11 were both #4c78a8)
    expect(new Set(spec.layer[1].encoding.color.scale.range).size).toBe(16);
    const svg = await renderSvg(spec);
    const legendStrokes = [...svg.matchAll(/role-legend-symbol[^>]*>\s*<path[^>]*stroke="(#[0-9a-f]{6})"/g)].map((m) => m[1]);
    expect(legendStrokes).toHaveLength(16);
    expect(new Set(legendStrokes).size).toBe(16);
    // the three scenario names fit their 90 px columns: upright
    expect(spec.layer[0].encoding.x.axis.labelAngle).toBe(0);
    // mad-rounds' columns ("Gold passage cited", "Citations supportive") are wider than a column: at an angle, not across each other
    const mad = ['Acc.', 'Gold passage cited', 'Citations supportive'];
    const proposal: any = gridSpec(
      mad.map((config) => ({ series: 'MAD, 1 round, sparse topology', config, value: 0, lo: 0, hi: 48.99, paper: null })),
      mad,
      'lexcase and paper (%)',
      't',
    );
    expect(proposal.layer[0].encoding.x.axis.labelAngle).toBe(-30);
    const rotated = await renderSvg(proposal);
    expect(texts(rotated)).toEqual(expect.arrayContaining(mad));
    expect(rotated).toMatch(/rotate\(330\)/);
    // the paper prints no value (a proposal): no paper layer, so no empty unlabelled mark group (axe svg-img-alt)
    expect(proposal.layer.map((l: any) => l.mark.type ?? l.mark)).toEqual(['errorbar', 'line']);
    expect(rotated).not.toMatch(/<g class="mark-symbol role-mark[^"]*"[^>]*><\/g>/);
  });
});
