/**
 * Vega-Lite specs for lexcase's plots, shared by report.md (rendered to SVG in Node by
 * render-svg.ts) and the explorer (the server sends the same spec; the browser renders it with the
 * bundled vega). Plain JSON: no functions, so a spec travels over the API unchanged.
 *
 * - recallCurveSpec: Recall@k per method, log-scaled k, with a 95% CI band per method.
 * - reliabilitySpec: accuracy by confidence bin with the count of items in each bin (a
 *   reliability diagram; numeric confidences also get the bin's mean confidence as a reference).
 * - roundAccuracySpec: MAD's accuracy of the judge's verdict after each debate round, with CI.
 */

/** A Vega-Lite top-level spec (kept as plain JSON). */
export type PlotSpec = Record<string, unknown>;

export interface CurvePoint {
  method: string;
  k: number;
  recall: number;
  lo: number;
  hi: number;
}

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

const BASE = { $schema: 'https://vega.github.io/schema/vega-lite/v6.json', background: 'white', config: { font: 'sans-serif', axis: { labelFontSize: 11, titleFontSize: 12 }, legend: { labelFontSize: 11, titleFontSize: 12 } } };

export function recallCurveSpec(points: CurvePoint[], title = 'Recall@k'): PlotSpec {
  const x = { field: 'k', type: 'quantitative', title: 'k (log scale)', scale: { type: 'log' }, axis: { values: [...new Set(points.map((p) => p.k))].sort((a, b) => a - b) } };
  const color = { field: 'method', type: 'nominal', title: 'method' };
  return {
    ...BASE,
    title,
    width: 460,
    height: 260,
    data: { values: points },
    layer: [
      { mark: { type: 'area', opacity: 0.18 }, encoding: { x, y: { field: 'lo', type: 'quantitative', title: 'Recall@k', scale: { domain: [0, 1] } }, y2: { field: 'hi' }, color } },
      {
        mark: { type: 'line', point: true },
        encoding: {
          x,
          y: { field: 'recall', type: 'quantitative' },
          color,
          tooltip: [{ field: 'method' }, { field: 'k' }, { field: 'recall', format: '.3f' }, { field: 'lo', format: '.3f', title: 'CI lo' }, { field: 'hi', format: '.3f', title: 'CI hi' }],
        },
      },
    ],
  };
}

export function reliabilitySpec(bins: ConfidenceBin[], title = 'Accuracy by confidence'): PlotSpec {
  const x = { field: 'bin', type: 'ordinal', title: 'confidence', sort: [...bins].sort((a, b) => a.order - b.order).map((b) => b.bin), axis: { labelAngle: 0 } };
  const layers: Record<string, unknown>[] = [
    { mark: { type: 'bar', opacity: 0.8, color: '#4c78a8' }, encoding: { x, y: { field: 'accuracy', type: 'quantitative', title: 'accuracy', scale: { domain: [0, 1] } }, tooltip: [{ field: 'bin' }, { field: 'n' }, { field: 'accuracy', format: '.3f' }] } },
    { mark: { type: 'rule', color: '#333' }, encoding: { x, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' } } },
    { mark: { type: 'text', dy: -8, fontSize: 11 }, encoding: { x, y: { field: 'hi', type: 'quantitative' }, text: { field: 'label' } } },
  ];
  if (bins.some((b) => b.meanConfidence !== undefined))
    layers.push({ mark: { type: 'point', shape: 'diamond', color: '#e45756', filled: true, size: 60 }, encoding: { x, y: { field: 'meanConfidence', type: 'quantitative' } } });
  return { ...BASE, title, width: Math.max(160, 70 * bins.length), height: 180, data: { values: bins.map((b) => ({ ...b, label: `n=${b.n}` })) }, layer: layers };
}

export function roundAccuracySpec(rows: RoundAccuracy[], title = 'Accuracy of the verdict after each round'): PlotSpec {
  const x = { field: 'round', type: 'ordinal', title: 'debate round', axis: { labelAngle: 0 } };
  return {
    ...BASE,
    title,
    width: Math.max(160, 80 * rows.length),
    height: 180,
    data: { values: rows.map((r) => ({ ...r, label: `n=${r.n}` })) },
    layer: [
      { mark: { type: 'rule', color: '#888' }, encoding: { x, y: { field: 'lo', type: 'quantitative', title: 'accuracy', scale: { domain: [0, 1] } }, y2: { field: 'hi' } } },
      { mark: { type: 'line', point: { size: 60 } }, encoding: { x, y: { field: 'accuracy', type: 'quantitative' }, tooltip: [{ field: 'round' }, { field: 'n' }, { field: 'accuracy', format: '.3f' }] } },
      { mark: { type: 'text', dy: -10, fontSize: 11 }, encoding: { x, y: { field: 'hi', type: 'quantitative' }, text: { field: 'label' } } },
    ],
  };
}
