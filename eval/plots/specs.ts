/**
 * Vega-Lite specs for lexcase's plots, shared by report.md (rendered to SVG in Node by
 * render-svg.ts) and the explorer (the server sends the same spec; the browser renders it with the
 * bundled vega). Plain JSON: no functions, so a spec travels over the API unchanged.
 *
 * - recallCurveSpec: Recall@k per method (or per run), log-scaled k with a tick at every decade and
 *   the largest k, a 95% CI band per method; the legend shows the lines (full opacity), not the bands.
 * - reliabilitySpec: numeric confidences → a reliability diagram on a probability scale (accuracy
 *   [95% CI] at each bin's mean confidence, the diagonal of perfect calibration, n per bin);
 *   confidence labels ("high", "low") → accuracy per label, titled as such (no diagonal: a label is
 *   not a probability), items without a label ("failed (no confidence)") as bars after them.
 * - roundAccuracySpec: MAD's accuracy of the verdict after each debate round, 95% CI as error bars
 *   with caps (not thin rules that read as grid lines), one line per series when comparing runs.
 * - figuresSpec: several runs' headline figures side by side, each with its 95% interval.
 * Every y axis fits the data (0 to the next tenth above the highest interval end), not 0–1; an axis of
 * proportions (accuracy per round, the headline figures) reads in %, as the tables beside it print them.
 */

/** A Vega-Lite top-level spec (kept as plain JSON). */
export type PlotSpec = Record<string, unknown>;

export interface CurvePoint {
  method: string;
  k: number;
  recall: number;
  /** null where no interval is given (a bootstrap below n = 10, no spread): no band there, and the tooltip says why. */
  lo: number | null;
  hi: number | null;
  /** Why lo/hi are null ("n < 10"). */
  missing?: string;
}

/**
 * A point's interval as its tooltip prints it: "[0.675, 1.000]", or "none (n < 10)" where none is
 * given — never lo = hi = the estimate, which reads as a 95% interval of zero width.
 */
export const ciTooltip = (lo: number | null, hi: number | null, missing?: string, unit: 'decimal' | 'percent' = 'decimal'): string =>
  lo !== null && hi !== null
    ? unit === 'percent'
      ? `[${(100 * lo).toFixed(1)}%, ${(100 * hi).toFixed(1)}%]`
      : `[${lo.toFixed(3)}, ${hi.toFixed(3)}]`
    : `none (${missing ?? 'no interval'})`;

/** The tick labels of an axis of proportions, in % ("0%", "20%", …): the unit the tables beside a chart print (figureText). */
export const PERCENT_AXIS = '.0%';

export interface ConfidenceBin {
  /** Bin label ("high", "0.6–0.8"). */
  bin: string;
  /** Sort position of the bin on the x axis. */
  order: number;
  n: number;
  accuracy: number;
  lo: number;
  hi: number;
  /** Mean confidence of the items in the bin (numeric confidences only). */
  meanConfidence?: number;
}

export interface RoundAccuracy {
  round: number;
  n: number;
  accuracy: number;
  lo: number;
  hi: number;
}

const BASE = {
  $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
  background: 'white',
  config: {
    font: 'sans-serif',
    axis: { labelFontSize: 11, titleFontSize: 12 },
    legend: { labelFontSize: 11, titleFontSize: 12, symbolOpacity: 1, labelLimit: 320 },
  },
};

/**
 * One colour per run, in the order the runs are given: Vega's category10, then ten darker or other
 * hues, so up to 20 runs (a reproduction grid of 4 methods × 4 models has 16 rows) never share one —
 * a colour two legend entries shared left a line or a paper ◇ without its row.
 */
export const RUN_COLOURS = [
  '#4c78a8',
  '#f58518',
  '#e45756',
  '#72b7b2',
  '#54a24b',
  '#eeca3b',
  '#b279a2',
  '#ff9da6',
  '#9d755d',
  '#bab0ac',
  '#393b79',
  '#bcbd22',
  '#843c39',
  '#17becf',
  '#7b4173',
  '#637939',
  '#6b6ecf',
  '#8c6d31',
  '#525252',
  '#1b9e77',
];

/** A colour scale fixed by the runs' order, so a run has the same colour in every plot of a page. */
export interface ColourScale {
  domain: string[];
  range: string[];
}

/**
 * Legend labels for run ids, distinct and short: an id as it is when short; a long path-like id
 * ("reproduce-case-table3-n4/runs/bm25") cut to its last segments that no other id shares
 * ("…/bm25"), never to a prefix that several runs share.
 */
export function runLabels(ids: string[], max = 28): Map<string, string> {
  const out = new Map<string, string>();
  for (const id of ids) {
    const parts = id.split('/');
    let label = id;
    if (id.length > max && parts.length > 1) {
      for (let n = 1; n < parts.length; n++) {
        const tail = parts.slice(-n).join('/');
        if (ids.filter((o) => o === tail || o.endsWith(`/${tail}`)).length === 1) {
          label = `…/${tail}`;
          break;
        }
      }
    }
    out.set(id, label);
  }
  // two ids cut to one label (cannot happen with distinct ids, but never risk it): keep the ids
  if (new Set(out.values()).size !== ids.length) for (const id of ids) out.set(id, id);
  return out;
}

/** One colour per run, by the runs' order (all runs of the page, plotted or not). */
export function runColours(labels: string[]): ColourScale {
  return { domain: labels, range: labels.map((_, i) => RUN_COLOURS[i % RUN_COLOURS.length]) };
}

/** Top of a [0, top] axis for values up to `max`: the next tenth (at least 0.1, at most 1). */
export function axisTop(max: number): number {
  if (!Number.isFinite(max) || max <= 0) return 0.1;
  return Math.min(1, Math.max(0.1, Math.ceil(max * 10 - 1e-9) / 10));
}

/** Log-axis ticks: every 1-2-5 value among the ks, always the smallest and the largest k. */
export function logTicks(ks: number[]): number[] {
  const sorted = [...new Set(ks)].sort((a, b) => a - b);
  if (sorted.length <= 6) return sorted;
  const keep = sorted.filter((k) => /^[125]0*$/.test(String(k)));
  return [...new Set([sorted[0], ...keep, sorted[sorted.length - 1]])].sort((a, b) => a - b);
}

export function recallCurveSpec(points: CurvePoint[], title = 'Recall@k', colours?: ColourScale): PlotSpec {
  const scale = colours ? { scale: colours } : {};
  const ks = [...new Set(points.map((p) => p.k))].sort((a, b) => a - b);
  const x = {
    field: 'k',
    type: 'quantitative',
    title: 'k (log scale)',
    scale: { type: 'log', domain: ks.length ? [ks[0], ks[ks.length - 1]] : undefined },
    axis: { values: logTicks(ks), labelOverlap: false, labelFlush: true },
  };
  const top = axisTop(Math.max(0, ...points.map((p) => p.hi ?? p.recall)));
  return {
    ...BASE,
    title,
    width: 460,
    height: 260,
    data: { values: points.map((p) => ({ ...p, ci: ciTooltip(p.lo, p.hi, p.missing) })) },
    layer: [
      // the band shares the colour scale; the legend's swatches are drawn at full opacity (symbolOpacity), not the band's 0.18
      {
        // no band where no interval is given
        transform: [{ filter: 'datum.lo !== null && datum.hi !== null' }],
        mark: { type: 'area', opacity: 0.18 },
        encoding: {
          x,
          y: { field: 'lo', type: 'quantitative', title: 'Recall@k', scale: { domain: [0, top] } },
          y2: { field: 'hi' },
          color: { field: 'method', type: 'nominal', ...scale },
        },
      },
      {
        mark: { type: 'line', point: true },
        encoding: {
          x,
          y: { field: 'recall', type: 'quantitative', title: 'Recall@k' },
          color: {
            field: 'method',
            type: 'nominal',
            title: colours ? 'run' : 'method',
            ...scale,
            legend: { symbolOpacity: 1, symbolType: 'stroke', symbolStrokeWidth: 3 },
          },
          tooltip: [{ field: 'method' }, { field: 'k' }, { field: 'recall', format: '.3f' }, { field: 'ci', title: '95% CI' }],
        },
      },
    ],
  };
}

export function reliabilitySpec(labelled: ConfidenceBin[], title = 'Accuracy by confidence', unlabelled: ConfidenceBin[] = []): PlotSpec {
  const numeric = labelled.length > 0 && labelled.every((b) => b.meanConfidence !== undefined);
  // items without a label have no place on a probability axis (the caller's title counts them); beside labels they are bars of their own
  const bins = numeric ? labelled : [...labelled, ...unlabelled.map((b, i) => ({ ...b, order: labelled.length + i }))];
  const values = bins.map((b) => ({ ...b, label: `n=${b.n}` }));
  if (numeric) {
    const x = { field: 'meanConfidence', type: 'quantitative', title: 'mean confidence in the bin', scale: { domain: [0, 1] } };
    const y = { field: 'accuracy', type: 'quantitative', title: 'accuracy', scale: { domain: [0, 1] } };
    return {
      ...BASE,
      title: `${title} — reliability diagram (95% CI)`,
      width: 260,
      height: 220,
      layer: [
        // perfect calibration: accuracy = confidence
        {
          data: {
            values: [
              { meanConfidence: 0, accuracy: 0 },
              { meanConfidence: 1, accuracy: 1 },
            ],
          },
          mark: { type: 'line', color: '#888', strokeDash: [4, 3] },
          encoding: { x, y },
        },
        {
          data: { values },
          mark: { type: 'errorbar', ticks: true, color: '#333' },
          encoding: { x, y: { field: 'lo', type: 'quantitative', title: 'accuracy' }, y2: { field: 'hi' } },
        },
        {
          data: { values },
          mark: { type: 'point', filled: true, color: '#4c78a8' },
          encoding: {
            x,
            y,
            size: { field: 'n', type: 'quantitative', title: 'items' },
            tooltip: [{ field: 'bin' }, { field: 'n' }, { field: 'meanConfidence', format: '.2f' }, { field: 'accuracy', format: '.3f' }],
          },
        },
        {
          data: { values },
          mark: { type: 'text', dy: -10, fontSize: 11 },
          encoding: { x, y: { field: 'hi', type: 'quantitative', title: 'accuracy' }, text: { field: 'label' } },
        },
      ],
    };
  }
  const x = {
    field: 'bin',
    type: 'ordinal',
    title: ['confidence label', '(not a probability: no diagonal)'],
    sort: [...bins].sort((a, b) => a.order - b.order).map((b) => b.bin),
    // "failed (no confidence)" on two lines, so it does not run into its neighbour's label
    axis: {
      labelAngle: 0,
      labelExpr:
        "indexof(datum.label, ' (') > 0 ? [slice(datum.label, 0, indexof(datum.label, ' (')), slice(datum.label, indexof(datum.label, ' (') + 1)] : datum.label",
    },
  };
  const top = axisTop(Math.max(0, ...bins.map((b) => b.hi)));
  return {
    ...BASE,
    title: `${title} — by confidence label (95% CI)`,
    width: Math.max(200, 80 * bins.length),
    height: 180,
    data: { values },
    layer: [
      {
        mark: { type: 'bar', opacity: 0.8, color: '#4c78a8' },
        encoding: {
          x,
          y: { field: 'accuracy', type: 'quantitative', title: 'accuracy', scale: { domain: [0, Math.max(top, 0.1)] } },
          tooltip: [{ field: 'bin' }, { field: 'n' }, { field: 'accuracy', format: '.3f' }],
        },
      },
      {
        mark: { type: 'errorbar', ticks: true, color: '#333' },
        encoding: { x, y: { field: 'lo', type: 'quantitative', title: 'accuracy' }, y2: { field: 'hi' } },
      },
      { mark: { type: 'text', dy: -8, fontSize: 11 }, encoding: { x, y: { field: 'hi', type: 'quantitative', title: 'accuracy' }, text: { field: 'label' } } },
    ],
  };
}

export function roundAccuracySpec(
  rows: (RoundAccuracy & { series?: string })[],
  title = 'Accuracy of the verdict after each round',
  colours?: ColourScale,
): PlotSpec {
  const scale = colours ? { scale: colours } : {};
  const x = { field: 'round', type: 'ordinal', title: 'debate round', axis: { labelAngle: 0 } };
  const series = rows.some((r) => r.series !== undefined);
  const color = series ? { color: { field: 'series', type: 'nominal', title: 'run', ...scale } } : {};
  const top = axisTop(Math.max(0, ...rows.map((r) => r.hi)));
  // in %, as every table beside it prints accuracy ("50.0% [15.0, 85.0]"), never a 0–1 axis
  const y = { type: 'quantitative', title: 'accuracy (%)', axis: { format: PERCENT_AXIS } };
  return {
    ...BASE,
    title: `${title} (95% CI)`,
    width: Math.max(200, 80 * new Set(rows.map((r) => r.round)).size),
    height: 180,
    // the interval is always Wilson's (eval/plots/round-accuracy.ts: a proportion over the run's items)
    data: { values: rows.map((r) => ({ ...r, label: `n=${r.n}`, ci: ciTooltip(r.lo, r.hi, undefined, 'percent') })) },
    layer: [
      {
        mark: { type: 'errorbar', ticks: { size: 10 }, thickness: 1.5, ...(series ? {} : { color: '#4c78a8' }) },
        encoding: {
          x,
          y: { ...y, field: 'lo', scale: { domain: [0, top] } },
          y2: { field: 'hi' },
          ...(series ? { color: { field: 'series', type: 'nominal', ...scale } } : {}),
        },
      },
      {
        mark: { type: 'line', point: { size: 60 }, ...(series ? {} : { color: '#4c78a8' }) },
        encoding: {
          x,
          y: { ...y, field: 'accuracy' },
          ...color,
          tooltip: [
            ...(series ? [{ field: 'series' }] : []),
            { field: 'round' },
            { field: 'n' },
            { field: 'accuracy', title: 'accuracy (%)', format: '.1%' },
            { field: 'ci', title: '95% Wilson CI' },
          ],
        },
      },
      ...(series
        ? []
        : [
            {
              mark: { type: 'text', dy: -10, fontSize: 11 },
              encoding: { x, y: { ...y, field: 'hi' }, text: { field: 'label' } },
            },
          ]),
    ],
  };
}

export interface FigurePoint {
  run: string;
  figure: string;
  estimate: number;
  lo: number | null;
  hi: number | null;
  n: number;
  /** Why lo/hi are null ("n < 10"). */
  missing?: string;
}

/**
 * Runs' headline figures side by side: one panel per figure with its own y axis named for it
 * (Recall@10 and MRR are different measures: never one axis called "value"), one colour per run
 * (the legend names them; no crowded run names under the axis), each point with its 95% interval
 * where it has one. Panels wrap (`columns`) where the page is narrow.
 */
export function figuresSpec(points: FigurePoint[], title = 'Headline figures (95% CI)', colours?: ColourScale): PlotSpec {
  const figures = [...new Set(points.map((p) => p.figure))];
  const runs = [...new Set(points.map((p) => p.run))];
  const top = axisTop(Math.max(0, ...points.map((p) => p.hi ?? p.estimate)));
  const x = { field: 'run', type: 'nominal', title: null, sort: colours?.domain ?? runs, axis: null };
  // the figures are proportions (the caller plots unit 'percent' ones): in %, as the tables beside the chart print them
  const y = { type: 'quantitative', title: 'estimate (%) [95% CI]', axis: { format: PERCENT_AXIS } };
  const color = { field: 'run', type: 'nominal', title: 'run', sort: colours?.domain ?? runs, ...(colours ? { scale: colours } : {}) };
  // lo/hi stay the estimate only for the errorbar layer's scale; it draws no bar where `hasCi` is false, and the tooltip prints `ci`
  const values = points.map((p) => ({
    ...p,
    lo: p.lo ?? p.estimate,
    hi: p.hi ?? p.estimate,
    hasCi: p.lo !== null && p.hi !== null,
    ci: ciTooltip(p.lo, p.hi, p.missing, 'percent'),
  }));
  return {
    ...BASE,
    title,
    data: { values },
    facet: { field: 'figure', type: 'nominal', title: null, sort: figures, header: { labelFontSize: 12, labelLimit: 200 } },
    columns: figures.length,
    resolve: { scale: { y: 'independent' } },
    spec: {
      width: Math.max(60, 26 * runs.length + 20),
      height: 180,
      layer: [
        {
          transform: [{ filter: 'datum.hasCi' }],
          mark: { type: 'errorbar', ticks: true },
          encoding: { x, y: { ...y, field: 'lo', scale: { domain: [0, top] } }, y2: { field: 'hi' }, color },
        },
        {
          mark: { type: 'point', filled: true, size: 60 },
          encoding: {
            x,
            y: { ...y, field: 'estimate' },
            color,
            tooltip: [{ field: 'run' }, { field: 'figure' }, { field: 'estimate', format: '.1%' }, { field: 'ci', title: '95% CI' }, { field: 'n' }],
          },
        },
      ],
    },
  };
}

export interface GridPoint {
  /** The grid's row (a retriever, a system). */
  series: string;
  /** The configuration on the x axis (a table column: "Recall@10", "k=5"). */
  config: string;
  value: number | null;
  lo: number | null;
  hi: number | null;
  paper: number | null;
}

/** The width of one column of a reproduction grid's chart, px. */
const GRID_STEP = 90;

/**
 * A grid's metric against its configuration (a reproduction table's columns on x, in their order),
 * one line and colour per row with lexcase's 95% interval as error bars, and the paper's value as
 * a hollow diamond in the row's colour.
 */
export function gridSpec(points: GridPoint[], configs: string[], yTitle: string, title: string, colours?: ColourScale): PlotSpec {
  // a column is GRID_STEP px wide: a label longer than that (11 px text, ~6.6 px a character) is
  // set at an angle, never across its neighbour ("Gold passage citedCitations supportive")
  const long = Math.max(0, ...configs.map((c) => c.length)) * 6.6 > GRID_STEP - 6;
  const x = {
    field: 'config',
    type: 'ordinal',
    title: null,
    sort: configs,
    axis: long ? { labelAngle: -30, labelLimit: 240 } : { labelAngle: 0, labelLimit: GRID_STEP },
  };
  const color = { field: 'series', type: 'nominal', title: 'row', ...(colours ? { scale: colours } : {}) };
  const mine = points.filter((p) => p.value !== null);
  const withCi = mine.filter((p) => p.lo !== null && p.hi !== null);
  const paper = points.filter((p) => p.paper !== null);
  const top = Math.max(0, ...points.flatMap((p) => [p.hi ?? 0, p.value ?? 0, p.paper ?? 0]));
  const y = { type: 'quantitative', title: yTitle, scale: { domain: [0, top > 1 ? Math.ceil(top / 10) * 10 : axisTop(top)] } };
  return {
    ...BASE,
    title,
    width: Math.max(220, GRID_STEP * configs.length),
    height: 200,
    // a layer with no point (no interval, no paper value: a proposal's table) is left out: vega draws
    // it as an empty, unlabelled graphics-symbol group, which screen readers and axe flag
    layer: [
      withCi.length
        ? { data: { values: withCi }, mark: { type: 'errorbar', ticks: true }, encoding: { x, y: { ...y, field: 'lo' }, y2: { field: 'hi' }, color } }
        : null,
      {
        data: { values: mine },
        mark: { type: 'line', point: { filled: true, size: 50 } },
        encoding: {
          x,
          y: { ...y, field: 'value' },
          color,
          tooltip: [
            { field: 'series', title: 'row' },
            { field: 'config' },
            { field: 'value', format: '.3f' },
            { field: 'lo', format: '.3f' },
            { field: 'hi', format: '.3f' },
          ],
        },
      },
      paper.length
        ? {
            data: { values: paper },
            mark: { type: 'point', shape: 'diamond', filled: false, size: 80, strokeWidth: 2 },
            encoding: {
              x,
              y: { ...y, field: 'paper' },
              color,
              tooltip: [{ field: 'series', title: 'row' }, { field: 'config' }, { field: 'paper', title: 'paper', format: '.3f' }],
            },
          }
        : null,
    ].filter((l) => l !== null),
  };
}
