/**
 * Retrieval evaluation (#/eval?set=&methods=&a=&b=&metric=&sort=): pick a topics+qrels set and
 * methods of the served index → Recall@k curves with 95% CI bands (the demo report's spec), the
 * metrics table (Recall@k, MRR@10, nDCG@10 with CIs), the paired Δ of one metric between two
 * methods, and the per-query table (first relevant rank per method; sortable; a query opens the
 * search view with that query and method).
 */
import { api, qs, type Info } from './api.js';
import { clear, errorBox, h } from './dom.js';
import { go } from './route.js';
import { plot } from './plot.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const f3 = (x: number) => x.toFixed(3);

export async function renderEvalView(root: HTMLElement, info: Info, params: URLSearchParams): Promise<void> {
  if (!info.index) {
    clear(root, h('div', { class: 'empty' }, 'This server was started without --index: start it with `lexcase serve --index DIR` to evaluate retrieval.'));
    return;
  }
  const meta = await api<{ sets: { id: string; label: string }[]; methods: string[]; metrics: string[] }>('/api/eval/sets');
  const set = h('select', { 'data-testid': 'eval-set', 'aria-label': 'topics and qrels' }, meta.sets.map((s) => h('option', { value: s.id }, s.label)));
  set.value = params.get('set') ?? meta.sets[0]?.id ?? '';
  const chosen = new Set((params.get('methods') ?? meta.methods.join(',')).split(',').filter(Boolean));
  const boxes = meta.methods.map((m) => h('input', { type: 'checkbox', value: m, 'data-testid': `eval-method-${m}`, checked: chosen.has(m) }));
  const form = h('form', { class: 'searchbar' }, h('label', {}, 'topics+qrels ', set), h('span', {}, 'methods ', boxes.map((b) => h('label', { class: 'check' }, b, ` ${b.value}`))), h('button', { type: 'submit', 'data-testid': 'eval-go' }, 'Evaluate'));
  const out = h('section', { 'data-testid': 'eval-result' });
  const navigate = (extra: Record<string, string> = {}) => go('eval', { set: set.value, methods: boxes.filter((b) => b.checked).map((b) => b.value).join(','), ...extra });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    navigate();
  });
  clear(root, h('div', { class: 'eval-view', 'data-testid': 'eval-view' }, h('h2', {}, `Retrieval evaluation · ${info.index.corpus} (${info.index.passages.toLocaleString()} passages)`), form, out));
  if (!params.get('set')) {
    clear(out, h('div', { class: 'empty' }, 'Pick a topics+qrels set and methods, then Evaluate.'));
    return;
  }
  clear(out, h('div', { class: 'muted' }, 'evaluating…'));
  try {
    const base = { set: set.value, methods: params.get('methods') ?? '', a: params.get('a') ?? undefined, b: params.get('b') ?? undefined, metric: params.get('metric') ?? undefined };
    const r = await api(`/api/eval/retrieval?${qs(base)}`);
    const metricCols = [...r.ks.map((k: number) => `recall@${k}`), 'mrr@10', 'ndcg@10'];
    const sort = params.get('sort') ?? 'id';
    const desc = params.get('dir') === 'desc';
    const rank = (x: number | null) => (x === null ? Infinity : x);
    const rows = [...r.queries].sort((x: any, y: any) => {
      const c = sort === 'id' ? String(x.id).localeCompare(String(y.id), undefined, { numeric: true }) : rank(x.firstRank[sort]) - rank(y.firstRank[sort]);
      return desc ? -c : c;
    });
    const keep = { ...base, a: params.get('a') ?? '', b: params.get('b') ?? '', metric: params.get('metric') ?? '' };
    const sortBtn = (col: string, label: string) => h('button', { type: 'button', class: `sort${sort === col ? ' active' : ''}`, 'data-testid': `sort-${col}`, 'aria-sort': sort === col ? (desc ? 'descending' : 'ascending') : 'none', onclick: () => go('eval', { ...keep, sort: col, dir: sort === col && !desc ? 'desc' : 'asc' } as Record<string, string>) }, label, sort === col ? (desc ? ' ▼' : ' ▲') : '');
    const selA = h('select', { 'data-testid': 'paired-a', 'aria-label': 'method A' }, r.methods.map((m: string) => h('option', { value: m }, m)));
    const selB = h('select', { 'data-testid': 'paired-b', 'aria-label': 'method B' }, r.methods.map((m: string) => h('option', { value: m }, m)));
    const selM = h('select', { 'data-testid': 'paired-metric', 'aria-label': 'metric' }, meta.metrics.map((m) => h('option', { value: m }, m)));
    selA.value = r.paired?.a ?? r.methods[0];
    selB.value = r.paired?.b ?? r.methods[1] ?? r.methods[0];
    selM.value = r.paired?.metric ?? 'recall@10';
    const pairedForm = h('form', { class: 'inline' }, 'Paired Δ: ', selA, ' − ', selB, ' on ', selM, ' ', h('button', { type: 'submit', 'data-testid': 'paired-go' }, 'Compute'));
    pairedForm.addEventListener('submit', (e) => {
      e.preventDefault();
      go('eval', { ...keep, a: selA.value, b: selB.value, metric: selM.value, sort, dir: desc ? 'desc' : 'asc' } as Record<string, string>);
    });
    const p = r.paired;
    clear(
      out,
      h('div', { class: 'muted' }, `${r.set.label}: ${r.set.n} topics${r.skipped ? ` (${r.skipped} without relevant passages skipped)` : ''} · 95% bootstrap CIs over topics (1,000 resamples, seed 13)`),
      plot(r.curveSpec, 'Recall@k per method with 95% CI bands', 'recall-plot'),
      h(
        'table',
        { class: 'runs-table metrics', 'data-testid': 'eval-metrics' },
        h('thead', {}, h('tr', {}, h('th', {}, 'method'), metricCols.map((c) => h('th', {}, c.replace('recall', 'R').replace('mrr', 'MRR').replace('ndcg', 'nDCG'))), h('th', {}, 'p50 ms'))),
        h('tbody', {}, r.results.map((m: any) => h('tr', { 'data-method': m.method }, h('td', {}, m.method), metricCols.map((c) => h('td', { class: 'num', 'data-metric': c, title: m.metrics[c] ? `95% CI [${f3(m.metrics[c].lo)}, ${f3(m.metrics[c].hi)}]` : '' }, m.metrics[c] ? f3(m.metrics[c].estimate) : '–', m.metrics[c] ? h('div', { class: 'ci' }, `[${f3(m.metrics[c].lo)}, ${f3(m.metrics[c].hi)}]`) : null)), h('td', { class: 'num' }, m.latency.p50Ms.toFixed(1))))),
      ),
      r.methods.length > 1 ? h('div', { class: 'delta', 'data-testid': 'paired' }, pairedForm, p ? h('div', {}, `${p.a} − ${p.b} on ${p.metric}: `, h('strong', { 'data-testid': 'paired-estimate' }, `${p.estimate >= 0 ? '+' : ''}${f3(p.estimate)}`), ` [${f3(p.lo)}, ${f3(p.hi)}] · p = ${p.p < 0.001 ? '< 0.001' : p.p.toFixed(3)} · ${p.n} paired topics`) : h('div', { class: 'muted' }, 'pick two different methods')) : null,
      h('h3', {}, `Per query (${rows.length}) — first relevant rank`),
      h(
        'table',
        { class: 'runs-table queries', 'data-testid': 'eval-queries' },
        h('thead', {}, h('tr', {}, h('th', {}, sortBtn('id', 'topic')), r.methods.map((m: string) => h('th', {}, sortBtn(m, m))), h('th', {}, 'rel.'), h('th', {}, 'query (opens the search view)'))),
        h(
          'tbody',
          {},
          rows.map((q: any) =>
            h(
              'tr',
              { 'data-testid': 'eval-query', 'data-id': q.id },
              h('td', { class: 'pid' }, q.id),
              r.methods.map((m: string) => h('td', { class: q.firstRank[m] === null ? 'num muted' : q.firstRank[m] <= 10 ? 'num ok-text' : 'num', 'data-method': m }, q.firstRank[m] ?? `>${r.ks[r.ks.length - 1]}`)),
              h('td', { class: 'num' }, q.relevant),
              h('td', { class: 'qtext' }, h('a', { href: `#/search?${qs({ q: q.query, method: r.methods[0], k: 10 })}`, 'data-testid': 'eval-query-link' }, q.short)),
            ),
          ),
        ),
      ),
    );
  } catch (e) {
    clear(out, errorBox(e));
  }
}
