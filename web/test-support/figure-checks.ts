/**
 * What the layout test measures on every rendered page, in the page itself (a script string, so
 * it runs in Chromium as written): the plots' legends (labels distinct and uncut, one colour per
 * run across all plots of the page), the smallest rendered plot text in CSS px (font size × the
 * SVG's scale on screen), tables whose columns run past the screen outside a labelled,
 * keyboard-focusable scroll region, and header cells and tool names broken inside a word.
 */
import type { Page } from 'playwright-core';

export interface FigureFacts {
  /** Per plot (its data-testid): the legend labels and their swatch colours, in order. */
  legends: { plot: string; labels: string[]; colours: string[] }[];
  /** The smallest plot text on screen, px, with what it says and its plot. */
  minText: { px: number; text: string; plot: string } | null;
  /** Tables (their data-testid or caption) wider than the screen and not inside a labelled scroll region (tabindex 0, aria-label) that itself fits. */
  hiddenColumns: string[];
  /** Tables whose scroll region scrolls (content wider than the box). */
  scrolling: string[];
  /** Header cells / tool names whose text wraps inside a word ("ste/p"). */
  midWord: string[];
}

const SCRIPT = `(() => {
  const vw = document.documentElement.clientWidth;
  const name = (el) => el.getAttribute('data-testid') || el.querySelector('caption')?.textContent || el.className || el.tagName;
  const legends = [];
  let minText = null;
  for (const fig of document.querySelectorAll('figure.plot')) {
    const svg = fig.querySelector('svg');
    if (!svg) continue;
    const plotName = fig.getAttribute('data-testid') || '';
    const vb = svg.viewBox && svg.viewBox.baseVal && svg.viewBox.baseVal.width ? svg.viewBox.baseVal.width : Number(svg.getAttribute('width'));
    const scale = vb ? svg.getBoundingClientRect().width / vb : 1;
    for (const t of svg.querySelectorAll('text')) {
      if (!t.textContent.trim()) continue;
      const px = parseFloat(getComputedStyle(t).fontSize) * scale;
      if (!minText || px < minText.px) minText = { px: Math.round(px * 10) / 10, text: t.textContent, plot: plotName };
    }
    for (const lg of svg.querySelectorAll('g.role-legend')) {
      const entries = lg.querySelectorAll('g.role-legend-entry g.role-scope > g');
      const labels = [];
      const colours = [];
      for (const e of entries) {
        const label = e.querySelector('g.role-legend-label text');
        const sym = e.querySelector('g.role-legend-symbol path');
        if (!label) continue;
        labels.push(label.textContent);
        const st = sym ? getComputedStyle(sym) : null;
        const stroke = sym && sym.getAttribute('stroke');
        const fill = sym && sym.getAttribute('fill');
        colours.push(stroke && stroke !== 'transparent' && stroke !== 'none' ? stroke : fill || (st ? st.fill : ''));
      }
      if (labels.length) legends.push({ plot: plotName, labels, colours });
    }
  }
  const hiddenColumns = [];
  const scrolling = [];
  for (const table of document.querySelectorAll('main table, #app table')) {
    if (table.closest('[hidden]') || table.getClientRects().length === 0) continue;
    if (table.closest('details:not([open])')) continue;
    const box = table.closest('.scroll-x');
    const labelled = box && box.getAttribute('tabindex') === '0' && box.getAttribute('aria-label');
    const r = table.getBoundingClientRect();
    if (box && box.scrollWidth > box.clientWidth + 1) scrolling.push(name(table));
    if (labelled) {
      const br = box.getBoundingClientRect();
      if (br.right > vw + 1) hiddenColumns.push(name(table) + ': its scroll region ends at ' + Math.round(br.right) + ' px of ' + vw);
    } else if (r.right > vw + 1 || (table.parentElement && table.scrollWidth > table.parentElement.clientWidth + 1 && getComputedStyle(table.parentElement).overflowX !== 'visible')) {
      hiddenColumns.push(name(table) + ': ' + Math.round(r.width) + ' px wide, not in a labelled scroll region');
    }
  }
  const midWord = [];
  const words = (el) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const re = /\\S+/g;
      let m;
      while ((m = re.exec(n.data))) {
        const range = document.createRange();
        range.setStart(n, m.index);
        range.setEnd(n, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
        if (tops.size > 1) midWord.push(m[0] + ' (in ' + (el.tagName === 'TH' ? 'header' : 'tool name') + ')');
      }
    }
  };
  for (const el of document.querySelectorAll('th, [data-tool], .tool-name')) if (el.getClientRects().length && !el.closest('details:not([open])')) words(el);
  return { legends, minText, hiddenColumns, scrolling, midWord };
})()`;

export function figureFacts(page: Page): Promise<FigureFacts> {
  return page.evaluate(SCRIPT) as Promise<FigureFacts>;
}

/** Problems in the facts: legend labels repeated or cut ("…"), a label with two colours on one page, two labels with one colour, text under `minPx`. */
export function figureProblems(f: FigureFacts, minPx = 9): string[] {
  const out: string[] = [];
  const colourOf = new Map<string, string>();
  for (const l of f.legends) {
    if (new Set(l.labels).size !== l.labels.length) out.push(`${l.plot}: legend labels repeat: ${l.labels.join(' | ')}`);
    for (const x of l.labels) if (x.endsWith('…')) out.push(`${l.plot}: legend label cut: ${x}`);
    l.labels.forEach((x, i) => {
      const c = l.colours[i];
      if (colourOf.has(x) && colourOf.get(x) !== c) out.push(`"${x}" is ${colourOf.get(x)} in one plot and ${c} in ${l.plot}`);
      colourOf.set(x, c);
    });
    if (new Set(l.colours).size !== l.colours.length) out.push(`${l.plot}: two legend entries share a colour: ${l.colours.join(' ')}`);
  }
  if (f.minText && f.minText.px < minPx) out.push(`plot text ${f.minText.px} px < ${minPx} px ("${f.minText.text}" in ${f.minText.plot})`);
  out.push(...f.hiddenColumns.map((x) => `hidden columns: ${x}`));
  out.push(...f.midWord.map((x) => `mid-word break: ${x}`));
  return out;
}
