/** Tiny DOM helpers: elements are built with textContent only (never innerHTML), so passage and trace text cannot inject markup. */
type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | ((e: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

/** A text shown to `max` characters: a longer one is cut, ends in "…", and `attrs` puts the whole in the element's title (a tooltip). */
export function clipped(text: string, max: number): { text: string; cut: boolean; attrs: Attrs } {
  return text.length > max ? { text: `${text.slice(0, max)}…`, cut: true, attrs: { title: text } } : { text, cut: false, attrs: {} };
}

const SVG_NS = 'http://www.w3.org/2000/svg';
export function s(tag: string, attrs: Attrs = {}, ...children: (Child | Child[])[]): SVGElement {
  const el = document.createElementNS(SVG_NS, tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
}

function setAttrs(el: Element, attrs: Attrs): void {
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (typeof v === 'function') el.addEventListener(k.replace(/^on/, ''), v);
    else if (k === 'value' && el instanceof HTMLInputElement) el.value = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
}

function append(el: Element, children: (Child | Child[])[]): void {
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'object' ? c : String(c));
  }
}

export function clear(el: Element, ...children: (Child | Child[])[]): void {
  el.replaceChildren();
  append(el, children);
}

export const fmt = (x: number | null | undefined, d = 4): string => (typeof x === 'number' && Number.isFinite(x) ? x.toFixed(d) : '–');

export function errorBox(e: unknown): HTMLElement {
  return h('div', { class: 'error', role: 'alert' }, (e as Error)?.message ?? String(e));
}

/** Attributes that make a non-button element (a table row) act like one: focusable, Enter/Space activate it. */
export function activate(fn: () => void): Attrs {
  return {
    tabindex: 0,
    role: 'button',
    onclick: fn,
    onkeydown: (e: Event) => {
      const k = (e as KeyboardEvent).key;
      if (k === 'Enter' || k === ' ') {
        e.preventDefault();
        fn();
      }
    },
  };
}

export const pct = (x: number | null | undefined, d = 1): string => (typeof x === 'number' && Number.isFinite(x) ? `${(100 * x).toFixed(d)}%` : '–');
export const ciText = (c: { estimate: number; lo: number; hi: number } | null | undefined): string =>
  c ? `${pct(c.estimate)} [${pct(c.lo)}, ${pct(c.hi)}]` : '–';

/** A number rounded for display: up to `d` decimals, trailing zeros dropped (0.3404580353777051 → "0.34"). */
export const round = (x: unknown, d = 2): string => (typeof x === 'number' && Number.isFinite(x) ? String(Number(x.toFixed(d))) : String(x ?? '–'));

/** The view's one h1; it takes focus when a route opens the view (tabindex −1: focusable by script only). Sets the page title. */
export function viewHeading(text: string, ...extra: (Child | Child[])[]): HTMLHeadingElement {
  document.title = `${text} · lexcase explorer`;
  return h('h1', { tabindex: -1, 'data-view-heading': true }, text, ...extra);
}

/** A box that scrolls sideways when its content (a wide table, a graph) is wider than the screen — focusable, so the keyboard can scroll it. */
export function scrollBox(label: string, ...children: (Child | Child[])[]): HTMLElement {
  return h('div', { class: 'scroll-x', tabindex: 0, role: 'region', 'aria-label': label }, ...children);
}

/** A passage id as a link to its passage page (#/passage?id=); `gold`/`relevant` mark it. */
export function pidLink(id: string, o: { gold?: boolean; relevant?: boolean; title?: string; run?: string } = {}): HTMLAnchorElement {
  const q = new URLSearchParams({ id });
  if (o.run) q.set('run', o.run);
  return h(
    'a',
    { class: `pid${o.gold ? ' gold' : ''}${o.relevant ? ' relevant' : ''}`, href: `#/passage?${q}`, title: o.title ?? `passage ${id}`, 'data-pid': id },
    id,
  );
}

/**
 * One headline figure as its server sends it: the text ("48.4% [39.8, 57.1]", "0.032 [0.021, 0.045]")
 * and the interval's method ("95% Wilson") come from eval/stats on the server — the app prints
 * them and computes no interval of its own.
 */
export interface FigureLike {
  label: string;
  /** null: over no item (every item failed). */
  estimate: number | null;
  lo: number | null;
  hi: number | null;
  n: number;
  interval: string;
  method: string;
  text: string;
  smallN: boolean;
  note?: string;
  /** A short marker printed beside the figure in lists, as visible text (macro-F1 capped below 100%); `note` says why. */
  ceiling?: string;
  /** Failed items left out of n (3-ply). */
  failed?: number;
}
export function figureText(f: FigureLike): string {
  return f.text;
}
export function figureTitle(f: FigureLike): string {
  return `${f.label}: n = ${f.n}${f.failed ? ` (${f.failed} failed, left out)` : ''}; ${f.method}${f.note ? `; ${f.note}` : ''}${f.smallN ? '; small n: read the interval, not the point' : ''}`;
}

/** The small-n warning shown beside figures computed on fewer than 30 items. */
export function smallNWarning(n: number): HTMLElement {
  return h(
    'span',
    { class: 'small-n', role: 'note', title: 'fewer than 30 items: intervals are wide and a bootstrap interval is not given below 10' },
    `⚠ small n (${n})`,
  );
}

let expandables = 0;
/**
 * A long text clamped to whole lines (`lines`: 2 or 6; never cut mid-line) with a "more" button
 * that opens it all and "less" that closes it (aria-expanded, aria-controls). The button shows only
 * while the text overflows its lines — rechecked when the box first gets a size (a closed
 * <details> opened, a wider window).
 */
export function expandable(content: HTMLElement, lines: 2 | 6 = 6): HTMLElement {
  content.id ||= `expandable-${++expandables}`;
  content.classList.add('clamped', `clamp-${lines}`);
  const more = h(
    'button',
    { type: 'button', class: 'more', 'data-testid': 'more', 'aria-expanded': 'false', 'aria-controls': content.id, hidden: true },
    'more',
  );
  const open = () => content.classList.contains('open');
  more.addEventListener('click', () => {
    const o = !open();
    content.classList.toggle('open', o);
    more.setAttribute('aria-expanded', String(o));
    more.textContent = o ? 'less' : 'more';
  });
  const check = () => {
    if (!open()) more.hidden = content.scrollHeight <= content.clientHeight + 1;
  };
  if (typeof ResizeObserver !== 'undefined') new ResizeObserver(check).observe(content);
  return h('div', { class: 'expandable' }, content, more);
}
