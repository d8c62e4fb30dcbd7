/**
 * Retrieval evaluation (#/eval?set=&methods=&a=&b=&metric=&sort=): pick a topics+qrels set and
 * methods of the served index → Recall@k curves with 95% interval bands (the demo report's spec),
 * the metrics table (Recall@k, MRR@10, nDCG@10 with their intervals), the paired Δ = B − A of one
 * metric between two methods — every figure, interval and p the text the server sends (eval/stats)
 * — and the per-query table (first relevant rank per method; sortable in place; a query
 * opens the search view with that query and method, its relevant passages marked). While the
 * server evaluates, the view polls /api/eval/progress and shows topics done per method.
 */
import { api, qs, type Info } from './api.js';
import { relevantParam } from './relevant-param.js';
import { clear, errorBox, h, scrollBox, viewHeading } from './dom.js';
import { exportControl } from './export.js';
import { go } from './route.js';
import { plot } from './plot.js';
import { sortableTable, td } from './sortable.js';

/* eslint-disable @typescript-eslint/no-explicit-any */

export async function renderEvalView(root: HTMLElement, info: Info, params: URLSearchParams): Promise<void> {
  if (!info.index) {
    clear(
      root,
      viewHeading('Retrieval evaluation'),
      h('div', { class: 'empty' }, 'This server was started without --index: start it with `lexcase serve --index DIR` to evaluate retrieval.'),
    );
    return;
  }
  const meta = await api<{ sets: { id: string; label: string }[]; methods: string[]; metrics: string[] }>('/api/eval/sets');
  const set = h(
    'select',
    { 'data-testid': 'eval-set', 'aria-label': 'topics and qrels' },
    meta.sets.map((s) => h('option', { value: s.id }, s.label)),
  );
  set.value = params.get('set') ?? meta.sets[0]?.id ?? '';
  const chosen = new Set((params.get('methods') ?? meta.methods.join(',')).split(',').filter(Boolean));
  const boxes = meta.methods.map((m) => h('input', { type: 'checkbox', value: m, 'data-testid': `eval-method-${m}`, checked: chosen.has(m) }));
  const form = h(
    'form',
    { class: 'searchbar' },
    h('label', {}, 'topics+qrels ', set),
    h(
      'fieldset',
      { class: 'inline-fieldset' },
      h('legend', {}, 'methods'),
      boxes.map((b) => h('label', { class: 'check' }, b, ` ${b.value}`)),
    ),
    h('button', { type: 'submit', 'data-testid': 'eval-go' }, 'Evaluate'),
  );
  const out = h('section', { 'data-testid': 'eval-result' });
  const navigate = (extra: Record<string, string> = {}) =>
    go('eval', {
      set: set.value,
      methods: boxes
        .filter((b) => b.checked)
        .map((b) => b.value)
        .join(','),
      ...extra,
    });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    navigate();
  });
  clear(
    root,
    h(
      'div',
      { class: 'eval-view', 'data-testid': 'eval-view' },
      viewHeading(
        'Retrieval evaluation',
        h('span', { class: 'muted sub' }, ` · ${info.index.corpus} (${info.index.passages.toLocaleString('en-US')} passages)`),
      ),
      form,
      out,
    ),
  );
  if (!params.get('set')) {
    clear(out, h('div', { class: 'empty' }, 'Pick a topics+qrels set and methods, then Evaluate.'));
    return;
  }
  const base = {
    set: set.value,
    methods: params.get('methods') ?? '',
    a: params.get('a') ?? undefined,
    b: params.get('b') ?? undefined,
    metric: params.get('metric') ?? undefined,
  };
  const bar = h('progress', { max: 1, value: 0, 'aria-label': 'evaluation progress', 'data-testid': 'eval-progress' });
  const line = h('span', { 'data-testid': 'eval-progress-text' }, 'evaluating…');
  clear(out, h('div', { class: 'progress', role: 'status' }, bar, ' ', line));
  let done = false;
  // progress of a long evaluation: topics done per method, polled while the evaluation request runs
  const poll = async () => {
    while (!done) {
      await new Promise((r) => setTimeout(r, 400));
      if (done) break;
      const p = await api<{ methods: { method: string; done: number; total: number | null; finished: boolean }[] }>(
        `/api/eval/progress?${qs({ set: base.set, methods: base.methods })}`,
      ).catch(() => undefined);
      if (!p || done) continue;
      const total = p.methods.reduce((s, m) => s + (m.total ?? 0), 0);
      const got = p.methods.reduce((s, m) => s + (m.finished ? (m.total ?? 0) : m.done), 0);
      if (total) {
        bar.max = total;
        bar.value = got;
      }
      line.textContent = `evaluating… ${p.methods.map((m) => `${m.method} ${m.finished ? 'done' : m.total ? `${m.done}/${m.total} topics` : 'waiting'}`).join(' · ')}`;
    }
  };
  void poll();
  try {
    const r = await api(`/api/eval/retrieval?${qs(base)}`).finally(() => (done = true));
    const metricCols = [...r.ks.map((k: number) => `recall@${k}`), 'mrr@10', 'ndcg@10'];
    let sort = params.get('sort') ?? 'id';
    let desc = params.get('dir') === 'desc';
    const keep = { ...base, a: params.get('a') ?? '', b: params.get('b') ?? '', metric: params.get('metric') ?? '' };
    const selA = h(
      'select',
      { 'data-testid': 'paired-a', 'aria-label': 'method A' },
      r.methods.map((m: string) => h('option', { value: m }, m)),
    );
    const selB = h(
      'select',
      { 'data-testid': 'paired-b', 'aria-label': 'method B' },
      r.methods.map((m: string) => h('option', { value: m }, m)),
    );
    const selM = h(
      'select',
      { 'data-testid': 'paired-metric', 'aria-label': 'metric' },
      meta.metrics.map((m) => h('option', { value: m }, m)),
    );
    selA.value = r.paired?.a ?? r.methods[0];
    selB.value = r.paired?.b ?? r.methods[1] ?? r.methods[0];
    selM.value = r.paired?.metric ?? 'recall@10';
    const pairedForm = h(
      'form',
      { class: 'inline' },
      'Paired Δ = B − A, A: ',
      selA,
      ' B: ',
      selB,
      ' on ',
      selM,
      ' ',
      h('button', { type: 'submit', 'data-testid': 'paired-go' }, 'Compute'),
    );
    pairedForm.addEventListener('submit', (e) => {
      e.preventDefault();
      go('eval', { ...keep, a: selA.value, b: selB.value, metric: selM.value, sort, dir: desc ? 'desc' : 'asc' } as Record<string, string>);
    });
    const p = r.paired;
    // a relevant document not found within the hits retrieved a topic (100 on the bundled splits, 1000 on a topics+qrels set)
    const last = r.depth ?? r.ks[r.ks.length - 1];
    const queries = sortableTable<any>({
      rows: r.queries,
      testid: 'eval-queries',
      caption: 'first relevant rank per query and method',
      rowAttrs: (q) => ({ 'data-testid': 'eval-query', 'data-id': q.id }),
      sort: { key: sort, dir: desc ? 'desc' : 'asc' },
      onSort: (st) => {
        sort = st.key;
        desc = st.dir === 'desc';
        history.replaceState(null, '', `#/eval?${qs({ ...keep, sort: st.key, dir: st.dir })}`);
      },
      columns: [
        { key: 'id', label: 'topic', sort: (q) => String(q.id), cell: (q) => td(q.id, { class: 'pid' }) },
        ...r.methods.map((m: string) => ({
          key: m,
          label: m,
          num: true,
          sort: (q: any) => q.firstRank[m] ?? Number.MAX_SAFE_INTEGER,
          cell: (q: any) =>
            td(q.firstRank[m] ?? `>${last}`, { class: q.firstRank[m] === null ? 'num muted' : q.firstRank[m] <= 10 ? 'num ok-text' : 'num', 'data-method': m }),
        })),
        { key: 'relevant', label: 'rel.', num: true, sort: (q) => q.relevant, cell: (q) => td(String(q.relevant), { class: 'num' }) },
        {
          key: 'query',
          label: 'query (opens the search view, relevant passages marked)',
          sort: (q) => q.short,
          cell: (q) =>
            td(
              [
                h(
                  'a',
                  { href: `#/search?${qs({ q: q.query, method: r.methods[0], rel: relevantParam(q.relevantIds ?? []) })}`, 'data-testid': 'eval-query-link' },
                  q.short,
                ),
                q.queryTruncated
                  ? h(
                      'span',
                      { class: 'muted', 'data-testid': 'eval-query-truncated' },
                      ` (${q.queryChars.toLocaleString('en-US')} characters, all evaluated; the search-view link carries the first ${r.queryShown.toLocaleString('en-US')})`,
                    )
                  : null,
              ],
              { class: 'qtext' },
            ),
        },
      ],
    });
    const metricsTable = h(
      'table',
      { class: 'runs-table metrics', 'data-testid': 'eval-metrics' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'method'),
          metricCols.map((c) => h('th', { scope: 'col', class: 'num' }, c.replace('recall', 'R').replace('mrr', 'MRR').replace('ndcg', 'nDCG'))),
          h('th', { scope: 'col', class: 'num' }, 'p50 ms'),
        ),
      ),
      h(
        'tbody',
        {},
        r.results.map((m: any) =>
          h(
            'tr',
            { 'data-method': m.method },
            h('td', {}, m.method),
            metricCols.map((c) =>
              h(
                'td',
                {
                  class: 'num',
                  'data-metric': c,
                  'data-export': m.metrics[c] ? m.metrics[c].text : '–',
                  title: m.metrics[c] ? `${m.metrics[c].method} ${m.metrics[c].interval}` : '',
                },
                m.metrics[c] ? m.metrics[c].value : '–',
                m.metrics[c] ? h('div', { class: 'ci' }, m.metrics[c].interval) : null,
              ),
            ),
            h('td', { class: 'num' }, m.latency.p50Ms === null ? '–' : m.latency.p50Ms.toFixed(1)),
          ),
        ),
      ),
    );
    clear(
      out,
      h(
        'div',
        { class: 'muted' },
        `${r.set.label}: ${r.set.n} topics${r.skippedNote ? ` (${r.skippedNote})` : r.skipped ? ` (${r.skipped} without relevant passages skipped)` : ''} · ${r.methodsNote}`,
      ),
      // what the CLI warns of these figures (relevant passages not in the index, cutoffs past a hybrid's depth, dense queries read in part)
      ...((r.warnings ?? []) as string[]).map((w) => h('div', { class: 'error-text', role: 'note', 'data-testid': 'eval-warning' }, `⚠ ${w}`)),
      plot(r.curveSpec, 'Recall@k per method with 95% interval bands', 'recall-plot'),
      scrollBox('metrics per method', metricsTable),
      exportControl(metricsTable, `retrieval-${r.set.id}`, `Retrieval metrics, ${r.set.label} (95% intervals: ${r.methodsNote})`),
      r.methods.length > 1
        ? h(
            'div',
            { class: 'delta', 'data-testid': 'paired' },
            pairedForm,
            p
              ? h(
                  'div',
                  {},
                  `${p.b} − ${p.a} (B − A) on ${p.metric}: `,
                  h('strong', { 'data-testid': 'paired-estimate' }, p.text.diff),
                  ` ${p.text.interval} · ${p.text.pLine} · ${p.n} paired topics`,
                  h('div', { class: 'muted' }, r.pairedNote),
                )
              : h('div', { class: 'muted' }, 'pick two different methods'),
          )
        : null,
      h('h2', {}, `Per query (${r.queries.length}) — first relevant rank`),
      scrollBox('per-query ranks', queries),
      exportControl(queries, `retrieval-${r.set.id}-per-query`),
    );
  } catch (e) {
    clear(out, errorBox(e));
  }
}
