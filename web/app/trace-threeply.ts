/**
 * 3-ply trace: the triple's cases with their factor sets (used factors marked), the factors the
 * argument attributes to each case that are not in its set (hallucinated), the three plies, and
 * every agent step (developer drafts, Factor Analyst verdicts, Polisher decisions, TERMINATE).
 */
import { h, scrollBox } from './dom.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const arr = (v: unknown): any[] => (Array.isArray(v) ? v : []);
const PLY_NAMES: Record<string, string> = { plaintiff: "Plaintiff's Argument", defendant: "Defendant's Counterargument", rebuttal: "Plaintiff's Rebuttal" };

export function threeplyTrace(t: any, factors: any[] | null): (HTMLElement | null)[] {
  const plies = (t.plies ?? {}) as Record<string, string>;
  return [
    h('div', { class: 'muted' }, `3-ply · ${t.system ?? '?'} · scenario ${t.mode ?? '?'}`),
    t.abstained
      ? h('div', { class: 'verdict', 'data-testid': 'terminate' }, h('strong', {}, 'TERMINATE'), ` at ${t.terminatedAt ?? '?'} — ${t.reason ?? ''}`)
      : h('div', { class: 'verdict', 'data-testid': 'argued' }, h('strong', {}, 'Argued'), ' (three plies written)'),
    factors
      ? scrollBox(
          'factor table',
          h(
            'table',
            { class: 'factors', 'data-testid': 'factor-table' },
            h(
              'thead',
              {},
              h(
                'tr',
                {},
                ['case', 'outcome', 'factors (used by the argument in bold)', 'hallucinated'].map((x) => h('th', { scope: 'col' }, x)),
              ),
            ),
            h(
              'tbody',
              {},
              factors.map((c) =>
                h(
                  'tr',
                  { 'data-case': c.case },
                  h('td', {}, c.case, c.name ? h('div', { class: 'muted' }, c.name) : null),
                  h('td', {}, c.outcome ?? '–'),
                  h(
                    'td',
                    {},
                    arr(c.factors).map((f) =>
                      h(
                        'span',
                        { class: `factor${f.used ? ' used' : ''}`, 'data-testid': f.used ? 'factor-used' : 'factor', title: f.name },
                        `${f.id} ${f.name}${f.side ? ` (${f.side})` : ''}`,
                      ),
                    ),
                  ),
                  h(
                    'td',
                    {},
                    arr(c.hallucinated).length
                      ? arr(c.hallucinated).map((f) => h('span', { class: 'factor hallucinated', 'data-testid': 'factor-hallucinated' }, `${f.id} ${f.name}`))
                      : h('span', { class: 'muted' }, 'none'),
                  ),
                ),
              ),
            ),
          ),
        )
      : null,
    ...Object.keys(PLY_NAMES)
      .filter((k) => plies[k])
      .map((k) => h('section', { class: 'ply', 'data-testid': 'ply' }, h('h3', {}, PLY_NAMES[k]), h('p', {}, plies[k]))),
    h('h3', {}, 'Agent steps'),
    h(
      'ol',
      { class: 'steps', 'data-testid': 'steps' },
      arr(t.steps).map((s) =>
        h(
          'li',
          { 'data-role': s.role },
          h('strong', {}, s.role),
          s.ply ? ` · ${PLY_NAMES[s.ply] ?? s.ply}` : '',
          typeof s.round === 'number' && s.round > 0 ? ' · revision' : '',
          s.decision
            ? h('span', { class: s.decision === 'VALID_ARGUMENT' || s.decision === 'accept' ? 'flag ok' : 'flag bad', 'data-testid': 'decision' }, s.decision)
            : null,
          h(
            'details',
            {},
            h('summary', {}, 'output'),
            h('pre', { class: 'detail', tabindex: 0 }, typeof s.output === 'string' ? s.output : JSON.stringify(s.output, null, 1)),
          ),
        ),
      ),
    ),
  ];
}
