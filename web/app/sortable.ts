/**
 * A table sortable by any column, in place: a button in each header sorts the rows (numbers
 * numerically, missing values last), the header carries aria-sort, and the button keeps focus —
 * nothing else on the page is rebuilt. `onSort` lets the view keep the order in its URL.
 */
import { h } from './dom.js';

type Cell = HTMLTableCellElement;
export interface Column<T> {
  key: string;
  label: string;
  /** Right-aligned, sorted as a number. */
  num?: boolean;
  /** The value sorted on (default: the cell's text); null sorts last. */
  sort?: (row: T) => string | number | null;
  /**
   * Rows of different groups are never compared by value: sorted on this column, the rows go group
   * by group (groups A→Z whatever the direction, rows without a group last) and by `sort` within
   * each — the runs' headline figure is accuracy in one run and Recall@10 or MRR in another.
   */
  group?: (row: T) => string | null;
  cell: (row: T) => Cell;
  /** Not sortable (a checkbox column). */
  fixed?: boolean;
}

export interface SortState {
  key: string;
  dir: 'asc' | 'desc';
}

export function sortableTable<T>(o: {
  rows: T[];
  columns: Column<T>[];
  rowAttrs?: (row: T) => Record<string, string>;
  sort?: SortState;
  onSort?: (s: SortState) => void;
  testid: string;
  className?: string;
  caption?: string;
}): HTMLTableElement {
  const values = new Map<HTMLTableRowElement, (string | number | null)[]>();
  const groups = new Map<HTMLTableRowElement, (string | null)[]>();
  const trs = o.rows.map((r) => {
    const tr = h(
      'tr',
      o.rowAttrs?.(r) ?? {},
      o.columns.map((c) => c.cell(r)),
    );
    values.set(
      tr,
      o.columns.map((c) => (c.sort ? c.sort(r) : (c.cell(r).textContent ?? ''))),
    );
    groups.set(
      tr,
      o.columns.map((c) => c.group?.(r) ?? null),
    );
    return tr;
  });
  const tbody = h('tbody', {}, trs);
  let state: SortState | undefined = o.sort && o.columns.some((c) => c.key === o.sort!.key) ? o.sort : undefined;
  const ths = o.columns.map((c) => {
    if (c.fixed) return h('th', { class: c.num ? 'num' : '', scope: 'col', 'data-no-export': '' }, c.label);
    const arrow = h('span', { 'aria-hidden': 'true' });
    const btn = h(
      'button',
      {
        type: 'button',
        class: 'sort',
        'data-testid': `sort-${c.key}`,
        onclick: () => apply({ key: c.key, dir: state?.key === c.key && state.dir === 'asc' ? 'desc' : 'asc' }, true),
      },
      c.label,
      arrow,
    );
    return h('th', { class: c.num ? 'num' : '', scope: 'col', 'data-export': c.label, 'data-col': c.key }, btn);
  });
  const apply = (s: SortState, user: boolean) => {
    state = s;
    const i = o.columns.findIndex((c) => c.key === s.key);
    const sign = s.dir === 'asc' ? 1 : -1;
    const grouped = !!o.columns[i].group;
    const sorted = [...trs].sort((a, b) => {
      if (grouped) {
        const [ga, gb] = [groups.get(a)![i], groups.get(b)![i]];
        if (ga !== gb) return ga === null ? 1 : gb === null ? -1 : ga.localeCompare(gb, 'en', { numeric: true });
      }
      const x = values.get(a)![i];
      const y = values.get(b)![i];
      if (x === null || x === '' || y === null || y === '') return (x === null || x === '' ? 1 : 0) - (y === null || y === '' ? 1 : 0);
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y), 'en', { numeric: true });
      return sign * c;
    });
    tbody.append(...sorted);
    o.columns.forEach((c, j) => {
      const th = ths[j];
      if (c.fixed) return;
      const on = c.key === s.key;
      th.setAttribute('aria-sort', on ? (s.dir === 'asc' ? 'ascending' : 'descending') : 'none');
      th.querySelector('button')!.classList.toggle('active', on);
      th.querySelector('span')!.textContent = on ? (s.dir === 'asc' ? ' ▲' : ' ▼') : '';
    });
    if (user) o.onSort?.(s);
  };
  const table = h(
    'table',
    { class: o.className ?? 'runs-table', 'data-testid': o.testid },
    o.caption ? h('caption', { class: 'visually-hidden' }, o.caption) : null,
    h('thead', {}, h('tr', {}, ths)),
    tbody,
  );
  if (state) apply(state, false);
  return table;
}

export const td = (
  content: Node | string | number | null | undefined | (Node | string | null)[],
  attrs: Record<string, string | number | boolean> = {},
): HTMLTableCellElement => h('td', attrs, ...(Array.isArray(content) ? content : [content ?? '–']));
