/**
 * Run view: without a run, the runs table (run-summary.ts); with one, its summary header (accuracy
 * [95% CI], failures, tokens, date, plots, table.json), its items (all / correct / wrong) and one
 * item's trace in the view for its system: CASE, MAD, EMAR, 3-ply (trace-*.ts), or the raw JSON.
 */
import { api, qs } from './api.js';
import { activate, clear, errorBox, h } from './dom.js';
import { go } from './route.js';
import { renderRunsTable, runSummaryHeader } from './run-summary.js';
import { caseTrace } from './trace-case.js';
import { emarTrace } from './trace-emar.js';
import { madTrace } from './trace-mad.js';
import { threeplyTrace } from './trace-threeply.js';

interface RunInfo { id: string; kind: string; system?: string; mode?: string; dataset?: string; items: number; correct: number; graphs: number }

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
          { href: `#/${view}?${qs({ run: r.id })}`, 'data-testid': 'run-link', 'data-run': r.id },
          h('div', { class: 'run-id' }, r.id),
          h('div', { class: 'muted' }, [r.system ?? r.kind, r.mode, r.dataset, r.items ? `${r.correct}/${r.items} correct` : null, r.graphs ? `${r.graphs} graphs` : null].filter(Boolean).join(' · ')),
        ),
      ),
    ),
  );
}

export async function renderRunView(root: HTMLElement, params: URLSearchParams, _kind: 'case'): Promise<void> {
  const { runs } = await api<{ runs: RunInfo[] }>('/api/runs');
  const caseRuns = runs.filter((r) => r.kind !== 'acal' || r.items > 0);
  const runId = params.get('run');
  if (!runId) return renderRunsTable(root);
  const filter = (params.get('filter') ?? 'all') as 'all' | 'correct' | 'wrong';
  const item = params.get('item');
  const side = h('aside', {}, h('h2', {}, 'Runs'), runList(caseRuns, runId, 'runs'));
  const mainCol = h('section', { class: 'run-main' });
  const detail = h('section', { class: 'trace', 'data-testid': 'trace' });
  const header = h('section', { class: 'run-header' });
  clear(root, h('div', { 'data-testid': 'run-view' }, header, h('div', { class: 'run-view three' }, side, mainCol, detail)));
  const headerDone = runSummaryHeader(header, runId).catch((e) => clear(header, errorBox(e)));
  try {
    const r = await api(`/api/run/questions?${qs({ run: runId, filter })}`);
    const acc = r.total ? `${r.correct}/${r.total} correct (${((100 * r.correct) / r.total).toFixed(1)}%)` : 'no results';
    clear(
      mainCol,
      h('h3', {}, 'Items'),
      h('div', { class: 'muted' }, acc),
      h(
        'div',
        { class: 'filters', 'data-testid': 'filters' },
        (['all', 'correct', 'wrong'] as const).map((f) => h('a', { href: `#/runs?${qs({ run: runId, filter: f })}`, class: f === filter ? 'active' : '', 'data-testid': `filter-${f}` }, f)),
      ),
      h(
        'table',
        { class: 'questions', 'data-testid': 'questions', 'data-filter': filter, 'data-run': runId },
        h('thead', {}, h('tr', {}, h('th', {}, 'id'), h('th', {}, 'pred'), h('th', {}, 'gold'), h('th', {}, ''), h('th', {}, 'conf.'), h('th', {}, 'question'))),
        h(
          'tbody',
          {},
          r.questions.map((x: { id: string; prediction: string | null; gold: string; correct: boolean; confidence: string | null; question: string | null; error: string | null }) =>
            h(
              'tr',
              { class: `${x.correct ? 'ok' : 'bad'}${x.id === item ? ' active' : ''}`, 'data-testid': 'question-row', 'data-id': x.id, ...activate(() => go('runs', { run: runId, filter, item: x.id })) },
              h('td', { class: 'pid' }, x.id),
              h('td', {}, x.prediction ?? '–'),
              h('td', {}, x.gold),
              h('td', {}, x.correct ? '✓' : '✗'),
              h('td', {}, x.confidence ?? ''),
              h('td', { class: 'qtext' }, h('div', { class: 'clamp' }, x.error ? h('span', { class: 'error-text' }, x.error) : (x.question ?? ''))),
            ),
          ),
        ),
      ),
    );
  } catch (e) {
    clear(mainCol, errorBox(e));
    return;
  }
  if (item) await renderTrace(detail, runId, item);
  else clear(detail, h('div', { class: 'empty' }, 'Pick an item to open its trace.'));
  await headerDone;
}

/* eslint-disable @typescript-eslint/no-explicit-any */
type TraceKind = 'case' | 'mad' | 'emar' | 'threeply' | 'other';

/** Which trace view fits: by the trace's own shape (defensive: any system's trace may be partial). */
export function traceKind(t: any): TraceKind {
  if (!t || typeof t !== 'object') return 'other';
  if (t.system === 'mad' || (Array.isArray(t.rounds) && Array.isArray(t.letters))) return 'mad';
  if (t.system === 'emar' || (t.initial && Array.isArray(t.rounds))) return 'emar';
  if (t.plies && typeof t.plies === 'object' && t.triple) return 'threeply';
  if (Array.isArray(t.advocates)) return 'case';
  return 'other';
}

async function renderTrace(el: HTMLElement, runId: string, item: string): Promise<void> {
  clear(el, h('div', { class: 'muted' }, 'loading…'));
  try {
    const r = await api(`/api/run/trace?${qs({ run: runId, item })}`);
    const t = r.trace ?? {};
    const gold = new Set<string>(r.goldPassageIds);
    const answer: string | undefined = r.question?.answer ?? r.result.gold;
    const kind = traceKind(r.trace);
    const choices: string[] = Array.isArray(r.question?.choices) ? r.question.choices : [];
    const body = kind === 'case' ? caseTrace(t, gold, answer) : kind === 'mad' ? madTrace(t, gold, answer) : kind === 'emar' ? emarTrace(t, answer) : kind === 'threeply' ? threeplyTrace(t, r.factors) : [h('h3', {}, 'Trace'), h('pre', { class: 'detail', 'data-testid': 'raw-trace' }, r.trace ? JSON.stringify(r.trace, null, 1) : 'no trace recorded for this item')];
    clear(
      el,
      h('h2', {}, `Item ${item}`, ' ', h('span', { class: r.result.correct ? 'badge ok' : 'badge bad', 'data-testid': 'outcome' }, r.result.correct ? 'correct' : 'wrong'), ' ', h('span', { class: 'tag', 'data-testid': 'trace-kind' }, kind)),
      h('div', { class: 'muted' }, [`prediction ${r.result.prediction ?? '–'}`, `gold ${r.result.gold}`, r.result.confidence && `confidence ${r.result.confidence}`, t.mode, t.hypothesesMode && `${t.hypothesesMode} hypotheses`, t.k && `k=${t.k}`, Array.isArray(t.methods) && `methods: ${t.methods.join(', ')}`, Array.isArray(t.tools) && `tools: ${t.tools.join(', ')}`].filter(Boolean).join(' · ')),
      r.question
        ? h(
            'div',
            { class: 'question' },
            h('details', { open: kind !== 'mad' }, h('summary', {}, 'question'), r.question.prompt ? h('p', { class: 'muted' }, r.question.prompt) : null, h('p', {}, r.question.question)),
            h('ol', { class: 'choices', type: 'A' }, choices.map((c: string, i: number) => { const L = String.fromCharCode(65 + i); return h('li', { class: [L === answer ? 'gold-answer' : '', L === r.result.prediction ? 'predicted' : ''].join(' ') }, c, L === answer ? h('span', { class: 'tag gold' }, 'gold') : null, L === r.result.prediction ? h('span', { class: 'tag' }, 'predicted') : null); })),
          )
        : kind === 'threeply' ? null : h('p', { class: 'muted' }, `gold answer ${r.result.gold}; the question text is not available here (dataset not loadable)`),
      r.goldKnown
        ? h('details', { class: 'gold-passages' }, h('summary', {}, `gold passages (${r.goldPassageIds.length})`), r.goldPassages.map((g: { id: string; snippet: string | null }) => h('div', {}, h('span', { class: 'pid gold' }, g.id), ' ', g.snippet ?? h('span', { class: 'muted' }, '(not in the served index)'))))
        : null,
      r.result.error ? errorBox(r.result.error) : null,
      kind !== 'mad' && t.error ? errorBox(t.error) : null,
      ...body,
    );
  } catch (e) {
    clear(el, errorBox(e));
  }
}
