/**
 * EMAR trace: the extracted facts, the proponent's initial argument, then per depth the opponent's
 * critique and the proponent's response with the claims' similarity (and the distance 1 − s to the
 * convergence threshold), the stop reason, and the judge's established facts, answer and rationale.
 */
import { h, scrollBox } from './dom.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const arr = (v: unknown): any[] => (Array.isArray(v) ? v : []);

function claimBox(role: string, c: any, answer: string | undefined): HTMLElement {
  return h(
    'div',
    { class: `brief${c?.answer === answer ? ' for-gold' : ''}`, 'data-testid': `emar-${role.toLowerCase()}` },
    h(
      'div',
      { class: 'adv-head' },
      h('strong', {}, role),
      ` · option ${c?.answer ?? '–'}`,
      c?.answer === answer ? h('span', { class: 'tag gold' }, 'gold') : null,
    ),
    h('p', {}, h('em', {}, 'Claim: '), c?.claim ?? ''),
    c?.argument
      ? h(
          'details',
          {},
          h('summary', {}, 'argument'),
          h('p', {}, c.argument),
          arr(c.evidence).length
            ? h(
                'ul',
                {},
                arr(c.evidence).map((e) => h('li', {}, e)),
              )
            : null,
        )
      : null,
  );
}

export function emarTrace(t: any, answer: string | undefined): (HTMLElement | null)[] {
  const eps = typeof t.epsilon === 'number' ? t.epsilon : 0.85;
  const rounds = arr(t.rounds);
  return [
    h(
      'div',
      { class: 'muted' },
      `EMAR · embedder ${t.embedder ?? '?'} · convergence at similarity ≥ ${eps} · max depth ${t.maxDepth ?? '?'} · stopped: ${t.stop ?? '?'}`,
    ),
    arr(t.facts).length
      ? h(
          'details',
          { open: true },
          h('summary', {}, `Facts (${arr(t.facts).length})`),
          h(
            'ul',
            {},
            arr(t.facts).map((f) => h('li', {}, f)),
          ),
        )
      : null,
    h('h3', {}, 'Argument (depth 0)'),
    claimBox('Proponent', t.initial, answer),
    scrollBox(
      'convergence',
      h(
        'table',
        { class: 'convergence', 'data-testid': 'convergence' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['depth', 'opponent', 'proponent', 'similarity', 'distance to ε'].map((x) => h('th', { scope: 'col' }, x)),
          ),
        ),
        h(
          'tbody',
          {},
          rounds.map((r) =>
            h(
              'tr',
              {},
              h('td', { class: 'num' }, r.epoch),
              h('td', {}, r.opponent?.answer ?? '–'),
              h('td', {}, r.proponent?.answer ?? '–'),
              h('td', { class: 'num' }, typeof r.similarity === 'number' ? r.similarity.toFixed(3) : '–'),
              h('td', { class: 'num' }, typeof r.similarity === 'number' ? (r.similarity >= eps ? 'converged' : (eps - r.similarity).toFixed(3)) : '–'),
            ),
          ),
        ),
      ),
    ),
    ...rounds.map((r) =>
      h(
        'section',
        { class: 'round', 'data-testid': 'emar-round', 'data-depth': r.epoch },
        h('h3', {}, `Depth ${r.epoch}: critique → response`),
        h('div', { class: 'briefs two-col' }, claimBox('Opponent', r.opponent, answer), claimBox('Proponent', r.proponent, answer)),
      ),
    ),
    t.judge
      ? h(
          'div',
          { class: 'verdict', 'data-testid': 'verdict' },
          h('strong', {}, `Judge: ${t.judge.answer ?? '–'}`),
          h('p', {}, t.judge.rationale ?? ''),
          arr(t.judge.established_facts).length ? h('div', { class: 'muted' }, `established facts: ${arr(t.judge.established_facts).join('; ')}`) : null,
        )
      : null,
  ];
}
