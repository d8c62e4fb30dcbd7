/** Passage page (#/passage?id=): the passage's text and metadata from the served index, and the run items whose traces hold it (each opens its trace). */
import { placeWords } from '../common/labels.js';
import { api, qs } from './api.js';
import { clear, errorBox, h, scrollBox, viewHeading } from './dom.js';
import { exportControl } from './export.js';

interface PassageReply {
  id: string;
  inIndex: boolean;
  index: { corpus: string; passages: number } | null;
  passage: { title: string | null; source: string | null; text: string; chars: number } | null;
  retrievedIn: { run: string; item: string; place: string }[];
  scanned: number;
  truncated: boolean;
}

export async function renderPassageView(root: HTMLElement, params: URLSearchParams): Promise<void> {
  const id = params.get('id') ?? '';
  if (!id) {
    clear(root, viewHeading('Passage'), h('div', { class: 'empty' }, 'No passage id: passage ids across the explorer link here.'));
    return;
  }
  const body = h('div', {}, h('div', { class: 'muted', role: 'status' }, 'loading…'));
  clear(root, h('div', { class: 'passage-view', 'data-testid': 'passage-view' }, viewHeading(`Passage ${id}`), body));
  try {
    const r = await api<PassageReply>(`/api/passage?${qs({ id })}`);
    const p = r.passage;
    const table = h(
      'table',
      { class: 'runs-table', 'data-testid': 'passage-uses' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['run', 'item', 'where in the trace'].map((x) => h('th', { scope: 'col' }, x)),
        ),
      ),
      h(
        'tbody',
        {},
        r.retrievedIn.map((u) =>
          h(
            'tr',
            { 'data-testid': 'passage-use' },
            h('td', {}, h('a', { href: `#/runs?${qs({ run: u.run })}` }, u.run)),
            h('td', {}, h('a', { href: `#/runs?${qs({ run: u.run, item: u.item })}`, 'data-testid': 'passage-use-item' }, u.item)),
            h('td', {}, placeWords(u.place)),
          ),
        ),
      ),
    );
    clear(
      body,
      p
        ? h(
            'dl',
            { class: 'figures' },
            [
              ['corpus', r.index ? `${r.index.corpus} (${r.index.passages.toLocaleString('en-US')} passages)` : '–'],
              ['title', p.title ?? '–'],
              ['source', p.source ?? '–'],
              ['length', `${p.chars.toLocaleString('en-US')} characters`],
            ].map(([k, v]) => h('div', {}, h('dt', {}, k), h('dd', { 'data-testid': `passage-${k}` }, v))),
          )
        : h(
            'p',
            { class: 'muted', 'data-testid': 'passage-missing' },
            r.index
              ? `"${id}" is not a passage of the served index (${r.index.corpus}).`
              : 'This server was started without --index: the passage text is not available.',
          ),
      p ? h('div', { class: 'passage-text', 'data-testid': 'passage-text' }, p.text) : null,
      h('h2', {}, `Where it turns up in the runs (${r.retrievedIn.length})`),
      h('p', { class: 'muted' }, `${r.scanned.toLocaleString('en-US')} trace files read${r.truncated ? ' (stopped at the limit: more may hold it)' : ''}.`),
      r.retrievedIn.length
        ? [scrollBox('items holding the passage', table), exportControl(table, `passage-${id}-uses`)]
        : h('p', { class: 'muted' }, 'no trace under --runs holds this id'),
    );
  } catch (e) {
    clear(body, errorBox(e));
  }
}
