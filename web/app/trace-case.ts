/**
 * CASE trace: question and options (gold and prediction marked), gold passages, each hypothesis's
 * advocate — tool calls collapsed to one line each (tool, query, k, rank of the first gold passage)
 * with the returned ids on demand — evidence (gold marked; a note cut to the characters the jurors read
 * says so; "no evidence" said), the picks it dropped with why (advocate-picks.ts), an advocate's error
 * with the reply it could not use, jurors and verdict.
 */
import { expandable, fmt, h, pidLink, round, scrollBox } from './dom.js';
import { idList } from './search-view.js';
import { droppedPicks, noteCut } from './advocate-picks.js';

interface ToolCall {
  tool: string;
  query: string;
  ids: string[];
  step: number;
  output?: string;
  error?: string;
}

const short = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1)}…`);

/** One row per call: step, tool, query (shortened; full text on demand), k, gold rank, ids on demand. */
export function toolCallsSummary(calls: ToolCall[], gold: Set<string>, label = 'tool calls'): HTMLElement {
  return scrollBox(
    label,
    h(
      'table',
      { class: 'calls compact', 'data-testid': 'tool-calls' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['step', 'tool', 'query', 'k', 'gold rank', 'ids'].map((x) => h('th', { scope: 'col' }, x)),
        ),
      ),
      h(
        'tbody',
        {},
        calls.map((c) => {
          const ids = Array.isArray(c.ids) ? c.ids : [];
          const r = ids.findIndex((id) => gold.has(id));
          const q = String(c.query ?? '');
          return h(
            'tr',
            { 'data-testid': 'tool-call' },
            h('td', { class: 'num' }, c.step),
            h('td', { class: 'tool-name' }, c.tool),
            h(
              'td',
              { class: 'query' },
              q.length > 90 ? h('details', {}, h('summary', {}, short(q, 90)), q) : q,
              c.output ? h('div', { class: 'muted' }, `→ ${c.output}`) : null,
              c.error ? h('div', { class: 'error-text' }, c.error) : null,
            ),
            h('td', { class: 'num' }, ids.length),
            h('td', { class: r >= 0 ? 'num gold-rank' : 'num muted', 'data-testid': 'gold-rank' }, r >= 0 ? `#${r + 1}` : gold.size ? '–' : ''),
            h(
              'td',
              {},
              ids.length ? h('details', { class: 'ids-toggle' }, h('summary', {}, 'show'), idList(ids, gold)) : h('span', { class: 'muted' }, 'none'),
            ),
          );
        }),
      ),
    ),
  );
}

/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * Why an advocate has no usable selection: its error, and the reply it could not use (`raw`, cut at
 * 2,000 characters by the advocate: a tool call written as text, an empty reply), shown as text.
 */
export function advocateFailure(a: { error?: unknown; raw?: unknown }): (HTMLElement | null)[] {
  const raw = typeof a.raw === 'string' ? a.raw : undefined;
  return [
    a.error ? h('div', { class: 'error', role: 'note', 'data-testid': 'advocate-error' }, String(a.error)) : null,
    raw === undefined
      ? null
      : raw
        ? h(
            'details',
            { class: 'raw-reply', 'data-testid': 'advocate-raw' },
            h('summary', {}, `the reply it could not use (${raw.length.toLocaleString('en-US')} characters)`),
            h('pre', { class: 'detail', tabindex: 0 }, raw),
          )
        : h('p', { class: 'muted', 'data-testid': 'advocate-raw' }, 'its reply was empty'),
  ];
}

/**
 * `metrics`: the item's results.jsonl metrics; its `unresolvedCitations` (evidence cited as no handle
 * the advocate was shown, which report.md counts per item) is said above the advocates.
 */
export function caseTrace(t: any, gold: Set<string>, answer: string | undefined, metrics?: Record<string, unknown> | null): (HTMLElement | null)[] {
  const advocates: any[] = Array.isArray(t.advocates) ? t.advocates : [];
  const jurors: any[] = Array.isArray(t.jurors) ? t.jurors : [];
  const verdict = t.verdict;
  const unresolved = typeof metrics?.unresolvedCitations === 'number' ? metrics.unresolvedCitations : 0;
  return [
    h('h3', {}, `Hypotheses and advocates (${advocates.length})`),
    unresolved
      ? h(
          'p',
          { class: 'muted', role: 'note', 'data-testid': 'unresolved-citations' },
          `${unresolved} evidence citation${unresolved === 1 ? '' : 's'} named no passage handle the advocate was shown (dropped from the evidence; report.md counts ${unresolved === 1 ? 'it' : 'them'})`,
        )
      : null,
    ...advocates.map((a) =>
      h(
        'div',
        { class: `advocate${a.letter && a.letter === answer ? ' for-gold' : ''}`, 'data-testid': 'advocate' },
        h(
          'div',
          { class: 'adv-head' },
          h('strong', {}, a.key),
          a.letter && a.letter !== a.key ? ` (option ${a.letter})` : '',
          ' ',
          a.hypothesis,
          h('span', { class: 'muted' }, ` · ${a.stance} · stop ${a.stop} · ${a.steps} steps${a.tokens ? ` · ${a.tokens} tokens` : ''}`),
        ),
        a.analysis ? h('p', { class: 'analysis' }, a.analysis) : null,
        ...advocateFailure(a),
        toolCallsSummary(a.toolCalls ?? [], gold, `tool calls of advocate ${a.key}`),
        (a.evidence ?? []).length ? null : h('p', { class: 'muted', 'data-testid': 'no-evidence' }, 'no evidence'),
        h(
          'ol',
          { class: 'evidence' },
          (a.evidence ?? []).map((e: { id: string; score: number; justification: string; snippet: string; noteCutFrom?: number }) =>
            h(
              'li',
              { class: gold.has(e.id) ? 'gold' : '', 'data-testid': 'evidence-item' },
              pidLink(e.id, { gold: gold.has(e.id) }),
              gold.has(e.id) ? h('span', { class: 'tag gold' }, 'gold passage') : null,
              ` ${fmt(e.score)} — `,
              h('em', {}, e.justification),
              noteCut(e, t.advocateNoteChars),
              expandable(h('div', { class: 'snippet' }, e.snippet), 2),
            ),
          ),
        ),
        droppedPicks(a, `picks advocate ${a.key} dropped`),
      ),
    ),
    h('h3', {}, 'Jury'),
    jurors.length
      ? h(
          'div',
          { class: 'jurors', 'data-testid': 'jurors' },
          jurors.map((j) =>
            h(
              'div',
              { class: 'juror' },
              h(
                'div',
                {},
                h('strong', {}, j.persona),
                ' — vote ',
                h('span', { class: 'vote' }, j.abstained ? 'abstained' : (j.vote ?? '–')),
                j.vote && j.vote === answer ? h('span', { class: 'tag gold' }, 'gold') : null,
              ),
              h('p', {}, j.reasoning),
              j.error ? h('div', { class: 'error-text' }, j.error) : null,
            ),
          ),
        )
      : h(
          'p',
          { class: 'muted', 'data-testid': 'no-jury' },
          t.panel ? `panel: ${t.panel.join(', ')} (no juror records)` : 'no jurors in this run (offline heuristic: the evidence-score solver decides)',
        ),
    verdict
      ? h(
          'div',
          { class: 'verdict', 'data-testid': 'verdict' },
          h('strong', {}, `Verdict: ${verdict.answer ?? '–'}`),
          ` · confidence ${verdict.confidence}`,
          verdict.tally && Object.keys(verdict.tally).length
            ? ` · tally ${Object.entries(verdict.tally)
                .map(([k, v]) => `${k}: ${round(v, 2)}`)
                .join(' · ')}`
            : '',
          verdict.normalised
            ? ` · scores ${Object.entries(verdict.normalised as Record<string, number>)
                .map(([k, v]) => `${k}: ${round(v, 2)}`)
                .join(' · ')}`
            : '',
          verdict.tieBreak ? ` · tie broken by ${verdict.tieBreak.by}` : '',
        )
      : null,
  ];
}
