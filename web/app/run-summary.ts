/**
 * The runs list (#/runs: system, dataset, model, method, k, n, the system's headline figures with
 * 95% intervals, failures, tokens, date — sortable, filterable, N runs picked to compare) and a run
 * page's summary header (the same figures, its plots, its table.json; for a `lexcase reproduce`
 * dir the paper-vs-lexcase table with its flags, notes and child runs).
 */
import { fixedHalfEven } from '../../core/fixed.js';
import { api, qs } from './api.js';
import { clear, figureText, figureTitle, h, smallNWarning, viewHeading, type FigureLike } from './dom.js';
import { exportControl } from './export.js';
import { go } from './route.js';
import { plot } from './plot.js';
import { sortableTable, td, type Column, type SortState } from './sortable.js';
import { reproFlagText, reproNText } from './repro-cell.js';
import { utcStamp } from './date-stamp.js';
import { tokensExportText } from './tokens-export.js';
import type { Figure, ReproProvenance as Provenance, RunSummary } from '../common/run-summary-types.js';
import { systemLabel } from '../common/labels.js';

/** What the tokens figure leaves out: failed attempts a retry replaced (results.jsonl `replacedAttempts`). */
const retriedNote = (n: number) => `${n.toLocaleString('en-US')} tokens more were spent on attempts a retry replaced`;
/** What no token figure holds: requests cut off when their item ended (results.jsonl `tokens.abandoned`; eval/run-counts.ts cutOffText). */
const cutOffNote = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'request' : 'requests'} cut off when their item ended (their usage is in no total)`;
/** Sent but in no call count: requests answered with an error after their retries (results.jsonl `tokens.refused`; eval/run-counts.ts refusedText). */
const refusedNote = (n: number) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? 'request' : 'requests'} refused (an error instead of a reply after retries, e.g. HTTP 400; not in LLM calls)`;
/** Sent but in no call count: failed attempts sent again (results.jsonl `tokens.retried`; eval/run-counts.ts resentText). */
const retriedAttemptsNote = (n: number) =>
  `${n.toLocaleString('en-US')} failed ${n === 1 ? 'attempt' : 'attempts'} sent again (HTTP 429/5xx, a timeout, …; ${n === 1 ? 'its' : 'their'} usage, if any, is in no total)`;
/** A killed or interrupted run (fewer results than config.json planned): its figures are over the items it finished (eval/run-planned.ts). */
const partialNote = (s: RunSummary) =>
  h(
    'span',
    { class: 'error-text', role: 'note', 'data-testid': 'run-partial' },
    s.inProgress
      ? `⏳ in progress: ${s.n} of ${s.planned} planned items so far (a lexcase run is still writing this run dir); the figures are over these ${s.n} only`
      : `⚠ partial: ${s.n} of ${s.planned} planned items (the run stopped before the rest); the figures are over these ${s.n} only — resume it by running the same command again with its --run-dir`,
  );
/** results.jsonl could not be read (a malformed line before the last): the error `lexcase report` stops with, not an empty run. */
const problemNote = (problem: string) =>
  h('span', { class: 'error-text', role: 'note', 'data-testid': 'run-results-problem' }, `⚠ results.jsonl unreadable: ${problem}`);
/** A truncated last line of results.jsonl, left out of every figure (`lexcase report` warns the same). */
const TORN_NOTE =
  'results.jsonl ends in a truncated last line (a write the process was stopped in), left out of every figure — resume the run to redo that item';

/** A run's figures, one per line: "Recall@10 10.0% [2.8, 30.1]". */
export function figureList(figs: FigureLike[], testid = 'figures', sortKey = false): HTMLElement {
  if (!figs.length) return h('span', { class: 'muted' }, '–');
  return h(
    'div',
    { class: 'fig-list', 'data-testid': testid },
    figs.map((f, i) =>
      h(
        'div',
        {
          class: sortKey && i === 0 ? 'fig sort-key' : 'fig',
          title: figureTitle(f) + (sortKey && i === 0 ? ` — the figure the runs sort on, among runs of the same measure (${f.label})` : ''),
          'data-figure': (f as Figure).id,
          ...(sortKey && i === 0 ? { 'data-testid': 'run-sort-measure', 'data-measure': f.label } : {}),
        },
        `${f.label} `,
        h('strong', {}, figureText(f)),
        f.lo !== null ? h('span', { class: 'ci' }, ` ${f.method}`) : null,
        // visible text, not only the tooltip: a keyboard or screen-reader user and a screenshot see the ceiling too (the run's page says why)
        f.ceiling ? h('span', { class: 'fig-ceiling', 'data-testid': 'figure-ceiling' }, ` ⚠ ${f.ceiling}`) : null,
      ),
    ),
  );
}

/** The runs list sorts on a run's first headline figure, within its measure (accuracy, Recall@10, MRR, …: never one beside another). */
const firstFigure = (r: RunSummary) => r.figures[0]?.estimate ?? null;
const firstMeasure = (r: RunSummary) => r.figures[0]?.label ?? null;

export async function renderRunsTable(root: HTMLElement, params: URLSearchParams): Promise<void> {
  const { runs, truncated, notSearched } = await api<{ runs: RunSummary[]; truncated?: { limit: number }; notSearched?: { note: string } }>(
    '/api/runs/summary',
  );
  const filterText = h('input', {
    type: 'search',
    'data-testid': 'runs-filter',
    'aria-label': 'filter runs (id, system, dataset, model, method)',
    placeholder: 'filter: id, dataset, model…',
    value: params.get('q') ?? '',
  });
  const systems = [...new Set(runs.map((r) => r.systemName))].sort();
  const systemSel = h(
    'select',
    { 'data-testid': 'runs-system', 'aria-label': 'system' },
    h('option', { value: '' }, 'all systems'),
    systems.map((s) => h('option', { value: s }, s)),
  );
  systemSel.value = params.get('system') ?? '';
  const count = h('span', { class: 'muted', role: 'status', 'data-testid': 'runs-count' });
  const compareBtn = h('button', { type: 'button', 'data-testid': 'compare-selected', disabled: true }, 'Compare selected');
  const picked = new Set<string>();
  const state = { sort: params.get('sort') ?? '', dir: params.get('dir') === 'desc' ? 'desc' : 'asc' };
  const keepUrl = () =>
    history.replaceState(null, '', `#/runs?${qs({ q: filterText.value, system: systemSel.value, sort: state.sort, dir: state.sort ? state.dir : '' })}`);
  const columns: Column<RunSummary>[] = [
    {
      key: 'pick',
      label: 'compare',
      fixed: true,
      cell: (r) =>
        td(
          h('input', {
            type: 'checkbox',
            'aria-label': `compare ${r.id}`,
            'data-testid': 'run-pick',
            'data-run': r.id,
            disabled: r.system === 'reproduce',
            onchange: (e: Event) => {
              if ((e.target as HTMLInputElement).checked) picked.add(r.id);
              else picked.delete(r.id);
              compareBtn.disabled = picked.size < 2;
              compareBtn.textContent = `Compare selected (${picked.size})`;
            },
          }),
          { 'data-no-export': '' },
        ),
    },
    {
      key: 'run',
      label: 'run',
      sort: (r) => r.id,
      cell: (r) =>
        td(
          [
            h('a', { href: `#/runs?${qs({ run: r.id })}`, 'data-testid': 'run-link', 'data-run': r.id }, r.id),
            r.parent ? h('div', { class: 'muted' }, `in ${r.parent}`) : null,
          ],
          { 'data-export': r.id },
        ),
    },
    { key: 'system', label: 'system', sort: (r) => r.systemName, cell: (r) => td(systemLabel(r.systemName, r.system)) },
    { key: 'dataset', label: 'dataset', cell: (r) => td(r.dataset ?? '–') },
    { key: 'model', label: 'model', cell: (r) => td(r.model ?? '–', { 'data-testid': 'run-model' }) },
    { key: 'method', label: 'method', cell: (r) => td(r.method ?? '–', { 'data-testid': 'run-method' }) },
    {
      key: 'k',
      label: 'k',
      num: true,
      sort: (r) => (r.k === null ? null : Number.parseFloat(r.k)),
      cell: (r) => td(r.k ?? '–', { class: 'num k-cell', 'data-testid': 'run-k' }),
    },
    {
      key: 'n',
      label: 'n',
      num: true,
      sort: (r) => r.n,
      cell: (r) =>
        td(
          [
            String(r.n),
            r.resultsProblem
              ? h('div', { class: 'error-text', 'data-testid': 'run-results-problem', title: r.resultsProblem }, '⚠ results.jsonl unreadable')
              : null,
            r.droppedTail ? h('div', { class: 'error-text', 'data-testid': 'run-dropped-tail', title: TORN_NOTE }, '⚠ truncated last line left out') : null,
            r.partial
              ? h(
                  'div',
                  {
                    class: 'error-text',
                    'data-testid': 'run-partial',
                    title: r.inProgress
                      ? 'a lexcase run is still writing this run dir: its figures are over the items done so far'
                      : 'the run stopped before the rest: its figures are over these items only',
                  },
                  r.inProgress ? `⏳ in progress: of ${r.planned} planned` : `⚠ partial: of ${r.planned} planned`,
                )
              : null,
            r.smallN ? h('div', {}, smallNWarning(r.n)) : null,
          ],
          {
            class: 'num',
            'data-testid': 'run-n',
            'data-export': r.resultsProblem
              ? `results.jsonl unreadable: ${r.resultsProblem}`
              : r.partial
                ? `${r.n} of ${r.planned} planned (${r.inProgress ? 'in progress' : 'partial'})`
                : String(r.n),
          },
        ),
    },
    {
      key: 'figures',
      label: 'headline figures [95% CI]',
      sort: firstFigure,
      group: firstMeasure,
      cell: (r) =>
        td(figureList(r.figures, 'run-figures', true), { 'data-export': r.figures.map((f) => `${f.label} ${figureText(f)} ${f.method}`).join('; ') || '–' }),
    },
    {
      key: 'failures',
      label: 'failures',
      num: true,
      sort: (r) => r.failures,
      cell: (r) => td(String(r.failures), { class: r.failures ? 'num error-text' : 'num' }),
    },
    {
      key: 'tokens',
      label: 'tokens',
      num: true,
      sort: (r) => r.tokens,
      cell: (r) =>
        td(
          [
            r.tokens.toLocaleString('en-US'),
            r.retriedTokens ? h('span', { class: 'ci', title: retriedNote(r.retriedTokens) }, ` (+${r.retriedTokens.toLocaleString('en-US')})`) : null,
            r.cutOff ? h('span', { class: 'ci', title: cutOffNote(r.cutOff) }, ` (${r.cutOff.toLocaleString('en-US')} cut off)`) : null,
            r.refused ? h('span', { class: 'ci', title: refusedNote(r.refused) }, ` (${r.refused.toLocaleString('en-US')} refused)`) : null,
            r.retried ? h('span', { class: 'ci', title: retriedAttemptsNote(r.retried) }, ` (${r.retried.toLocaleString('en-US')} retried)`) : null,
            r.interrupted
              ? h('span', { class: 'ci', title: r.interruptedNote ?? '' }, ` (${r.interrupted.toLocaleString('en-US')} under way at an interrupt)`)
              : null,
            r.cacheHits ? h('span', { class: 'ci', title: r.cacheNote ?? '' }, ` (${r.cacheHits.toLocaleString('en-US')} cached)`) : null,
          ],
          { class: 'num', 'data-testid': 'run-tokens', 'data-export': tokensExportText(r) },
        ),
    },
    { key: 'date', label: 'date', sort: (r) => r.date ?? null, cell: (r) => td(utcStamp(r.date), { class: 'date-cell' }) },
  ];
  const table = sortableTable({
    rows: runs,
    columns,
    testid: 'runs-table',
    caption: 'runs',
    rowAttrs: (r) => ({ 'data-testid': 'run-row', 'data-run': r.id, 'data-system': r.systemName }),
    sort: state.sort ? ({ key: state.sort, dir: state.dir } as SortState) : undefined,
    onSort: (s) => {
      state.sort = s.key;
      state.dir = s.dir;
      keepUrl();
    },
  });
  const applyFilter = () => {
    const words = filterText.value.toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    for (const tr of table.tBodies[0].rows) {
      const r = runs.find((x) => x.id === tr.dataset.run)!;
      const hay = [r.id, r.system, r.systemName, r.dataset, r.model, r.method, r.mode].filter(Boolean).join(' ').toLowerCase();
      const ok = (!systemSel.value || r.systemName === systemSel.value) && words.every((w) => hay.includes(w));
      tr.hidden = !ok;
      if (ok) shown++;
    }
    count.textContent = `${shown} of ${runs.length} runs shown${truncated ? ` (only the first ${truncated.limit} found under --runs are listed: there are more)` : ''}`;
  };
  filterText.addEventListener('input', () => {
    applyFilter();
    keepUrl();
  });
  systemSel.addEventListener('change', () => {
    applyFilter();
    keepUrl();
  });
  compareBtn.addEventListener('click', () => go('compare', { runs: [...picked].join(',') }));
  clear(
    root,
    h(
      'div',
      { class: 'run-view', 'data-testid': 'run-view' },
      viewHeading(`Runs (${runs.length}${truncated ? '+' : ''})`),
      runs.length === 0 ? h('p', { class: 'muted' }, 'no runs found under --runs') : null,
      // folders below the listing's depth were not searched: said, as the runs under them are in no row
      notSearched ? h('p', { class: 'muted', 'data-testid': 'runs-not-searched' }, `Not listed: ${notSearched.note}.`) : null,
      h('div', { class: 'runs-filter' }, h('label', {}, 'filter ', filterText), h('label', {}, 'system ', systemSel), count, compareBtn),
      h(
        'p',
        { class: 'muted' },
        "Figures: each system's headline metrics (eval/headline-metrics.ts) with their 95% intervals, the method named beside each (eval/stats: Wilson for proportions, percentile bootstrap otherwise, none below 10 items); retrieval measures are decimals. Hover a figure for n. Sorted by headline figures, the runs go measure by measure (A→Z) and by value within each: a run sorts on its first figure (marked ▸), never an accuracy beside a Recall@k or MRR.",
      ),
      h('div', { class: 'scroll-x', tabindex: 0, role: 'region', 'aria-label': 'runs table' }, table),
      exportControl(table, 'runs'),
    ),
  );
  applyFilter();
}

type ReproCell = {
  column: string;
  paper: number | null;
  value: number | null;
  ci: [number, number] | null;
  n: number;
  /** Failed items of the cell and how the value treats them (absent in a table.json from before). */
  failed?: number;
  failedNote?: string;
  /** Topics of a trec run's cell with no hit, left out of n (absent when none). */
  noHits?: { count: number; examples: string[] };
  /** A trec cell whose cutoff is deeper than its run's hits: those hits only (absent when not). */
  pastDepth?: { depth: number; topics: number };
  method?: string | null;
  ciNote?: string;
  outsideCi: boolean | null;
  flagNote?: string;
  run: string;
  status?: string;
};
interface ReproTable {
  recipe: string;
  title: string;
  paper: string;
  table: string;
  scale: number;
  columns: string[];
  /** The interval methods in words (eval/stats), from table.json. */
  methods?: string;
  rows: { label: string; comparable: boolean; note?: string; cells: ReproCell[] }[];
  notes: string[];
  limit: number | null;
  shard: { index: number; count: number } | null;
  runs: { id: string; system: string; status: string; error?: string; argv?: string[] }[];
  /** A grid run changed since table.json was written: what the table shown is (web/server/repro-table.ts). */
  stale?: string;
}

const isRepro = (t: unknown): t is ReproTable => {
  const o = t as ReproTable;
  return !!o && Array.isArray(o.columns) && Array.isArray(o.rows) && o.rows.every((r) => r && Array.isArray(r.cells));
};

/**
 * A reproduction's table.json: per row and column the paper's value and lexcase's value with its
 * 95% interval and method (as table.json gives them: eval/stats) in separate columns, n, and the
 * flag (⚑ the paper outside lexcase's interval — beside failed items, that it may come from them; no
 * flag below n = 10 or on a degenerate interval, with the reason; † not comparable), the failed items beside n; each
 * lexcase cell links to the run that made it; the recipe's notes; every run of the grid.
 */
export function reproTable(t: ReproTable, reproId: string): HTMLElement {
  // as table.md writes them (eval/reproduce/table.ts): an exact half to the even digit, as the papers' Python and trec_eval do
  const fmt = (v: number | null) => (v === null ? '–' : fixedHalfEven(v, t.scale === 100 ? 2 : 4));
  const runHref = (id: string) => `#/runs?${qs({ run: `${reproId === '.' ? '' : `${reproId}/`}runs/${id}` })}`;
  const ns = [...new Set(t.rows.flatMap((r) => r.cells.map((c) => c.n)).filter((n) => n > 0))];
  const paperN = /\bn\s*=\s*([\d,]+)/.exec(t.title)?.[1];
  // the recipe's title names the paper's n ("…, n = 124)"): shown below as the paper's, beside this run's real n
  const title = t.title
    .replace(/,?\s*\bn\s*=\s*[\d,]+/, '')
    .replace(/\(\s*\)/, '')
    .trim();
  const head = h(
    'tr',
    {},
    h('th', { scope: 'col' }, t.table),
    t.columns.flatMap((c) => [
      h('th', { scope: 'col', class: 'num', 'data-export': `${c} paper` }, c, h('div', { class: 'muted' }, 'paper')),
      h('th', { scope: 'col', class: 'num', 'data-export': `${c} lexcase [95% interval]` }, c, h('div', { class: 'muted' }, 'lexcase [95% interval]')),
      h('th', { scope: 'col', class: 'num' }, 'n'),
      h('th', { scope: 'col' }, 'flag'),
    ]),
  );
  const body = t.rows.map((r) =>
    h(
      'tr',
      { 'data-testid': 'repro-row', 'data-comparable': String(r.comparable) },
      h(
        'th',
        { scope: 'row', 'data-export': `${r.label}${r.comparable ? '' : ' †'}` },
        r.label,
        r.comparable
          ? null
          : h('span', { class: 'not-comparable', title: 'not comparable with the paper (different data or setting): no flag is raised' }, ' †'),
      ),
      t.columns.flatMap((col) => {
        const c = r.cells.find((x) => x.column === col);
        if (!c) return [td('–'), td('–'), td('–'), td('')];
        const val =
          c.value === null
            ? `– (${c.status ?? 'not run'})`
            : `${fmt(c.value)}${c.ci ? ` [${fmt(c.ci[0])}, ${fmt(c.ci[1])}]${c.method ? ` ${c.method}` : ''}` : c.ciNote ? ` (${c.ciNote})` : ''}`;
        const flag = reproFlagText(c, r.comparable);
        return [
          td(fmt(c.paper), { class: 'num', 'data-testid': 'repro-paper' }),
          // the value, then its interval and method on the next line (one nowrap line made the table 1,641 px wide at 1280)
          td(
            h(
              'a',
              { href: runHref(c.run), 'data-testid': 'repro-cell', 'data-run': c.run, title: `run ${c.run}` },
              c.value === null
                ? val
                : [
                    h('span', { class: 'nowrap' }, fmt(c.value)),
                    val.length > fmt(c.value).length ? h('span', { class: 'interval' }, val.slice(fmt(c.value).length).trim()) : null,
                  ],
            ),
            { class: 'num wrap', 'data-export': val },
          ),
          td(reproNText(c), { class: c.failed ? 'num error-text' : 'num', 'data-testid': 'repro-n' }),
          td(flag, { class: `flag-cell${c.outsideCi ? ' outside' : !r.comparable ? ' not-comparable' : ''}`, 'data-testid': 'repro-flag' }),
        ];
      }),
    ),
  );
  const table = h('table', { class: 'runs-table repro', 'data-testid': 'run-table' }, h('thead', {}, head), h('tbody', {}, body));
  return h(
    'section',
    { class: 'repro-view', 'data-testid': 'repro-view' },
    h('h2', {}, `${t.table} — ${title}`),
    t.stale ? h('p', { class: 'error-text', role: 'note', 'data-testid': 'repro-stale' }, `⚠ ${t.stale}.`) : null,
    h(
      'p',
      { class: 'muted', 'data-testid': 'repro-n-line' },
      `${t.paper}. `,
      paperN ? `The paper: n = ${paperN}. ` : '',
      `This reproduction: n = ${ns.length ? ns.join(' / ') : 0} per cell`,
      t.limit !== null ? ` (smoke run: --limit ${t.limit})` : '',
      t.shard ? ` — shard ${t.shard.index}/${t.shard.count} only (merge the shards for the full table)` : '',
      `. Values in the paper's scale (${t.scale === 100 ? '%' : 'fractions'}).`,
    ),
    h('div', { class: 'scroll-x', tabindex: 0, role: 'region', 'aria-label': `${t.table} table` }, table),
    exportControl(table, `${t.recipe}-table`, `${t.paper}, ${t.table}`),
    h(
      'p',
      { class: 'muted', 'data-testid': 'repro-methods' },
      `${t.methods ? `${t.methods} ` : ''}⚑ the paper's value lies outside lexcase's 95% interval (raised only at n ≥ 10 on a non-degenerate interval; beside failed items it may come from them). † not comparable (different data or setting): no flag is raised.`,
    ),
    t.notes.length
      ? h(
          'details',
          { class: 'notes', open: true },
          h('summary', {}, `Notes (${t.notes.length})`),
          h(
            'ul',
            { class: 'notes', 'data-testid': 'repro-notes' },
            t.notes.map((n) => h('li', {}, n)),
          ),
        )
      : null,
    h('h3', {}, `Runs of the grid (${t.runs.length})`),
    h(
      'ul',
      { class: 'notes', 'data-testid': 'repro-runs' },
      t.runs.map((r) =>
        h(
          'li',
          {},
          h('a', { href: runHref(r.id), 'data-testid': 'repro-run', 'data-run': r.id }, r.id),
          ` (${r.system}): `,
          h('span', { class: r.status === 'done' ? 'ok-text' : 'error-text' }, r.status),
          r.error ? ` — ${r.error}` : '',
          r.argv ? h('div', {}, h('code', {}, `lexcase ${r.argv.join(' ')}`)) : null,
        ),
      ),
    ),
  );
}

/** A table.json that is not a reproduction's: rows of objects, or {columns|header, rows}; anything else as JSON. */
export function jsonTable(t: unknown): HTMLElement {
  const cell = (v: unknown) =>
    v === null || v === undefined ? '–' : typeof v === 'object' ? JSON.stringify(v) : typeof v === 'number' && !Number.isInteger(v) ? v.toFixed(4) : String(v);
  const o = t as { title?: unknown; columns?: unknown[]; header?: unknown; rows?: unknown };
  let cols: string[] | undefined;
  let rows: unknown[][] | undefined;
  const objRows = (xs: unknown[]) => {
    cols = [...new Set(xs.flatMap((x) => (x && typeof x === 'object' ? Object.keys(x) : [])))];
    rows = xs.map((x) => cols!.map((c) => (x as Record<string, unknown>)?.[c]));
  };
  if (Array.isArray(t)) objRows(t);
  else if (o && Array.isArray(o.rows)) {
    const head = Array.isArray(o.columns) ? o.columns : Array.isArray(o.header) ? o.header : undefined;
    if (head && o.rows.every(Array.isArray)) {
      cols = head.map(String);
      rows = o.rows as unknown[][];
    } else objRows(o.rows);
  }
  if (!cols || !rows) return h('pre', { class: 'detail', 'data-testid': 'run-table', tabindex: 0 }, JSON.stringify(t, null, 1));
  const table = h(
    'table',
    { class: 'runs-table', 'data-testid': 'run-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        cols.map((c) => h('th', { scope: 'col' }, c)),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map((r) =>
        h(
          'tr',
          {},
          r.map((v) => h('td', {}, cell(v))),
        ),
      ),
    ),
  );
  return h(
    'div',
    {},
    typeof o?.title === 'string' ? h('div', { class: 'muted' }, o.title) : null,
    h('div', { class: 'scroll-x', tabindex: 0, role: 'region', 'aria-label': 'table.json' }, table),
    exportControl(table, 'table'),
  );
}

/** Where a reproduction's numbers come from, read from its own files (web/server/repro-provenance.ts); the commands paste into a shell as they are. */
export function provenanceBlock(p: Provenance): HTMLElement {
  const list = (xs: string[]) => (xs.length ? xs.join(', ') : 'not recorded');
  const rows: [string, string | HTMLElement, string][] = [
    ['lexcase version', list(p.lexcaseVersions), 'prov-version'],
    ['commit', p.commits.length ? h('code', { class: 'hash' }, p.commits.join(', ')) : 'not recorded', 'prov-commit'],
    [
      'model',
      p.models.length
        ? p.models
            .map((m) => `${m.model}${/^(mock|scripted|fake)/i.test(m.model) ? ' (not a real model: a scripted stand-in)' : ''} — ${m.runs.join(', ')}`)
            .join('; ')
        : 'not recorded',
      'prov-model',
    ],
    [
      'index checksum',
      p.indexes.length
        ? h(
            'span',
            {},
            p.indexes.map((i) =>
              h(
                'div',
                {},
                `${i.corpus ?? 'index'}${i.passages !== null ? ` (${i.passages.toLocaleString('en-US')} passages)` : ''}: `,
                h('code', { class: 'hash' }, i.checksum),
              ),
            ),
          )
        : 'not recorded',
      'prov-index',
    ],
    [
      'recipe',
      p.recipe ? h('span', {}, `${p.recipe} `, p.recipeSha256 ? h('code', { class: 'hash' }, `sha256 ${p.recipeSha256}`) : null) : 'not recorded',
      'prov-recipe',
    ],
    [
      'date',
      p.createdAt ? `${utcStamp(p.createdAt)}${p.updatedAt && p.updatedAt !== p.createdAt ? ` (updated ${utcStamp(p.updatedAt)})` : ''}` : 'not recorded',
      'prov-date',
    ],
    ['Node', list(p.node), 'prov-node'],
  ];
  return h(
    'section',
    { class: 'provenance', 'data-testid': 'provenance', 'aria-labelledby': 'provenance-h' },
    h('h3', { id: 'provenance-h' }, 'Provenance'),
    h(
      'dl',
      { class: 'prov' },
      rows.map(([k, v, id]) => h('div', {}, h('dt', {}, k), h('dd', { 'data-testid': id }, v))),
    ),
    p.checksums.length
      ? h(
          'details',
          {},
          h('summary', {}, `Result checksums (checksums.json, ${p.checksums.length} files)`),
          h(
            'ul',
            { class: 'notes', 'data-testid': 'prov-checksums' },
            p.checksums.map((c) => h('li', {}, h('code', {}, c.file), ' ', h('code', { class: 'hash' }, c.sha256))),
          ),
        )
      : null,
    h('h4', {}, 'Commands'),
    h('pre', { class: 'commands', tabindex: 0, 'data-testid': 'prov-commands', 'aria-label': 'commands that made this table' }, p.commands.join('\n')),
  );
}

export interface RunPage {
  provenance?: Provenance | null;
  summary: RunSummary;
  plots: { id: string; title: string; spec: unknown }[];
  table: unknown;
  config: Record<string, unknown> | null;
  /** A `run mad --seeds` run: report.md's "Consistency across N seeds (…): pairwise agreement …, unanimous …" line; null otherwise. */
  seedConsistency?: string | null;
}

/** The run page's header: h1, the system's figures, plots, table.json. Returns the page data (the run view adapts to a reproduction). */
export async function runSummaryHeader(el: HTMLElement, runId: string): Promise<RunPage> {
  const p = await api<RunPage>(`/api/run/summary?${qs({ run: runId })}`);
  const s = p.summary;
  const plotsBox = p.plots.length
    ? h(
        'details',
        { class: 'plots', open: true },
        h('summary', {}, `Plots (${p.plots.length})`),
        h(
          'div',
          { class: 'plot-row' },
          p.plots.map((x) => plot(x.spec, x.title, `plot-${x.id}`)),
        ),
      )
    : null;
  const repro = isRepro(p.table) ? reproTable(p.table, s.id) : null;
  const tableBox = p.table && !repro ? h('details', { class: 'table-json', open: true }, h('summary', {}, 'table.json'), jsonTable(p.table)) : null;
  const facts: [string, string | HTMLElement][] = [
    ['system', systemLabel(s.systemName, s.system)],
    ['dataset', s.dataset ?? '–'],
    ['model', s.model ?? '–'],
    ['method', s.method ?? '–'],
    ['k', s.k ?? '–'],
    ['n', String(s.n)],
  ];
  clear(
    el,
    h(
      'div',
      { class: 'run-summary', 'data-testid': 'run-summary' },
      viewHeading(`Run ${s.id}`, h('a', { href: '#/runs', class: 'back', 'data-testid': 'all-runs' }, '← all runs')),
      repro
        ? null
        : h(
            'dl',
            { class: 'figures' },
            facts.map(([k, v]) => h('div', {}, h('dt', {}, k), h('dd', { 'data-testid': `summary-${k}` }, v))),
            s.figures.map((f) =>
              h(
                'div',
                { title: figureTitle(f) },
                h('dt', {}, f.label),
                h(
                  'dd',
                  { 'data-testid': `figure-${f.id}` },
                  figureText(f),
                  f.lo !== null ? h('span', { class: 'ci', 'data-testid': `figure-method-${f.id}` }, ` ${f.method}`) : null,
                  f.ceiling ? h('span', { class: 'fig-ceiling', 'data-testid': `figure-ceiling-${f.id}` }, ` ⚠ ${f.ceiling}`) : null,
                  f.note ? h('span', { class: 'ci', 'data-testid': `figure-note-${f.id}` }, ` · ${f.note}`) : null,
                ),
              ),
            ),
            h('div', {}, h('dt', {}, 'failures'), h('dd', { 'data-testid': 'summary-failures' }, String(s.failures))),
            h(
              'div',
              {},
              h('dt', {}, 'tokens'),
              h(
                'dd',
                { 'data-testid': 'summary-tokens' },
                s.tokens.toLocaleString('en-US'),
                s.retriedTokens ? h('span', { class: 'ci' }, ` · ${retriedNote(s.retriedTokens)}`) : null,
                s.cutOff ? h('span', { class: 'ci', 'data-testid': 'summary-cut-off' }, ` · ${cutOffNote(s.cutOff)}`) : null,
                s.refused ? h('span', { class: 'ci', 'data-testid': 'summary-refused' }, ` · ${refusedNote(s.refused)}`) : null,
                s.retried ? h('span', { class: 'ci', 'data-testid': 'summary-retried' }, ` · ${retriedAttemptsNote(s.retried)}`) : null,
                s.interruptedNote ? h('span', { class: 'ci', 'data-testid': 'summary-interrupted' }, ` · ${s.interruptedNote}`) : null,
                s.cacheNote ? h('span', { class: 'ci', 'data-testid': 'summary-cache-hits' }, ` · ${s.cacheNote}`) : null,
                s.promptCacheNote ? h('span', { class: 'ci', 'data-testid': 'summary-prompt-cache' }, ` · ${s.promptCacheNote}`) : null,
              ),
            ),
            h('div', {}, h('dt', {}, 'date'), h('dd', {}, utcStamp(s.date))),
            s.resultsProblem ? h('div', {}, h('dt', {}, 'results'), h('dd', {}, problemNote(s.resultsProblem))) : null,
            s.droppedTail ? h('div', {}, h('dt', {}, 'results'), h('dd', { class: 'error-text', 'data-testid': 'run-dropped-tail' }, `⚠ ${TORN_NOTE}`)) : null,
            s.partial ? h('div', {}, h('dt', {}, 'partial'), h('dd', {}, partialNote(s))) : null,
            ...(s.resumeWarnings ?? []).map((w) =>
              h('div', {}, h('dt', {}, 'resumed'), h('dd', { class: 'error-text', 'data-testid': 'run-resume-warning' }, `⚠ ${w}`)),
            ),
            s.smallN ? h('div', {}, h('dt', {}, 'note'), h('dd', {}, smallNWarning(s.n))) : null,
            p.seedConsistency ? h('div', {}, h('dt', {}, 'seeds'), h('dd', { 'data-testid': 'seed-consistency' }, p.seedConsistency)) : null,
          ),
      plotsBox || tableBox ? h('div', { class: 'header-row' }, plotsBox, tableBox) : null,
      repro,
      repro && p.provenance ? provenanceBlock(p.provenance) : null,
    ),
  );
  return p;
}
