/**
 * Render a Vega-Lite spec (the same specs report.md's SVGs come from, eval/plots/specs.ts, sent by
 * the server) into an element as SVG, with vega and vega-lite bundled into app.js (no CDN). Vega's
 * expressions run through vega-interpreter, so the page's content security policy needs no
 * 'unsafe-eval'.
 */
import { loader, parse, View } from 'vega';
import { expressionInterpreter } from 'vega-interpreter';
import { compile, type TopLevelSpec } from 'vega-lite';
import { h } from './dom.js';

/** A vega loader that loads nothing: specs carry their data inline, and no plot may fetch a URL. */
const noFetch = Object.assign(loader(), {
  sanitize: async (uri: string) => {
    throw new Error(`plots load no external data (${uri})`);
  },
});

export function plot(spec: unknown, label: string, testid = 'plot'): HTMLElement {
  const el = h('figure', { class: 'plot', 'data-testid': testid, role: 'img', 'aria-label': label });
  const target = h('div', { class: 'plot-canvas' });
  el.append(target, h('figcaption', { class: 'muted' }, label));
  try {
    const vg = compile(spec as TopLevelSpec).spec;
    const view = new View(parse(vg, undefined, { ast: true }), { expr: expressionInterpreter, renderer: 'svg', container: target, hover: true, loader: noFetch });
    void view.runAsync().then(() => el.setAttribute('data-rendered', 'true'));
  } catch (e) {
    target.append(h('div', { class: 'error' }, `plot failed: ${(e as Error).message}`));
  }
  return el;
}
