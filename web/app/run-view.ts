/** Run view: a CASE run's questions (all / correct / wrong) and one question's trace: hypotheses, advocates' tool calls and evidence (gold marked), jurors and verdict. */
import { api, qs } from './api.js';
import { clear, errorBox, fmt, h } from './dom.js';
import { go } from './main.js';
import { toolCallsTable } from './search-view.js';

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
  const runId = params.get('run') ?? caseRuns[0]?.id ?? null;
  const filter = (params.get('filter') ?? 'all') as 'all' | 'correct' | 'wrong';
  const item = params.get('item');
  const side = h('aside', {}, h('h2', {}, 'Runs'), runList(caseRuns, runId, 'runs'));
  const mainCol = h('section', { class: 'run-main' });
  const detail = h('section', { class: 'trace', 'data-testid': 'trace' });
  clear(root, h('div', { class: 'run-view three', 'data-testid': 'run-view' }, side, mainCol, detail));
  if (!runId) return;
  try {
    const r = await api(`/api/run/questions?${qs({ run: runId, filter })}`);
    const acc = r.total ? `${r.correct}/${r.total} correct (${((100 * r.correct) / r.total).toFixed(1)}%)` : 'no results';
    clear(
      mainCol,
      h('h2', {}, runId),
      h('div', { class: 'muted' }, [r.run.system, r.run.mode, r.run.dataset, acc].filter(Boolean).join(' · ')),
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
              { class: `${x.correct ? 'ok' : 'bad'}${x.id === item ? ' active' : ''}`, 'data-testid': 'question-row', 'data-id': x.id, onclick: () => go('runs', { run: runId, filter, item: x.id }) },
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
  else clear(detail, h('div', { class: 'empty' }, 'Pick a question to open its trace.'));
}

async function renderTrace(el: HTMLElement, runId: string, item: string): Promise<void> {
  clear(el, h('div', { class: 'muted' }, 'loading…'));
  try {
    const r = await api(`/api/run/trace?${qs({ run: runId, item })}`);
    const t = r.trace ?? {};
    const gold = new Set<string>(r.goldPassageIds);
    const answer: string | undefined = r.question?.answer ?? r.result.gold;
    const advocates: any[] = t.advocates ?? [];
    const jurors: any[] = t.jurors ?? [];
    const verdict = t.verdict;
    clear(
      el,
      h('h2', {}, `Question ${item}`, ' ', h('span', { class: r.result.correct ? 'badge ok' : 'badge bad', 'data-testid': 'outcome' }, r.result.correct ? 'correct' : 'wrong')),
      h('div', { class: 'muted' }, [t.mode, t.hypothesesMode && `${t.hypothesesMode} hypotheses`, t.k && `k=${t.k}`, t.methods && `methods: ${t.methods.join(', ')}`, t.tools && `tools: ${t.tools.join(', ')}`].filter(Boolean).join(' · ')),
      r.question
        ? h(
            'div',
            { class: 'question' },
            h('p', {}, r.question.question),
            h('ol', { class: 'choices', type: 'A' }, r.question.choices.map((c: string, i: number) => { const L = String.fromCharCode(65 + i); return h('li', { class: [L === answer ? 'gold-answer' : '', L === r.result.prediction ? 'predicted' : ''].join(' ') }, c, L === answer ? h('span', { class: 'tag gold' }, 'gold') : null, L === r.result.prediction ? h('span', { class: 'tag' }, 'predicted') : null); })),
          )
        : h('p', { class: 'muted' }, `gold answer ${r.result.gold}; the question text is not available here (dataset not loadable)`),
      r.goldKnown
        ? h('details', { class: 'gold-passages' }, h('summary', {}, `gold passages (${r.goldPassageIds.length})`), r.goldPassages.map((g: { id: string; snippet: string | null }) => h('div', {}, h('span', { class: 'pid gold' }, g.id), ' ', g.snippet ?? h('span', { class: 'muted' }, '(not in the served index)'))))
        : h('p', { class: 'muted' }, 'gold passages unknown for this run'),
      r.result.error ? errorBox(r.result.error) : null,
      t.error ? errorBox(t.error) : null,
      h('h3', {}, `Hypotheses and advocates (${advocates.length})`),
      advocates.map((a) =>
        h(
          'div',
          { class: `advocate${a.letter && a.letter === answer ? ' for-gold' : ''}`, 'data-testid': 'advocate' },
          h('div', { class: 'adv-head' }, h('strong', {}, a.key), a.letter && a.letter !== a.key ? ` (option ${a.letter})` : '', ' ', a.hypothesis, h('span', { class: 'muted' }, ` · ${a.stance} · stop ${a.stop} · ${a.steps} steps${a.tokens ? ` · ${a.tokens} tokens` : ''}`)),
          a.analysis ? h('p', { class: 'analysis' }, a.analysis) : null,
          a.error ? errorBox(a.error) : null,
          toolCallsTable(a.toolCalls ?? [], gold),
          h(
            'ol',
            { class: 'evidence' },
            (a.evidence ?? []).map((e: { id: string; score: number; justification: string; snippet: string }) =>
              h('li', { class: gold.has(e.id) ? 'gold' : '', 'data-testid': 'evidence-item' }, h('span', { class: gold.has(e.id) ? 'pid gold' : 'pid' }, e.id), gold.has(e.id) ? h('span', { class: 'tag gold' }, 'gold passage') : null, ` ${fmt(e.score)} — `, h('em', {}, e.justification), h('div', { class: 'snippet' }, e.snippet)),
            ),
          ),
        ),
      ),
      h('h3', {}, 'Jury'),
      jurors.length
        ? h(
            'div',
            { class: 'jurors', 'data-testid': 'jurors' },
            jurors.map((j) => h('div', { class: 'juror' }, h('div', {}, h('strong', {}, j.persona), ' — vote ', h('span', { class: 'vote' }, j.abstained ? 'abstained' : (j.vote ?? '–')), j.vote && j.vote === answer ? h('span', { class: 'tag gold' }, 'gold') : null), h('p', {}, j.reasoning), j.error ? h('div', { class: 'error-text' }, j.error) : null)),
          )
        : h('p', { class: 'muted', 'data-testid': 'no-jury' }, t.panel ? `panel: ${t.panel.join(', ')} (no juror records)` : 'no jurors in this run (offline heuristic: the evidence-score solver decides)'),
      verdict
        ? h(
            'div',
            { class: 'verdict', 'data-testid': 'verdict' },
            h('strong', {}, `Verdict: ${verdict.answer ?? '–'}`),
            ` · confidence ${verdict.confidence}`,
            verdict.tally && Object.keys(verdict.tally).length ? ` · tally ${Object.entries(verdict.tally).map(([k, v]) => `${k}:${v}`).join(' ')}` : '',
            verdict.normalised ? ` · scores ${Object.entries(verdict.normalised as Record<string, number>).map(([k, v]) => `${k}:${v.toFixed(3)}`).join(' ')}` : '',
            verdict.tieBreak ? ` · tie broken by ${verdict.tieBreak.by}` : '',
          )
        : null,
    );
  } catch (e) {
    clear(el, errorBox(e));
  }
}
