/** Tiny DOM helpers: elements are built with textContent only (never innerHTML), so passage and trace text cannot inject markup. */
type Child = Node | string | number | null | undefined | false;
type Attrs = Record<string, string | number | boolean | null | undefined | ((e: Event) => void)>;

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  setAttrs(el, attrs);
  append(el, children);
  return el;
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
export const ciText = (c: { estimate: number; lo: number; hi: number } | null | undefined): string => (c ? `${pct(c.estimate)} [${pct(c.lo)}, ${pct(c.hi)}]` : '–');
