/**
 * Render a Vega-Lite spec (specs.ts) to an SVG string in Node, without a browser: vega-lite
 * compiles it to Vega, and a headless vega View (renderer "none") writes the SVG.
 */
import { compile, type TopLevelSpec } from 'vega-lite';
import { parse, View } from 'vega';
import type { PlotSpec } from './specs.js';

export async function renderSvg(spec: PlotSpec): Promise<string> {
  const vg = compile(spec as unknown as TopLevelSpec).spec;
  const view = new View(parse(vg), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
