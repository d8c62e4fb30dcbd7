/**
 * Traces without an agent: a retrieval run's query with its top 10 (gold marked, scores rounded),
 * a baseline's retrieved context and answer, and any other trace as a key/value table (nested
 * values as indented JSON on demand) — never a wall of raw JSON.
 */
import { clipped, h, pidLink, round, scrollBox } from './dom.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const arr = (v: unknown): any[] => (Array.isArray(v) ? v : []);

function rankedIds(ids: string[], scores: (number | undefined)[], gold: Set<string>, testid: string): HTMLElement {
  return scrollBox(
    'retrieved passages',
    h(
      'table',
      { class: 'runs-table', 'data-testid': testid },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['rank', 'passage', 'score'].map((x) => h('th', { scope: 'col' }, x)),
        ),
      ),
      h(
        'tbody',
        {},
        ids.map((id, i) =>
          h(
            'tr',
            { class: gold.has(id) ? 'gold-row' : '' },
            h('td', { class: 'num' }, i + 1),
            h('td', {}, pidLink(id, { gold: gold.has(id) }), gold.has(id) ? h('span', { class: 'tag gold' }, 'gold') : null),
            h('td', { class: 'num' }, round(scores[i], 3)),
          ),
        ),
      ),
    ),
  );
}

export function retrievalTrace(t: any): HTMLElement[] {
  const gold = new Set<string>(arr(t.goldIds));
  const top = arr(t.top10);
  const found = top.findIndex((x) => gold.has(x.id));
  return [
    h('h3', {}, 'Query'),
    h('p', { class: 'question' }, String(t.query ?? '')),
    h(
      'p',
      { class: 'muted' },
      `gold: `,
      ...arr(t.goldIds).map((id) => pidLink(String(id), { gold: true })),
      found >= 0 ? ` · first gold at rank ${found + 1}` : ' · no gold passage in the top 10',
    ),
    h('h3', {}, `Top ${top.length}`),
    rankedIds(
      top.map((x) => String(x.id)),
      top.map((x) => x.score),
      gold,
      'top-hits',
    ),
  ];
}

/** The query a baseline retrieved with; a long one is shown to 400 characters and says so (the whole in its title). */
function querySnippet(query: string): HTMLElement {
  const q = clipped(query, 400);
  return h(
    'p',
    { class: 'snippet', ...q.attrs },
    `query: ${q.text}${q.cut ? ` (${query.length.toLocaleString('en-US')} characters; the whole query was searched)` : ''}`,
  );
}

export function baselineTrace(t: any, gold: Set<string>): HTMLElement[] {
  const r = t.retrieval ?? null;
  const pool = arr(t.pool);
  return [
    h('div', { class: 'muted' }, [t.system, t.mode, t.k !== undefined ? `k=${t.k}` : null].filter(Boolean).join(' · ')),
    r ? h('h3', {}, `Retrieved context (${r.method ?? '?'})`) : null,
    r ? querySnippet(String(r.query ?? '')) : null,
    r ? rankedIds(arr(r.ids).map(String), arr(r.scores), gold, 'context-hits') : null,
    pool.length ? h('h3', {}, `Evidence pool (${pool.length})`) : null,
    pool.length
      ? rankedIds(
          pool.map((p) => String(p.id)),
          [],
          gold,
          'context-hits',
        )
      : null,
    t.reasoning ? h('h3', {}, 'Reasoning') : null,
    t.reasoning ? h('p', {}, String(t.reasoning)) : null,
    t.answer ? h('div', { class: 'verdict' }, h('strong', {}, `Answer: ${t.answer.answer ?? '–'}`)) : null,
  ].filter((x): x is HTMLElement => !!x);
}

/** A trace field's key as words: "claimStrength" → "claim strength", "top_k" → "top k". */
export const fieldLabel = (k: string): string =>
  k
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();

export function genericTrace(t: any): HTMLElement[] {
  if (!t || typeof t !== 'object') return [h('h3', {}, 'Trace'), h('p', { class: 'muted', 'data-testid': 'raw-trace' }, 'no trace recorded for this item')];
  const entries = Object.entries(t).filter(([k]) => k !== 'runner');
  return [
    h('h3', {}, 'Trace'),
    scrollBox(
      'trace fields',
      h(
        'table',
        { class: 'runs-table', 'data-testid': 'raw-trace' },
        h(
          'tbody',
          {},
          entries.map(([k, v]) =>
            h(
              'tr',
              {},
              h('th', { scope: 'row' }, fieldLabel(k)),
              h(
                'td',
                {},
                v !== null && typeof v === 'object'
                  ? h(
                      'details',
                      {},
                      h('summary', {}, Array.isArray(v) ? `${v.length} entries` : `${Object.keys(v).length} fields`),
                      h(
                        'pre',
                        { class: 'detail', tabindex: 0 },
                        JSON.stringify(v, (_k, x) => (typeof x === 'number' && !Number.isInteger(x) ? Number(x.toFixed(4)) : x), 1),
                      ),
                    )
                  : round(v, 4),
              ),
            ),
          ),
        ),
      ),
    ),
  ];
}
