/**
 * Compare N runs (#/compare?runs=a,b,c; #/compare?a=&b= too): each run's headline figures (the
 * system registry's), overlaid curves (Recall@k of retrieval runs, MAD's accuracy per round) and
 * the figures side by side, a key-by-key config diff, the paired difference (this run − the
 * first: B − A, the one sign of every comparison) of the primary measure of every run against the
 * first, with how many of the shared items each run failed (counted as wrong in accuracy); for
 * two runs also the agreement matrix, every compared measure and the items where they
 * differ (each opens its trace). Every figure, difference, interval and p is the text the server
 * sends (eval/stats): this app computes none and flips no sign. Every table exports as CSV,
 * Markdown or LaTeX.
 */
import { api, qs } from './api.js';
import { clear, errorBox, figureText, h, scrollBox, smallNWarning, viewHeading } from './dom.js';
import { exportControl } from './export.js';
import { plot } from './plot.js';
import { go } from './route.js';
import { figureList } from './run-summary.js';
import { renderTrace } from './run-view.js';
import type { PairedText, RunSummary } from '../common/run-summary-types.js';
import { keysDiffer } from '../common/labels.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const show = (v: unknown) =>
  v && typeof v === 'object' && (v as { absent?: unknown }).absent === true ? '(absent)' : typeof v === 'string' ? v : JSON.stringify(v);

interface Matrix {
  runs: string[];
  /** What ✓ means: "right", or a retrieval hit ("hit (Recall@10 > 0)"). */
  rightMeans?: string;
  total: number;
  rows: { id: string; gold: string | null; right: number; cells: ({ prediction: string | null; correct: boolean; error: string | null } | null)[] }[];
}

/**
 * Item × run: which items each run got right (✓ / ✗ / – not in the run), each cell opening that
 * run's trace of the item; a tick box in each cell picks the run for the side-by-side traces — two
 * ticked in one row open both runs' traces of that item next to each other (`onPair`).
 */
function matrixTable(
  m: Matrix,
  ids: string[],
  picked: { item: string | null; runs: string[] },
  onPair: (item: string, runs: [string, string]) => void,
): HTMLTableElement {
  const table = h('table', { class: 'runs-table matrix', 'data-testid': 'item-matrix' });
  const boxes = () => [...table.querySelectorAll<HTMLInputElement>('input[data-testid=pair-pick]')];
  const onTick = (e: Event) => {
    const box = e.target as HTMLInputElement;
    const row = box.dataset.item!;
    // one row at a time, two runs at most: a third tick replaces the earlier of the two
    for (const b of boxes()) if (b.dataset.item !== row) b.checked = false;
    const inRow = boxes().filter((b) => b.dataset.item === row && b.checked);
    if (inRow.length > 2) for (const b of inRow.filter((x) => x !== box).slice(0, inRow.length - 2)) b.checked = false;
    const two = boxes()
      .filter((b) => b.dataset.item === row && b.checked)
      .map((b) => b.dataset.run!);
    if (two.length === 2) onPair(row, [two[0], two[1]]);
  };
  clear(
    table,
    h('caption', { class: 'visually-hidden' }, 'item × run: ✓ right, ✗ wrong, – not in the run; tick two runs in a row to see their traces side by side'),
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'item'),
        h('th', { scope: 'col' }, 'gold'),
        m.runs.map((r, i) => h('th', { scope: 'col', title: ids[i], 'data-export': ids[i] }, r)),
        h('th', { scope: 'col', class: 'num' }, 'runs right'),
      ),
    ),
    h(
      'tbody',
      {},
      m.rows.map((row) =>
        h(
          'tr',
          { 'data-testid': 'matrix-row', 'data-id': row.id },
          h('th', { scope: 'row', class: 'pid' }, row.id),
          h('td', {}, row.gold ?? '–'),
          row.cells.map((c, i) =>
            c === null
              ? h('td', { class: 'muted', 'data-cell': 'absent', 'data-export': '–' }, '–')
              : h(
                  'td',
                  {
                    class: c.correct ? 'ok-text' : 'bad-text',
                    'data-cell': c.correct ? 'right' : 'wrong',
                    'data-export': `${c.prediction ?? '–'} ${c.correct ? '✓' : '✗'}`,
                  },
                  h(
                    'a',
                    { href: `#/runs?${qs({ run: ids[i], item: row.id })}`, title: `${ids[i]}: trace of ${row.id}` },
                    `${c.prediction ?? '–'} ${c.correct ? '✓' : '✗'}`,
                  ),
                  ' ',
                  h('input', {
                    type: 'checkbox',
                    class: 'pair-pick',
                    'data-testid': 'pair-pick',
                    'data-run': ids[i],
                    'data-item': row.id,
                    checked: picked.item === row.id && picked.runs.includes(ids[i]),
                    'aria-label': `${ids[i]}: its trace of ${row.id} side by side`,
                    onchange: onTick,
                  }),
                ),
          ),
          h('td', { class: 'num', 'data-testid': 'matrix-right' }, `${row.right} / ${row.cells.filter(Boolean).length}`),
        ),
      ),
    ),
  );
  return table;
}

/** Two runs' traces of one item next to each other (stacked on a narrow screen), each in the view for its system. */
async function sideBySide(el: HTMLElement, item: string, runs: [string, string]): Promise<void> {
  const panels = runs.map((run) => {
    const body = h('div', {});
    return {
      run,
      body,
      panel: h(
        'section',
        { class: 'sbs-panel', 'data-testid': 'sbs-panel', 'data-run': run, 'aria-label': `trace of ${item} in ${run}` },
        h('p', { class: 'sbs-run' }, h('a', { href: `#/runs?${qs({ run, item })}` }, run)),
        body,
      ),
    };
  });
  clear(
    el,
    h('h2', { tabindex: -1, 'data-testid': 'sbs-heading' }, `Item ${item}: ${runs[0]} and ${runs[1]} side by side`),
    h(
      'div',
      { class: 'side-by-side' },
      panels.map((p) => p.panel),
    ),
  );
  await Promise.all(
    panels.map(async (p) => {
      await renderTrace(p.body, p.run, item, false);
      // two traces on one page: each scroll region's name says whose it is (landmarks stay unique)
      for (const r of p.body.querySelectorAll('[role=region][aria-label]')) r.setAttribute('aria-label', `${r.getAttribute('aria-label')} (${p.run})`);
    }),
  );
}

interface Many {
  matrix: Matrix;
  sign: string;
  note: string;
  runs: RunSummary[];
  configDiff: { key: string; values: unknown[] }[];
  plots: { id: string; title: string; spec: unknown }[];
  pairs: {
    a: string;
    b: string;
    shared: number;
    /** Items only in the reference (a) / only in this run (b): left out of the pair. */
    onlyA?: number;
    onlyB?: number;
    /** "not compared: 2 items only in A (e.g. …), 1 only in B (…)"; null when both runs hold the same items. */
    onlyLine?: string | null;
    measure?: string;
    text?: PairedText;
    agreement?: Record<string, number> | null;
    /** Of the shared items, those the reference (a) and this run (b) failed. */
    failed?: { a: number; b: number };
    failedLine?: string;
    /** Ids held for different items (left out) and unchecked content, one line each (eval/report/compare-pairs.ts). */
    pairingLines?: string[];
    /** What the measure is over where its note does not say (macro-F1's ceiling), as `lexcase compare` prints it under its table. */
    over?: string;
    /** "not compared: hallucination accuracy, … (pooled over each run's items, no paired statistic …)"; null when none. */
    notComparedLine?: string | null;
    error?: string;
  }[];
}

export async function renderCompareView(root: HTMLElement, params: URLSearchParams): Promise<void> {
  const { runs } = await api<{ runs: RunSummary[] }>('/api/runs/summary');
  const chosen = (params.get('runs') ?? [params.get('a'), params.get('b')].filter(Boolean).join(',')).split(',').filter(Boolean);
  const boxes = runs
    .filter((r) => r.system !== 'reproduce')
    .map((r) =>
      h(
        'label',
        { class: 'check pick' },
        h('input', { type: 'checkbox', value: r.id, 'data-testid': 'compare-pick', checked: chosen.includes(r.id) }),
        ` ${r.id}`,
        h('span', { class: 'muted' }, ` ${r.systemName}${r.n ? `, n=${r.n}` : ''}`),
      ),
    );
  const form = h(
    'form',
    { class: 'compare-form', 'data-testid': 'compare-form' },
    h('fieldset', {}, h('legend', {}, 'Runs to compare (the first picked is the reference)'), h('div', { class: 'pick-list' }, boxes)),
    h('button', { type: 'submit', 'data-testid': 'compare-go' }, 'Compare'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const ids = [
      ...chosen.filter((id) =>
        boxes.some((b) => (b.querySelector('input') as HTMLInputElement).value === id && (b.querySelector('input') as HTMLInputElement).checked),
      ),
      ...boxes
        .map((b) => b.querySelector('input') as HTMLInputElement)
        .filter((i) => i.checked && !chosen.includes(i.value))
        .map((i) => i.value),
    ];
    go('compare', { runs: ids.join(',') });
  });
  const out = h('section', { 'data-testid': 'compare-result', 'aria-label': 'comparison' });
  clear(
    root,
    h(
      'div',
      { class: 'compare-view', 'data-testid': 'compare-view' },
      viewHeading(chosen.length >= 2 ? `Compare ${chosen.length} runs` : 'Compare runs'),
      h('details', { open: chosen.length < 2 }, h('summary', {}, `Pick runs (${chosen.length} picked)`), form),
      out,
    ),
  );
  if (chosen.length < 2) {
    clear(out, h('div', { class: 'empty' }, 'Pick two or more runs (up to 8). Runs on the same items also get a paired Δ.'));
    return;
  }
  clear(out, h('div', { class: 'muted', role: 'status' }, 'comparing…'));
  const pairItem = params.get('item');
  const pairRuns = (params.get('pair') ?? '').split(',').filter((x) => chosen.includes(x));
  const sbs = h(
    'div',
    { 'data-testid': 'side-by-side' },
    h('p', { class: 'muted' }, "Tick two runs in an item's row to see their traces of that item side by side."),
  );
  try {
    const m = await api<Many>(`/api/compare/runs?${qs({ runs: chosen.join(',') })}`);
    const summary = h(
      'table',
      { class: 'runs-table', 'data-testid': 'compare-runs' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['run', 'system', 'model', 'method', 'k', 'n', 'headline figures [95% CI]'].map((x) => h('th', { scope: 'col' }, x)),
        ),
      ),
      h(
        'tbody',
        {},
        m.runs.map((s) =>
          h(
            'tr',
            { 'data-testid': 'compare-run', 'data-run': s.id },
            h('td', { 'data-export': s.id }, h('a', { href: `#/runs?${qs({ run: s.id })}` }, s.id)),
            h('td', {}, s.systemName),
            h('td', {}, s.model ?? '–'),
            h('td', {}, s.method ?? '–'),
            h('td', { class: 'num' }, s.k ?? '–'),
            h('td', { class: 'num', 'data-export': String(s.n) }, String(s.n), s.smallN ? h('div', {}, smallNWarning(s.n)) : null),
            h('td', { 'data-export': s.figures.map((f) => `${f.label} ${figureText(f)}`).join('; ') }, figureList(s.figures)),
          ),
        ),
      ),
    );
    const diff = h(
      'table',
      { class: 'runs-table config-diff', 'data-testid': 'config-diff' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'config key'),
          m.runs.map((s) => h('th', { scope: 'col' }, s.id)),
        ),
      ),
      h(
        'tbody',
        {},
        m.configDiff.map((d) =>
          h(
            'tr',
            { 'data-key': d.key },
            h('th', { scope: 'row' }, d.key),
            d.values.map((v) => h('td', {}, show(v))),
          ),
        ),
      ),
    );
    const pairs = h(
      'table',
      { class: 'runs-table', 'data-testid': 'compare-pairs' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          [
            'run',
            `vs ${m.runs[0].id}: shared items`,
            'not paired: only in ref. / only in this',
            'failed among them (ref. / this)',
            'measure',
            `Δ = ${m.sign} [95% interval]`,
            'p (exact test)',
            'both / only this / only ref. / neither',
            'details',
          ].map((x) => h('th', { scope: 'col' }, x)),
        ),
      ),
      h(
        'tbody',
        {},
        m.pairs.map((p) =>
          h(
            'tr',
            { 'data-testid': 'compare-pair', 'data-run': p.b },
            h('td', {}, p.b),
            h(
              'td',
              { class: p.pairingLines?.length ? 'num error-text' : 'num', 'data-testid': 'pair-shared', title: p.pairingLines?.join('\n') ?? '' },
              p.pairingLines?.length ? `${p.shared} ⚠` : String(p.shared),
            ),
            h(
              'td',
              { class: 'num', 'data-testid': 'pair-only', title: p.onlyLine ?? '' },
              p.onlyA === undefined || p.onlyB === undefined ? '–' : `${p.onlyA} / ${p.onlyB}`,
            ),
            h(
              'td',
              { class: p.failed && (p.failed.a || p.failed.b) ? 'num error-text' : 'num', 'data-testid': 'pair-failed', title: p.failedLine ?? '' },
              p.failed ? `${p.failed.a} / ${p.failed.b}` : '–',
            ),
            h('td', {}, p.measure ?? '–'),
            h(
              'td',
              { class: 'num', 'data-testid': 'pair-delta' },
              p.error || !p.text ? h('span', { class: 'muted' }, p.error ?? '–') : `${p.text.diff} ${p.text.interval}`,
            ),
            h('td', { class: 'num', 'data-testid': 'pair-p' }, p.text ? `${p.text.p} (${p.text.test})` : '–'),
            h('td', { class: 'num' }, p.agreement ? `${p.agreement.both} / ${p.agreement.onlyB} / ${p.agreement.onlyA} / ${p.agreement.neither}` : '–'),
            h('td', {}, p.shared ? h('a', { href: `#/compare?${qs({ runs: `${p.a},${p.b}` })}` }, 'pair view') : '–'),
          ),
        ),
      ),
    );
    clear(
      out,
      h('h2', {}, 'Runs'),
      scrollBox('compared runs', summary),
      exportControl(summary, 'compared-runs'),
      m.plots.length ? h('h2', {}, 'Curves and figures') : null,
      m.plots.length
        ? h(
            'div',
            { class: 'plot-row' },
            m.plots.map((x) => plot(x.spec, x.title, `plot-${x.id}`)),
          )
        : null,
      h('h2', {}, `Items × runs (${m.matrix.total} items)`),
      h(
        'p',
        { class: 'muted' },
        `Which items each run got right (✓) or wrong (✗)${m.matrix.rightMeans && m.matrix.rightMeans !== 'right' ? ` — ✓ here: ${m.matrix.rightMeans}, as the comparison judges retrieval runs` : ''}; – the run has no such item. Each cell opens that run's trace of the item.${m.matrix.total > m.matrix.rows.length ? ` The first ${m.matrix.rows.length} items.` : ''}`,
      ),
      (() => {
        const t = matrixTable(
          m.matrix,
          m.runs.map((r) => r.id),
          { item: pairItem, runs: pairRuns },
          (item, two) => {
            history.replaceState(null, '', `#/compare?${qs({ runs: chosen.join(','), item, pair: two.join(',') })}`);
            void sideBySide(sbs, item, two);
          },
        );
        return [scrollBox('item × run matrix', t), exportControl(t, 'item-matrix'), sbs];
      })(),
      h('h2', {}, `Config: ${keysDiffer(m.configDiff.length)}`),
      m.configDiff.length
        ? [scrollBox('config differences', diff), exportControl(diff, 'config-diff')]
        : h('p', { class: 'muted', 'data-testid': 'config-same' }, "the runs' configs are the same (seed included)"),
      h('h2', {}, `Paired Δ against ${m.runs[0].id}`),
      h('p', { class: 'muted', 'data-testid': 'paired-note' }, `Δ = this run − the reference (${m.sign}, B = this run). ${m.note}`),
      scrollBox('paired differences', pairs),
      exportControl(pairs, 'paired-differences'),
      // each pair's lines `lexcase compare` prints beside its table: what the measure is over, the figures it has no row for
      m.pairs.flatMap((p) => [
        p.over ? h('p', { class: 'muted', 'data-testid': 'pair-over', 'data-run': p.b }, `${p.b} vs ${p.a}, ${p.measure}: ${p.over}.`) : null,
        p.notComparedLine
          ? h('p', { class: 'error-text', 'data-testid': 'pair-not-compared', 'data-run': p.b }, `${p.b} vs ${p.a}: ${p.notComparedLine}`)
          : null,
        // what makes the pair's figures not comparable, as text on the page (before: only the ⚠ cell's title, which a
        // touch screen or a screen reader never shows)
        ...(p.pairingLines ?? []).map((l) => h('p', { class: 'error-text', 'data-testid': 'pair-warning', 'data-run': p.b }, `${p.b} vs ${p.a}: ${l}`)),
        p.onlyLine ? h('p', { class: 'muted', 'data-testid': 'pair-only-line', 'data-run': p.b }, `${p.b} vs ${p.a}: ${p.onlyLine}`) : null,
      ]),
      m.runs.length === 2 && m.pairs[0]?.shared ? await pairDetail(m.runs[0].id, m.runs[1].id) : null,
    );
    if (pairItem && pairRuns.length === 2) await sideBySide(sbs, pairItem, [pairRuns[0], pairRuns[1]]);
  } catch (e) {
    clear(out, errorBox(e));
  }
}

/** Two runs on shared items: Δ with CI and p, the agreement matrix, per-item metrics, the items where they differ. */
async function pairDetail(aId: string, bId: string): Promise<HTMLElement> {
  const c = await api(`/api/compare?${qs({ a: aId, b: bId })}`);
  const ag = c.agreement;
  const [yes, no] = c.judgedBy === 'accuracy' ? ['right', 'wrong'] : ['hit', 'miss'];
  const metrics = h(
    'table',
    { class: 'runs-table', 'data-testid': 'pair-metrics' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['measure', 'n', 'A', 'B', `${c.sign} [95% interval]`, 'p', 'test'].map((x) => h('th', { scope: 'col' }, x)),
      ),
    ),
    h(
      'tbody',
      {},
      (c.measures as any[]).map((m) =>
        h(
          'tr',
          { 'data-measure': m.id },
          h('td', {}, m.label),
          h('td', { class: 'num' }, String(m.n)),
          h('td', { class: 'num' }, m.text.a),
          h('td', { class: 'num' }, m.text.b),
          h('td', { class: 'num' }, `${m.text.diff} ${m.text.interval}`),
          h('td', { class: 'num' }, m.text.p),
          h('td', {}, m.text.test),
        ),
      ),
    ),
  );
  const differ = h(
    'table',
    { class: 'runs-table', 'data-testid': 'differ' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['item', 'gold', 'A', 'B', 'traces'].map((x) => h('th', { scope: 'col' }, x)),
      ),
    ),
    h(
      'tbody',
      {},
      c.differ.map((d: any) =>
        h(
          'tr',
          { 'data-testid': 'differ-row', 'data-id': d.id },
          h('td', { class: 'pid' }, d.id),
          h('td', {}, d.gold),
          h('td', { class: d.aCorrect ? 'ok-text' : 'bad-text' }, `${d.a ?? '–'} ${d.aCorrect ? '✓' : '✗'}`),
          h('td', { class: d.bCorrect ? 'ok-text' : 'bad-text' }, `${d.b ?? '–'} ${d.bCorrect ? '✓' : '✗'}`),
          h('td', {}, h('a', { href: `#/runs?${qs({ run: aId, item: d.id })}` }, 'A'), ' · ', h('a', { href: `#/runs?${qs({ run: bId, item: d.id })}` }, 'B')),
        ),
      ),
    ),
  );
  return h(
    'section',
    { class: 'pair', 'aria-label': 'pair detail' },
    h('h2', {}, `A = ${aId}, B = ${bId}`),
    h(
      'div',
      { class: 'delta', 'data-testid': 'compare-delta' },
      `On ${c.shared} shared items, ${c.primary.label}: A ${c.primary.text.a} vs B ${c.primary.text.b} · Δ (${c.sign}) `,
      h('strong', {}, c.primary.text.diff),
      ` ${c.primary.text.interval} · ${c.primary.text.pLine}`,
      (c.measures as any[])
        .filter((m) => m.disagreement)
        .map((m) => h('div', { class: 'muted', 'data-testid': 'disagreement' }, `‡ ${m.label}: ${m.disagreement}.`)),
      // a per-item outcome's denominator (every shared item, one that did not record it 0), as the CLI prints it
      (c.measures as { label: string; over?: string }[])
        .filter((m) => m.over)
        .map((m) => h('div', { class: 'muted', 'data-testid': 'compare-over' }, `${m.label}: ${m.over}.`)),
      h('div', { class: c.failed.a || c.failed.b ? 'error-text' : 'muted', 'data-testid': 'compare-failed' }, c.failedLine),
      c.notComparedLine ? h('div', { class: 'error-text', 'data-testid': 'compare-not-compared' }, c.notComparedLine) : null,
      ((c.pairingLines ?? []) as string[]).map((l) => h('div', { class: 'error-text', 'data-testid': 'compare-pairing' }, l)),
      h('div', { class: 'muted' }, c.note),
      c.onlyLine ? h('div', { class: 'muted', 'data-testid': 'compare-only' }, c.onlyLine) : null,
    ),
    h(
      'div',
      { class: 'compare-grid' },
      ag
        ? h(
            'table',
            { class: 'agreement', 'data-testid': 'agreement' },
            h('caption', {}, `${c.primary.label}; same prediction on ${c.samePrediction} of ${c.shared}`),
            h('thead', {}, h('tr', {}, h('td', {}), h('th', { scope: 'col' }, `B ${yes}`), h('th', { scope: 'col' }, `B ${no}`))),
            h(
              'tbody',
              {},
              h(
                'tr',
                {},
                h('th', { scope: 'row' }, `A ${yes}`),
                h('td', { class: 'num', 'data-cell': 'both' }, ag.both),
                h('td', { class: 'num', 'data-cell': 'onlyA' }, ag.onlyA),
              ),
              h(
                'tr',
                {},
                h('th', { scope: 'row' }, `A ${no}`),
                h('td', { class: 'num', 'data-cell': 'onlyB' }, ag.onlyB),
                h('td', { class: 'num', 'data-cell': 'neither' }, ag.neither),
              ),
            ),
          )
        : null,
      scrollBox('compared measures', metrics),
    ),
    h('h3', {}, `Items where they differ (${c.differ.length})`),
    c.rightMeans && c.rightMeans !== 'right' ? h('p', { class: 'muted' }, `✓ / ✗: ${c.rightMeans}, as the comparison judges retrieval runs.`) : null,
    c.differ.length
      ? [scrollBox('items where the runs differ', differ), exportControl(differ, 'items-that-differ')]
      : h('p', { class: 'muted' }, 'the two runs agree on every shared item'),
  );
}
