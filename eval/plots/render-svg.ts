/**
 * Render a Vega-Lite spec (specs.ts) to an SVG string in Node, without a browser: vega-lite
 * compiles it to Vega, and a headless vega View (renderer "none") writes the SVG. Both are loaded on
 * the first plot (~0.45 s of CPU): a report without plots, and every importer that writes none, starts without them.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { PlotSpec } from './specs.js';

export async function renderSvg(spec: PlotSpec): Promise<string> {
  const [{ compile }, { parse, View }] = await Promise.all([import('vega-lite'), import('vega')]);
  const vg = compile(spec as unknown as TopLevelSpec).spec;
  const view = new View(parse(vg), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
