/** Compare two runs (#/compare?a=&b=): paired bootstrap Δ accuracy [95% CI] and p, per-item metrics, the 2×2 agreement matrix, config differences and the items where they differ (each opens its trace). */
import { api, qs } from './api.js';
import { ciText, clear, errorBox, h, pct } from './dom.js';
import { go } from './route.js';
import type { RunSummary } from '../common/run-summary-types.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const pp = (d: number) => `${d >= 0 ? '+' : ''}${(100 * d).toFixed(1)} pp`;

export async function renderCompareView(root: HTMLElement, params: URLSearchParams): Promise<void> {
  const { runs } = await api<{ runs: RunSummary[] }>('/api/runs/summary');
  const a = h('select', { 'data-testid': 'compare-a', 'aria-label': 'run A' }, runs.map((r) => h('option', { value: r.id }, r.id)));
  const b = h('select', { 'data-testid': 'compare-b', 'aria-label': 'run B' }, runs.map((r) => h('option', { value: r.id }, r.id)));
  a.value = params.get('a') ?? runs[0]?.id ?? '';
  b.value = params.get('b') ?? runs[1]?.id ?? '';
  const form = h('form', { class: 'searchbar' }, h('label', {}, 'A ', a), h('label', {}, 'B ', b), h('button', { type: 'submit', 'data-testid': 'compare-go' }, 'Compare'));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    go('compare', { a: a.value, b: b.value });
  });
  const out = h('section', { 'data-testid': 'compare-result' });
  clear(root, h('div', { class: 'compare-view', 'data-testid': 'compare-view' }, h('h2', {}, 'Compare two runs'), form, out));
  if (!params.get('a') || !params.get('b')) {
    clear(out, h('div', { class: 'empty' }, 'Pick two runs that share items.'));
    return;
  }
  try {
    const c = await api(`/api/compare?${qs({ a: a.value, b: b.value })}`);
    const side = (s: RunSummary, l: string) => h('tr', {}, h('th', {}, l), h('td', {}, h('a', { href: `#/runs?${qs({ run: s.id })}` }, s.id)), h('td', {}, s.system ?? '–'), h('td', { class: 'num' }, s.n), h('td', { class: 'num' }, ciText(s.accuracy)));
    const ag = c.agreement;
    clear(
      out,
      h('table', { class: 'runs-table' }, h('thead', {}, h('tr', {}, ['', 'run', 'system', 'n', 'accuracy [95% CI] (all its items)'].map((x) => h('th', {}, x)))), h('tbody', {}, side(c.a, 'A'), side(c.b, 'B'))),
      h(
        'div',
        { class: 'delta', 'data-testid': 'compare-delta' },
        `On ${c.shared} shared items: A ${pct(c.accuracy.a)} vs B ${pct(c.accuracy.b)} · Δ (A − B) `,
        h('strong', {}, pp(c.accuracy.estimate)),
        ` [${pp(c.accuracy.lo)}, ${pp(c.accuracy.hi)}] · p = ${c.accuracy.p < 0.001 ? '< 0.001' : c.accuracy.p.toFixed(3)} (paired bootstrap, ${c.accuracy.iterations} resamples)`,
        c.onlyA || c.onlyB ? h('div', { class: 'muted' }, `not compared: ${c.onlyA} items only in A, ${c.onlyB} only in B`) : null,
      ),
      h('div', { class: 'compare-grid' },
        h(
          'table',
          { class: 'agreement', 'data-testid': 'agreement' },
          h('thead', {}, h('tr', {}, h('th', {}, ''), h('th', {}, 'B right'), h('th', {}, 'B wrong'))),
          h('tbody', {}, h('tr', {}, h('th', {}, 'A right'), h('td', { class: 'num', 'data-cell': 'both' }, ag.both), h('td', { class: 'num', 'data-cell': 'onlyA' }, ag.onlyA)), h('tr', {}, h('th', {}, 'A wrong'), h('td', { class: 'num', 'data-cell': 'onlyB' }, ag.onlyB), h('td', { class: 'num', 'data-cell': 'neither' }, ag.neither))),
          h('caption', {}, `same prediction on ${c.samePrediction} of ${c.shared}`),
        ),
        Object.keys(c.metrics).length
          ? h('table', { class: 'runs-table' }, h('thead', {}, h('tr', {}, ['metric', 'A', 'B', 'A − B [95% CI]', 'p'].map((x) => h('th', {}, x)))), h('tbody', {}, Object.entries(c.metrics as Record<string, any>).map(([k, m]) => h('tr', {}, h('td', {}, k), h('td', { class: 'num' }, pct(m.a)), h('td', { class: 'num' }, pct(m.b)), h('td', { class: 'num' }, `${pp(m.estimate)} [${pp(m.lo)}, ${pp(m.hi)}]`), h('td', { class: 'num' }, m.p.toFixed(3))))))
          : null,
      ),
      Object.keys(c.configDiff).length ? h('p', { class: 'muted', 'data-testid': 'config-diff' }, 'config differences: ', Object.entries(c.configDiff as Record<string, [unknown, unknown]>).map(([k, [x, y]]) => `${k}: ${JSON.stringify(x)} vs ${JSON.stringify(y)}`).join('; ')) : null,
      h('h3', {}, `Items where they differ (${c.differ.length})`),
      c.differ.length
        ? h(
            'table',
            { class: 'runs-table', 'data-testid': 'differ' },
            h('thead', {}, h('tr', {}, ['item', 'gold', 'A', 'B', 'traces'].map((x) => h('th', {}, x)))),
            h('tbody', {}, c.differ.map((d: any) => h('tr', { 'data-testid': 'differ-row', 'data-id': d.id }, h('td', { class: 'pid' }, d.id), h('td', {}, d.gold), h('td', { class: d.aCorrect ? 'ok-text' : 'bad-text' }, `${d.a ?? '–'} ${d.aCorrect ? '✓' : '✗'}`), h('td', { class: d.bCorrect ? 'ok-text' : 'bad-text' }, `${d.b ?? '–'} ${d.bCorrect ? '✓' : '✗'}`), h('td', {}, h('a', { href: `#/runs?${qs({ run: c.a.id, item: d.id })}` }, 'A'), ' · ', h('a', { href: `#/runs?${qs({ run: c.b.id, item: d.id })}` }, 'B'))))),
          )
        : h('p', { class: 'muted' }, 'the two runs agree on every shared item'),
    );
  } catch (e) {
    clear(out, errorBox(e));
  }
}
