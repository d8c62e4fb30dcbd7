/** The export control under a table: its cells as CSV, Markdown or LaTeX (web/common/table-export.ts), shown in a text box and offered as a download. */
import { exportTable, type ExportFormat, type PlainTable } from '../common/table-export.js';
import { h } from './dom.js';

/** The table's header and body cell texts (a cell's data-export attribute wins over its text: sort arrows and badges stay out). */
export function plainTable(table: HTMLTableElement): PlainTable {
  const text = (c: Element) => (c.getAttribute('data-export') ?? c.textContent ?? '').replace(/\s+/g, ' ').trim();
  const head = table.tHead?.rows[table.tHead.rows.length - 1];
  const columns = head ? [...head.cells].filter((c) => !c.hasAttribute('data-no-export')).map(text) : [];
  const rows = [...table.tBodies]
    .flatMap((b) => [...b.rows])
    .filter((r) => !r.hidden)
    .map((r) => [...r.cells].filter((c) => !c.hasAttribute('data-no-export')).map(text));
  return { columns, rows };
}

const EXT: Record<ExportFormat, string> = { csv: 'csv', markdown: 'md', latex: 'tex' };
const MIME: Record<ExportFormat, string> = { csv: 'text/csv', markdown: 'text/markdown', latex: 'application/x-tex' };

export function exportControl(table: HTMLTableElement, name: string, caption?: string): HTMLElement {
  const out = h('textarea', { readonly: true, 'aria-label': `${name} exported`, 'data-testid': 'export-text', hidden: true });
  const link = h('a', { class: 'download', hidden: true, 'data-testid': 'export-download' }, 'download');
  let url: string | undefined;
  const make = (f: ExportFormat) => {
    const text = exportTable(plainTable(table), f, caption ?? name);
    out.value = text;
    out.hidden = false;
    if (url) URL.revokeObjectURL(url);
    url = URL.createObjectURL(new Blob([text], { type: MIME[f] }));
    link.href = url;
    link.download = `${name.replace(/[^\w.-]+/g, '-')}.${EXT[f]}`;
    link.textContent = `download ${link.download}`;
    link.hidden = false;
    out.focus();
    out.select();
  };
  return h(
    'details',
    { class: 'export', 'data-testid': 'export' },
    h('summary', {}, 'export table'),
    h(
      'div',
      { class: 'export-buttons' },
      (['csv', 'markdown', 'latex'] as const).map((f) =>
        h('button', { type: 'button', 'data-testid': `export-${f}`, onclick: () => make(f) }, f === 'csv' ? 'CSV' : f === 'markdown' ? 'Markdown' : 'LaTeX'),
      ),
      link,
    ),
    out,
  );
}
