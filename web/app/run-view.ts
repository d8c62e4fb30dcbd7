/**
 * Run view: without a run, the runs table (run-summary.ts); with one, its summary header (the
 * system's figures, plots, table.json — a reproduction's paper-vs-lexcase table), its items (all /
 * correct / wrong; a retrieval run's first gold rank), and one item's trace in the view for its
 * system — CASE, MAD, EMAR, 3-ply, a retrieval or baseline run (trace-*.ts) — with its LLM calls.
 * Opening another item of the same run redraws only the trace panel and moves focus to its header.
 */
import { api, qs } from './api.js';
import { clear, errorBox, h, pidLink, round, scrollBox } from './dom.js';
import { llmCallsPanel } from './llm-calls.js';
import { go } from './route.js';
import { renderRunsTable, runSummaryHeader } from './run-summary.js';
import { acalTrace } from './trace-acal.js';
import { caseTrace } from './trace-case.js';
import { emarTrace } from './trace-emar.js';
import { madTrace } from './trace-mad.js';
import { baselineTrace, genericTrace, retrievalTrace } from './trace-retrieval.js';
import { threeplyTrace } from './trace-threeply.js';
import { TRACE_VIEW_KINDS, type TraceKind } from '../common/trace-kinds.js';
import { viewKind } from '../common/trace-kind-guess.js';

interface RunInfo {
  id: string;
  kind: string;
  system?: string;
  mode?: string;
  dataset?: string;
  items: number;
  correct: number;
  graphs: number;
  parent?: string;
  /** results.jsonl could not be read (web/server/runs.ts). */
  resultsProblem?: string;
}
interface Row {
  id: string;
  prediction: string | null;
  gold: string;
  correct: boolean;
  confidence: string | null;
  question: string | null;
  error: string | null;
  metrics: Record<string, unknown> | null;
}

export function runList(runs: RunInfo[], current: string | null, view: 'runs' | 'args'): HTMLElement {
  return h(
    'ul',
    { class: 'runlist', 'data-testid': 'run-list' },
    runs.length === 0 ? h('li', { class: 'muted' }, view === 'args' ? 'no runs with argument graphs' : 'no runs found under --runs') : null,
    runs.map((r) =>
      h(
        'li',
        { class: r.id === current ? 'active' : '' },
        h(
          'a',
          { href: `#/${view}?${qs({ run: r.id })}`, 'data-testid': 'run-link', 'data-run': r.id, ...(r.id === current ? { 'aria-current': 'page' } : {}) },
          h('div', { class: 'run-id' }, r.id),
          h(
            'div',
            { class: 'muted' },
            [
              r.system ?? r.kind,
              r.mode && !r.system?.endsWith(`/${r.mode}`) ? r.mode : null,
              r.dataset,
              r.resultsProblem ? '⚠ results.jsonl unreadable' : r.items ? `${r.items} items` : null,
              r.graphs ? `${r.graphs} graph${r.graphs === 1 ? '' : 's'}` : null,
            ]
              .filter(Boolean)
              .join(' · '),
          ),
        ),
      ),
    ),
  );
}

/** What is on screen, so that opening another item of the same run redraws only the trace. */
let mounted: { root: HTMLElement; runId: string; filter: string; box: HTMLElement; table: HTMLElement | null; detail: HTMLElement } | undefined;

export async function renderRunView(root: HTMLElement, params: URLSearchParams): Promise<void> {
  const runId = params.get('run');
  if (!runId) {
    mounted = undefined;
    return renderRunsTable(root, params);
  }
  const filter = (params.get('filter') ?? 'all') as 'all' | 'correct' | 'wrong';
  const item = params.get('item');
  if (mounted && mounted.root === root && root.contains(mounted.box) && mounted.runId === runId && mounted.filter === filter) {
    for (const tr of mounted.table?.querySelectorAll<HTMLElement>('tr[data-id]') ?? []) {
      tr.classList.toggle('active', tr.dataset.id === item);
      if (tr.dataset.id === item) tr.setAttribute('aria-current', 'true');
      else tr.removeAttribute('aria-current');
    }
    if (item) await renderTrace(mounted.detail, runId, item, true);
    else clear(mounted.detail, h('div', { class: 'empty' }, 'Pick an item to open its trace.'));
    return;
  }
  const { runs } = await api<{ runs: RunInfo[] }>('/api/runs');
  const caseRuns = runs.filter((r) => r.kind !== 'acal' || r.items > 0);
  const header = h('section', { class: 'run-header' });
  const box = h('div', { 'data-testid': 'run-view' }, header);
  clear(root, box);
  mounted = undefined;
  let page;
  try {
    page = await runSummaryHeader(header, runId);
  } catch (e) {
    clear(header, h('h1', { tabindex: -1 }, `Run ${runId}`), errorBox(e));
    return;
  }
  if (page.summary.system === 'reproduce') return; // the reproduction's table, notes and grid runs are its page
  const side = h(
    'aside',
    { 'aria-label': 'runs' },
    h(
      'details',
      { class: 'runs-aside', open: window.matchMedia('(min-width: 1400px)').matches },
      h('summary', {}, h('h2', { class: 'inline' }, `Runs (${caseRuns.length})`)),
      runList(caseRuns, runId, 'runs'),
    ),
  );
  const mainCol = h('section', { class: 'run-main', 'aria-label': 'items' });
  const detail = h('section', { class: 'trace', 'data-testid': 'trace', 'aria-label': 'trace' });
  box.append(h('div', { class: 'run-view three' }, side, mainCol, detail));
  let table: HTMLElement | null = null;
  try {
    const r = await api<{ total: number; correct: number; questions: Row[] }>(`/api/run/questions?${qs({ run: runId, filter })}`);
    // the retrieval table for a run lexcase's retrieval evaluation wrote (its recorded writer), not any run named "retrieval"
    const retrieval = page.summary.retrievalItems;
    table = retrieval ? retrievalItems(r.questions, runId, filter, item) : answerItems(r.questions, runId, filter, item);
    // under a filter the heading counts the rows it shows, of the run's items (not "Items (40)" over 10 rows)
    const filterName = retrieval ? (filter === 'correct' ? 'gold at rank 1' : 'gold not at rank 1') : filter;
    clear(
      mainCol,
      h('h2', { 'data-testid': 'items-heading' }, filter === 'all' ? `Items (${r.total})` : `Items (${r.questions.length} of ${r.total}: ${filterName})`),
      h(
        'div',
        { class: 'muted' },
        retrieval
          ? 'per query: the top-ranked passage, the gold passage and the rank of the first gold passage'
          : r.total
            ? `${r.correct} of ${r.total} correct — the run's figures, with intervals, are above`
            : 'no results',
      ),
      h(
        'nav',
        { class: 'filters', 'data-testid': 'filters', 'aria-label': 'filter items' },
        (['all', 'correct', 'wrong'] as const).map((f) =>
          h(
            'a',
            {
              href: `#/runs?${qs({ run: runId, filter: f })}`,
              class: f === filter ? 'active' : '',
              'data-testid': `filter-${f}`,
              ...(f === filter ? { 'aria-current': 'true' } : {}),
            },
            retrieval && f !== 'all' ? (f === 'correct' ? 'gold at rank 1' : 'gold not at rank 1') : f,
          ),
        ),
      ),
      scrollBox('items table', table),
    );
  } catch (e) {
    clear(mainCol, errorBox(e));
    return;
  }
  mounted = { root, runId, filter, box, table, detail };
  if (item) await renderTrace(detail, runId, item, true);
  else clear(detail, h('div', { class: 'empty' }, 'Pick an item to open its trace.'));
}

const itemLink = (runId: string, filter: string, id: string) =>
  h('a', { href: `#/runs?${qs({ run: runId, filter, item: id })}`, class: 'pid', 'data-testid': 'item-link' }, id);
const rowAttrs = (x: Row, item: string | null, runId: string, filter: string) => ({
  class: `${x.correct ? 'ok' : 'bad'}${x.id === item ? ' active' : ''}`,
  'data-testid': 'question-row',
  'data-id': x.id,
  ...(x.id === item ? { 'aria-current': 'true' } : {}),
  // a click anywhere on the row opens it (the id is the keyboard's link)
  onclick: (e: Event) => {
    if ((e.target as HTMLElement).closest('a')) return;
    go('runs', { run: runId, filter, item: x.id });
  },
});

function answerItems(rows: Row[], runId: string, filter: string, item: string | null): HTMLElement {
  return h(
    'table',
    { class: 'questions', 'data-testid': 'questions', 'data-filter': filter, 'data-run': runId },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['id', 'pred', 'gold', 'outcome', 'conf.', 'question'].map((c) => h('th', { scope: 'col' }, c)),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map((x) =>
        h(
          'tr',
          rowAttrs(x, item, runId, filter),
          h('td', {}, itemLink(runId, filter, x.id)),
          h('td', {}, x.prediction ?? '–'),
          h('td', {}, x.gold),
          h('td', { 'aria-label': x.error ? 'failed' : x.correct ? 'correct' : 'wrong' }, x.error ? '⚠' : x.correct ? '✓' : '✗'),
          h('td', {}, x.confidence ?? ''),
          h('td', { class: 'qtext' }, h('div', { class: 'clamp' }, x.error ? h('span', { class: 'error-text' }, x.error) : (x.question ?? ''))),
        ),
      ),
    ),
  );
}

function retrievalItems(rows: Row[], runId: string, filter: string, item: string | null): HTMLElement {
  const ks = [...new Set(rows.flatMap((r) => Object.keys(r.metrics ?? {}).filter((k) => /^recall@\d+$/.test(k))))].sort(
    (a, b) => Number(a.slice(7)) - Number(b.slice(7)),
  );
  return h(
    'table',
    { class: 'questions', 'data-testid': 'questions', 'data-filter': filter, 'data-run': runId },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ['query', 'top passage', 'gold passage', 'first gold rank', ...ks.map((k) => k.replace('recall', 'R'))].map((c) => h('th', { scope: 'col' }, c)),
      ),
    ),
    h(
      'tbody',
      {},
      rows.map((x) =>
        h(
          'tr',
          rowAttrs(x, item, runId, filter),
          h('td', {}, itemLink(runId, filter, x.id)),
          h('td', {}, x.prediction ? pidLink(x.prediction, { gold: x.correct }) : '–'),
          h('td', {}, pidLink(x.gold, { gold: true })),
          h('td', { class: 'num', 'data-testid': 'first-rank' }, typeof x.metrics?.firstRank === 'number' ? `#${x.metrics.firstRank}` : 'not found'),
          ks.map((k) => h('td', { class: 'num' }, round(x.metrics?.[k], 3))),
        ),
      ),
    ),
  );
}

/* eslint-disable @typescript-eslint/no-explicit-any */

/** Which trace view an item gets: its run's system's (the server's `traceKind`, from the system list); a run dir without a recorded system: the trace's shape. */
export function traceKind(sentKind: unknown, t: any): TraceKind {
  return viewKind(sentKind, t, TRACE_VIEW_KINDS);
}

/** The latest trace asked of each trace panel: a reply to an earlier one (a slower item) is dropped, never drawn over it. */
const traceAsked = new WeakMap<HTMLElement, number>();

export async function renderTrace(el: HTMLElement, runId: string, item: string, byAction: boolean): Promise<void> {
  const mine = (traceAsked.get(el) ?? 0) + 1;
  traceAsked.set(el, mine);
  const stale = () => traceAsked.get(el) !== mine;
  clear(el, h('div', { class: 'muted', role: 'status' }, 'loading…'));
  try {
    const r = await api(`/api/run/trace?${qs({ run: runId, item })}`);
    // another item was opened while this one loaded: the panel is that item's
    if (stale()) return;
    const t = r.trace ?? {};
    const gold = new Set<string>(r.goldPassageIds);
    const answer: string | undefined = r.question?.answer ?? r.result.gold;
    const kind = traceKind(r.traceKind, r.trace);
    const choices: string[] = Array.isArray(r.question?.choices) ? r.question.choices : [];
    const body =
      kind === 'case'
        ? caseTrace(t, gold, answer, r.result?.metrics)
        : kind === 'mad'
          ? madTrace(t, gold, answer)
          : kind === 'emar'
            ? emarTrace(t, answer)
            : kind === 'threeply'
              ? threeplyTrace(t, r.factors)
              : kind === 'retrieval'
                ? retrievalTrace(t)
                : kind === 'acal'
                  ? acalTrace(t, runId, item, r.argumentGraph ?? null)
                  : kind === 'baseline'
                    ? baselineTrace(t, gold)
                    : genericTrace(r.trace);
    const outcome = r.result.error ? 'failed' : r.result.correct ? 'correct' : 'wrong';
    const heading = h(
      'h2',
      { class: 'trace-head', tabindex: -1, 'data-testid': 'trace-heading', ...(byAction ? { 'data-focus': '' } : {}) },
      `Item ${item}`,
      ' ',
      h('span', { class: outcome === 'correct' ? 'badge ok' : 'badge bad', 'data-testid': 'outcome' }, outcome),
      ' ',
      h('span', { class: 'tag', 'data-testid': 'trace-kind' }, kind),
    );
    clear(
      el,
      heading,
      h(
        'div',
        { class: 'muted' },
        [
          `prediction ${r.result.prediction ?? '–'}`,
          `gold ${r.result.gold}`,
          r.result.confidence && `confidence ${r.result.confidence}`,
          t.mode,
          t.hypothesesMode && `${t.hypothesesMode} hypotheses`,
          t.k && `k=${t.k}`,
          Array.isArray(t.methods) && `methods: ${t.methods.join(', ')}`,
          Array.isArray(t.tools) && `tools: ${t.tools.join(', ')}`,
        ]
          .filter(Boolean)
          .join(' · '),
      ),
      r.question
        ? h(
            'div',
            { class: 'question' },
            h(
              'details',
              { open: kind !== 'mad', 'data-testid': 'question' },
              h('summary', {}, r.question.source === 'argument graph' ? "case text (from the run's argument graph)" : 'question'),
              // the bundled copy differs from the file the run read: say so beside the text
              r.question.note ? h('p', { class: 'question-note', 'data-testid': 'question-note' }, r.question.note) : null,
              r.question.prompt ? h('p', { class: 'muted' }, r.question.prompt) : null,
              h('p', {}, r.question.question),
            ),
            choices.length
              ? h(
                  'ol',
                  { class: 'choices', type: 'A' },
                  choices.map((c: string, i: number) => {
                    const L = String.fromCharCode(65 + i);
                    return h(
                      'li',
                      { class: [L === answer ? 'gold-answer' : '', L === r.result.prediction ? 'predicted' : ''].join(' ') },
                      c,
                      L === answer ? h('span', { class: 'tag gold' }, 'gold') : null,
                      L === r.result.prediction ? h('span', { class: 'tag' }, 'predicted') : null,
                    );
                  }),
                )
              : null,
          )
        : kind === 'threeply' || kind === 'retrieval'
          ? null
          : h('p', { class: 'muted' }, `gold answer ${r.result.gold}; the question text is neither in the run's files nor in a dataset loadable here`),
      r.goldKnown && r.goldPassageIds.length
        ? h(
            'details',
            { class: 'gold-passages' },
            h('summary', {}, `gold passages (${r.goldPassageIds.length})`),
            r.goldPassages.map((g: { id: string; snippet: string | null }) =>
              h('div', {}, pidLink(g.id, { gold: true }), ' ', g.snippet ?? h('span', { class: 'muted' }, '(not in the served index)')),
            ),
          )
        : null,
      r.result.error ? errorBox(`this item failed: ${r.result.error}`) : null,
      r.traceProblem ? h('p', { class: 'muted', role: 'note', 'data-testid': 'trace-problem' }, `trace not shown: ${r.traceProblem}`) : null,
      kind !== 'mad' && t.error && t.error !== r.result.error ? errorBox(t.error) : null,
      ...body,
      llmCallsPanel(runId, item, !!r.result.error),
    );
  } catch (e) {
    if (stale()) return;
    clear(el, h('h2', { tabindex: -1, ...(byAction ? { 'data-focus': '' } : {}) }, `Item ${item}`), errorBox(e));
  }
}
