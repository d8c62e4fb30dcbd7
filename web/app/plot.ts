/**
 * Render a Vega-Lite spec (the same specs report.md's SVGs come from, eval/plots/specs.ts, sent by
 * the server) into an element as SVG, with vega and vega-lite bundled into app.js (no CDN). Vega's
 * expressions run through vega-interpreter, so the page's content security policy needs no
 * 'unsafe-eval'.
 *
 * The plot fits the width it has instead of being scaled down (a 460 px plot shrunk to a 330 px
 * phone column draws 11 px labels at 6 px): rendered once at the spec's size, then — if wider than
 * its box — with the legend below the plot, then narrower (a faceted spec: fewer facets a row),
 * so its text keeps the spec's font sizes. A colour legend's label too long for its room is set on
 * more lines, never cut with "…" (two rows' labels cut alike read as one).
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

type Spec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function draw(spec: Spec, target: HTMLElement): Promise<{ view: View; width: number }> {
  const vg = compile(spec as TopLevelSpec).spec;
  const view = new View(parse(vg, undefined, { ast: true }), { expr: expressionInterpreter, renderer: 'svg', container: target, hover: true, loader: noFetch });
  await view.runAsync();
  const svg = target.querySelector('svg');
  // vega names the SVG and the marks it has a description for (role graphics-document/-symbol), but
  // not every mark: a figure without an interval draws a rule with role graphics-symbol and no text,
  // which a screen reader announces as an unnamed graphic (axe: svg-img-alt). The drawing is hidden
  // from assistive technology as a whole; the figure is named by its box (role img, the plot's
  // title) and its caption, and the numbers it draws are the page's tables, as text.
  svg?.setAttribute('aria-hidden', 'true');
  return { view, width: svg ? Number(svg.getAttribute('width')) || svg.getBoundingClientRect().width : 0 };
}

/** A title as lines that fit `avail` px (13 px bold: about 7.5 px a character), broken between words. */
function wrapTitle(title: unknown, avail: number): unknown {
  const text = typeof title === 'string' ? title : title && typeof (title as Spec).text === 'string' ? (title as Spec).text : null;
  if (text === null) return title;
  const max = Math.max(16, Math.floor((avail - 10) / 7.5));
  const lines: string[] = [];
  for (const w of text.split(/\s+/)) {
    const last = lines[lines.length - 1];
    if (last !== undefined && `${last} ${w}`.length <= max) lines[lines.length - 1] = `${last} ${w}`;
    else lines.push(w);
  }
  return typeof title === 'string' ? { text: lines } : { ...(title as Spec), text: lines };
}

/** Every label of the spec's colour legends: the domains its colour scales are given (runColours), in order. */
function colourLabels(spec: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(spec)) for (const x of spec) colourLabels(x, out);
  else if (spec && typeof spec === 'object') {
    const o = spec as Spec;
    const domain = o.color?.scale?.domain;
    if (Array.isArray(domain)) for (const d of domain) if (typeof d === 'string') out.add(d);
    for (const v of Object.values(o)) colourLabels(v, out);
  }
  return out;
}

/** `text` as lines of at most `max` characters, broken between words (a word longer than `max` is a line of its own). */
export function wrapLines(text: string, max: number): string[] {
  const lines: string[] = [];
  for (const w of text.split(/\s+/).filter(Boolean)) {
    const last = lines[lines.length - 1];
    if (last !== undefined && `${last} ${w}`.length <= max) lines[lines.length - 1] = `${last} ${w}`;
    else lines.push(w);
  }
  return lines;
}

/**
 * A legend label expression that sets each label longer than `max` characters on as many lines as it
 * needs, whole: cut to one line, "Single Agent with Enhanced Prompting · Llama-4-Maverick-17b-128e" and
 * "… · Llama-4-Scout-17b-16e" both read "Single Agent with Enhanced Prompting · Llam…" at 360 px.
 * Null when every label fits on one line.
 */
export function wrappedLabelExpr(labels: Iterable<string>, max: number): string | null {
  const long = [...labels].filter((l) => l.length > max);
  if (!long.length) return null;
  const map = Object.fromEntries(long.map((l) => [l, wrapLines(l, max)]));
  return `${JSON.stringify(map)}[datum.label] || datum.label`;
}

/** 11 px legend text: about 6.2 px a character on average; 7 leaves room for a line of wide ones. */
const LEGEND_CHAR_PX = 7;

/** The spec with every colour legend label longer than `room` px set on more lines (wrappedLabelExpr). */
function wrapLegendLabels(spec: Spec, room: number): Spec {
  const labelExpr = wrappedLabelExpr(colourLabels(spec), Math.max(12, Math.floor(room / LEGEND_CHAR_PX)));
  return labelExpr ? (withLabelExpr(spec, labelExpr) as Spec) : spec;
}

/** The spec with its title wrapped and its legends below the plot, one entry a line, labels as wide as the box allows (a longer one wrapped onto more lines, never cut). */
function legendBelow(spec: Spec, avail: number): Spec {
  const config = spec.config ?? {};
  const labelLimit = Math.max(120, avail - 40);
  return {
    // the label's room: the limit less the symbol and its padding (~30 px)
    ...wrapLegendLabels(spec, labelLimit - 30),
    title: wrapTitle(spec.title, avail),
    config: { ...config, legend: { ...(config.legend ?? {}), orient: 'bottom', direction: 'vertical', labelLimit } },
  };
}

/** The spec with `labelExpr` on the legend of every colour encoding (Vega-Lite's legend config takes none). */
function withLabelExpr(spec: unknown, labelExpr: string): unknown {
  if (Array.isArray(spec)) return spec.map((x) => withLabelExpr(x, labelExpr));
  if (!spec || typeof spec !== 'object') return spec;
  const out: Spec = {};
  for (const [k, v] of Object.entries(spec as Spec)) {
    out[k] =
      k === 'color' && v && typeof v === 'object' && typeof v.field === 'string' && v.legend !== null
        ? { ...v, legend: { ...(v.legend ?? {}), labelExpr } }
        : withLabelExpr(v, labelExpr);
  }
  return out;
}

/** The spec narrowed by `over` px: a faceted spec gets fewer facets a row, any other a smaller width. */
function narrower(spec: Spec, width: number, avail: number): Spec {
  if (spec.facet && typeof spec.columns === 'number') return { ...spec, columns: Math.max(1, Math.floor((spec.columns * avail) / width)) };
  if (typeof spec.width === 'number') return { ...spec, width: Math.max(120, spec.width - (width - avail) - 4) };
  return spec;
}

async function fit(spec: Spec, target: HTMLElement, avail: number): Promise<void> {
  // beside the plot too, a label longer than the legend's labelLimit (vega's default: 160 px) is wrapped, not cut
  let s = wrapLegendLabels(spec, spec.config?.legend?.labelLimit ?? 160);
  let r = await draw(s, target);
  for (let step = 0; avail > 0 && r.width > avail && step < 4; step++) {
    const next = step === 0 ? legendBelow(s, avail) : narrower(s, r.width, avail);
    if (next === s) return;
    const before = { spec: s, width: r.width };
    r.view.finalize();
    target.replaceChildren();
    s = next;
    r = await draw(s, target);
    // narrowing that made the SVG no narrower (its legend below is the widest part) only squeezed
    // the plot's columns until their labels ran into each other: draw it as it was (CSS fits it)
    if (step > 0 && r.width >= before.width - 1) {
      r.view.finalize();
      target.replaceChildren();
      await draw(before.spec, target);
      return;
    }
  }
}

export function plot(spec: unknown, label: string, testid = 'plot'): HTMLElement {
  const el = h('figure', { class: 'plot', 'data-testid': testid });
  const target = h('div', { class: 'plot-canvas', role: 'img', 'aria-label': label });
  el.append(target, h('figcaption', { class: 'muted' }, label));
  // drawn once the figure is on the page, so the width its box gives it is known
  let frames = 0;
  const start = () => {
    const avail = el.isConnected ? (el.parentElement ?? el).clientWidth : 0;
    if (avail === 0 && frames++ < 60) return void requestAnimationFrame(start);
    fit(spec as Spec, target, avail)
      .then(() => el.setAttribute('data-rendered', 'true'))
      .catch((e: Error) => {
        target.replaceChildren(h('div', { class: 'error' }, `plot failed: ${e.message}`));
        el.setAttribute('data-rendered', 'error');
      });
  };
  requestAnimationFrame(start);
  return el;
}
