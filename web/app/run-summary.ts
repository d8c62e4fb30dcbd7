/** The runs list (system, dataset, n, accuracy [95% CI], failures, tokens, date; pick two to compare) and a run page's summary header (the same figures, its plots, its table.json). */
import { api, qs } from './api.js';
import { ciText, clear, h } from './dom.js';
import { go } from './route.js';
import { plot } from './plot.js';
import type { RunSummary } from '../common/run-summary-types.js';

const day = (d: string | null) => (d ? d.replace('T', ' ').slice(0, 16) : '–');

export async function renderRunsTable(root: HTMLElement): Promise<void> {
  const { runs } = await api<{ runs: RunSummary[] }>('/api/runs/summary');
  const a = h('select', { 'data-testid': 'compare-a', 'aria-label': 'run A' }, runs.map((r) => h('option', { value: r.id }, r.id)));
  const b = h('select', { 'data-testid': 'compare-b', 'aria-label': 'run B' }, runs.map((r) => h('option', { value: r.id }, r.id)));
  if (runs.length > 1) b.value = runs[1].id;
  const form = h('form', { class: 'searchbar', 'data-testid': 'compare-form' }, h('strong', {}, 'Compare two runs:'), h('label', {}, 'A ', a), h('label', {}, 'B ', b), h('button', { type: 'submit', 'data-testid': 'compare-go' }, 'Compare'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    go('compare', { a: a.value, b: b.value });
  });
  clear(
    root,
    h(
      'div',
      { class: 'run-view', 'data-testid': 'run-view' },
      h('h2', {}, `Runs (${runs.length})`),
      runs.length === 0 ? h('p', { class: 'muted' }, 'no runs found under --runs') : null,
      h(
        'table',
        { class: 'runs-table', 'data-testid': 'runs-table' },
        h('thead', {}, h('tr', {}, ['run', 'system', 'dataset', 'n', 'accuracy [95% CI]', 'failures', 'tokens', 'date'].map((c) => h('th', {}, c)))),
        h(
          'tbody',
          {},
          runs.map((r) =>
            h(
              'tr',
              { 'data-testid': 'run-row', 'data-run': r.id },
              h('td', {}, h('a', { href: `#/runs?${qs({ run: r.id })}`, 'data-testid': 'run-link', 'data-run': r.id }, r.id)),
              h('td', {}, [r.system ?? r.kind, r.mode].filter(Boolean).join(' · ')),
              h('td', {}, r.dataset ?? '–'),
              h('td', { class: 'num' }, r.n),
              h('td', { class: 'num', 'data-testid': 'run-accuracy' }, r.n ? `${r.correct}/${r.n} · ${ciText(r.accuracy)}` : '–'),
              h('td', { class: r.failures ? 'num error-text' : 'num' }, r.failures),
              h('td', { class: 'num' }, r.tokens.toLocaleString('en-US')),
              h('td', {}, day(r.date)),
            ),
          ),
        ),
      ),
      runs.length > 1 ? form : null,
    ),
  );
}

/** A table.json (from `lexcase reproduce`): rows of objects, or {columns|header, rows}; anything else as JSON. */
export function jsonTable(t: unknown): HTMLElement {
  const cell = (v: unknown) => (v === null || v === undefined ? '–' : typeof v === 'object' ? JSON.stringify(v) : typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(4) : String(v));
  const o = t as { title?: unknown; columns?: unknown[]; header?: unknown; rows?: unknown };
  let cols: string[] | undefined;
  let rows: unknown[][] | undefined;
  const objRows = (xs: unknown[]) => {
    cols = [...new Set(xs.flatMap((x) => (x && typeof x === 'object' ? Object.keys(x) : [])))];
    rows = xs.map((x) => cols!.map((c) => (x as Record<string, unknown>)?.[c]));
  };
  type ReproCell = { column: string; paper?: number | null; value?: number | null; ci?: [number, number] | null; n?: number; outsideCi?: boolean | null };
  const isRepro = (xs: unknown[]) => xs.every((x) => x && typeof x === 'object' && Array.isArray((x as { cells?: unknown }).cells));
  const fmt = (v: number | null | undefined) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(4)) : '–');
  if (Array.isArray(t)) objRows(t);
  else if (o && Array.isArray(o.rows) && Array.isArray(o.columns) && isRepro(o.rows)) {
    // `lexcase reproduce`: per cell the paper's value beside lexcase's [95% CI] (n), flagged when the paper lies outside the CI
    cols = ['row', ...o.columns.map(String)];
    rows = (o.rows as { label?: unknown; cells: ReproCell[] }[]).map((r) => [
      String(r.label ?? ''),
      ...o.columns!.map((c) => {
        const x = r.cells.find((y) => y.column === c);
        if (!x) return '–';
        const ci = x.ci ? ` [${fmt(x.ci[0])}, ${fmt(x.ci[1])}]` : '';
        return `paper ${fmt(x.paper)} · lexcase ${fmt(x.value)}${ci}${x.n !== undefined ? ` (n=${x.n})` : ''}${x.outsideCi ? ' ⚑' : ''}`;
      }),
    ]);
  } else if (o && Array.isArray(o.rows)) {
    const head = Array.isArray(o.columns) ? o.columns : Array.isArray(o.header) ? o.header : undefined;
    if (head && o.rows.every(Array.isArray)) {
      cols = head.map(String);
      rows = o.rows as unknown[][];
    } else objRows(o.rows);
  }
  if (!cols || !rows) return h('pre', { class: 'detail', 'data-testid': 'run-table' }, JSON.stringify(t, null, 1));
  return h(
    'div',
    {},
    typeof o?.title === 'string' ? h('div', { class: 'muted' }, o.title) : null,
    h('table', { class: 'runs-table', 'data-testid': 'run-table' }, h('thead', {}, h('tr', {}, cols.map((c) => h('th', {}, c)))), h('tbody', {}, rows.map((r) => h('tr', {}, r.map((v) => h('td', {}, cell(v))))))),
  );
}

export async function runSummaryHeader(el: HTMLElement, runId: string): Promise<void> {
  const p = await api<{ summary: RunSummary; plots: { id: string; title: string; spec: unknown }[]; table: unknown }>(`/api/run/summary?${qs({ run: runId })}`);
  const s = p.summary;
  const plotsOpen = h('details', { class: 'plots', open: true }, h('summary', {}, `Plots (${p.plots.length})`), h('div', { class: 'plot-row' }, p.plots.map((x) => plot(x.spec, x.title, `plot-${x.id}`))));
  const tableBox = p.table ? h('details', { class: 'table-json', open: true }, h('summary', {}, 'table.json'), jsonTable(p.table)) : null;
  clear(
    el,
    h(
      'div',
      { class: 'run-summary', 'data-testid': 'run-summary' },
      h('h2', {}, s.id, h('a', { href: '#/runs', class: 'back', 'data-testid': 'all-runs' }, '← all runs')),
      h(
        'dl',
        { class: 'figures' },
        [
          ['system', [s.system ?? s.kind, s.mode].filter(Boolean).join(' · ')],
          ['dataset', s.dataset ?? '–'],
          ['n', String(s.n)],
          ['accuracy [95% CI]', s.n ? `${s.correct}/${s.n} · ${ciText(s.accuracy)}` : '–'],
          ['failures', String(s.failures)],
          ['tokens', s.tokens.toLocaleString('en-US')],
          ['date', day(s.date)],
        ].map(([k, v]) => h('div', {}, h('dt', {}, k), h('dd', { 'data-testid': `summary-${k.split(' ')[0]}` }, v))),
      ),
      p.plots.length || tableBox ? h('div', { class: 'header-row' }, p.plots.length ? plotsOpen : null, tableBox) : null,
    ),
  );
}

