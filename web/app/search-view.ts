/** Search view: query an index (bm25 / qld / dense / hybrid), see matched terms and the per-term score explanation; or run one advocate for a typed hypothesis. */
import { api, qs, type Info } from './api.js';
import { relevantIds, relevantParam } from './relevant-param.js';
import { clear, errorBox, expandable, fmt, h, pidLink, round, scrollBox, viewHeading } from './dom.js';
import { droppedPicks, noteCut } from './advocate-picks.js';

type Segment = [string, string | null];
interface Term {
  term: string;
  qtf: number;
  tf: number;
  df: number;
  score: number;
}
interface Explanation {
  score: number;
  base?: number;
  terms: Term[];
  detail?: Record<string, unknown>;
}
interface Hit {
  rank: number;
  id: string;
  score: number;
  title?: string;
  source?: string;
  segments: Segment[];
  truncated: boolean;
}
interface ToolCall {
  tool: string;
  query: string;
  ids: string[];
  step: number;
  output?: string;
  error?: string;
}

export function passage(segments: Segment[], truncated = false): HTMLElement {
  return expandable(
    h(
      'p',
      { class: 'passage' },
      segments.map(([t, term]) => (term ? h('mark', { title: `index term: ${term}` }, t) : t)),
      truncated ? ' …' : '',
    ),
  );
}

interface Component {
  rank?: number;
  score?: number;
  normalized?: number;
  contribution?: number;
}

/**
 * Scalar parameters (k1, b, dl, fusion, rrfK, …) on one line; a hybrid's fusion components as a
 * table — per method its rank, score, normalised score and contribution to the fused score, rounded.
 */
export function detailView(d: Record<string, unknown>): HTMLElement {
  const show = (v: unknown): string =>
    v === null || v === undefined
      ? '–'
      : typeof v === 'number'
        ? round(v, 4)
        : Array.isArray(v)
          ? v.map(show).join(', ')
          : typeof v === 'object'
            ? Object.entries(v as Record<string, unknown>)
                .map(([k, x]) => `${k} ${show(x)}`)
                .join(', ')
            : String(v);
  const { components, ...params } = d as { components?: Record<string, Component> } & Record<string, unknown>;
  const line = h(
    'div',
    { class: 'detail-line muted' },
    Object.entries(params)
      .filter(([, v]) => v !== undefined && !(v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0))
      .map(([k, v]) => `${k} ${show(v)}`)
      .join(' · '),
  );
  if (!components || typeof components !== 'object') return line;
  const rows = Object.entries(components);
  const total = rows.reduce((s, [, c]) => s + (typeof c.contribution === 'number' ? c.contribution : 0), 0);
  const hasNorm = rows.some(([, c]) => typeof c.normalized === 'number');
  return h(
    'div',
    {},
    line,
    scrollBox(
      'fusion components',
      h(
        'table',
        { class: 'components', 'data-testid': 'hybrid-components' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['component', 'rank', 'score', ...(hasNorm ? ['normalised'] : []), 'contribution', 'share'].map((x) => h('th', { scope: 'col' }, x)),
          ),
        ),
        h(
          'tbody',
          {},
          rows.map(([m, c]) =>
            h(
              'tr',
              { 'data-component': m },
              h('td', {}, m),
              h('td', { class: 'num' }, c.rank ?? '–'),
              h('td', { class: 'num' }, round(c.score, 3)),
              hasNorm ? h('td', { class: 'num' }, round(c.normalized, 3)) : null,
              h('td', { class: 'num' }, round(c.contribution, 4)),
              h('td', { class: 'num' }, total > 0 && typeof c.contribution === 'number' ? `${Math.round((100 * c.contribution) / total)}%` : '–'),
            ),
          ),
          h(
            'tr',
            {},
            h('td', {}, 'fused'),
            h('td', { class: 'num' }, String(params.fusedRank ?? '–')),
            h('td', {}),
            hasNorm ? h('td', {}) : null,
            h('td', { class: 'num' }, round(total, 4)),
            h('td', { class: 'num' }, total > 0 ? '100%' : '–'),
          ),
        ),
      ),
    ),
  );
}

/** The per-term table and detail line of one explanation. */
function explanationBody(e: Explanation): (HTMLElement | null)[] {
  const rows = [...e.terms].sort((a, b) => b.score - a.score);
  return [
    rows.length
      ? h(
          'table',
          { class: 'terms' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ['term', 'score', 'tf', 'df', 'qtf'].map((x) => h('th', { scope: 'col' }, x)),
            ),
          ),
          h(
            'tbody',
            {},
            rows.map((t) =>
              h(
                'tr',
                { class: t.tf > 0 ? 'matched' : 'unmatched' },
                h('td', {}, t.term),
                h('td', { class: 'num' }, fmt(t.score)),
                h('td', { class: 'num' }, t.tf),
                h('td', { class: 'num' }, t.df),
                h('td', { class: 'num' }, t.qtf),
              ),
            ),
            e.base !== undefined
              ? h('tr', {}, h('td', {}, '(base)'), h('td', { class: 'num' }, fmt(e.base)), h('td', { colspan: 3 }, 'shared by every document'))
              : null,
          ),
        )
      : null,
    e.detail ? detailView(e.detail) : null,
  ];
}

/**
 * A hit's score explanation, fetched from /api/explain the first time it is opened (the search
 * itself returns no explanations: explaining every hit would hold the server for each search).
 */
function explanationToggle(query: string, method: string, hit: Hit): HTMLElement {
  const summary = h('summary', {}, `score explanation (${fmt(hit.score)})`);
  const body = h('div', { class: 'explain-body' });
  const box = h('details', { class: 'explain', 'data-testid': 'explain' }, summary, body) as HTMLDetailsElement;
  let loaded = false;
  box.addEventListener('toggle', () => {
    if (!box.open || loaded) return;
    loaded = true;
    clear(body, h('div', { class: 'muted' }, 'loading…'));
    api<{ explanation: Explanation }>(`/api/explain?${qs({ q: query, method, id: hit.id })}`).then(
      (r) => clear(body, ...explanationBody(r.explanation)),
      (e) => {
        loaded = false; // closing and opening again retries
        clear(body, errorBox(e));
      },
    );
  });
  return box;
}

const SHOWN_IDS = 12;
const pidChip = (id: string, gold: Set<string>, rank: number) =>
  pidLink(id, { gold: gold.has(id), title: `rank ${rank}${gold.has(id) ? ' · gold passage' : ''} — open the passage` });

/** Returned ids: the first dozen (and any gold id, wherever it ranks), the rest behind "+N more". */
export function idList(ids: string[], gold: Set<string>): HTMLElement {
  if (ids.length === 0) return h('span', { class: 'muted' }, 'none');
  const head = ids.slice(0, SHOWN_IDS).map((id, i) => pidChip(id, gold, i + 1));
  const rest = ids.slice(SHOWN_IDS);
  const restGold = rest.map((id, i) => [id, i + SHOWN_IDS + 1] as const).filter(([id]) => gold.has(id));
  return h(
    'div',
    { class: 'idwrap' },
    head,
    restGold.map(([id, r]) => pidChip(id, gold, r)),
    rest.length
      ? h(
          'details',
          { class: 'more-ids' },
          h('summary', {}, `+${rest.length} more`),
          h(
            'div',
            { class: 'idwrap' },
            rest.map((id, i) => pidChip(id, gold, i + SHOWN_IDS + 1)),
          ),
        )
      : null,
  );
}

export function toolCallsTable(calls: ToolCall[], gold: Set<string> = new Set()): HTMLElement {
  return scrollBox(
    'tool calls',
    h(
      'table',
      { class: 'calls', 'data-testid': 'tool-calls' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['step', 'tool', 'query', 'returned ids'].map((x) => h('th', { scope: 'col' }, x)),
        ),
      ),
      h(
        'tbody',
        {},
        calls.map((c) =>
          h(
            'tr',
            {},
            h('td', { class: 'num' }, c.step),
            h('td', { class: 'tool-name' }, c.tool),
            h(
              'td',
              { class: 'query' },
              c.query.length > 260 ? h('details', {}, h('summary', {}, `${c.query.slice(0, 200)}…`), c.query) : c.query,
              c.output ? h('div', { class: 'muted' }, `→ ${c.output}`) : null,
              c.error ? h('div', { class: 'error-text' }, c.error) : null,
            ),
            h('td', { class: 'ids' }, idList(c.ids, gold)),
          ),
        ),
      ),
    ),
  );
}

/** A line above the results saying how they were limited (a query cut to the dense model's tokens, fewer passages than k). */
const searchNote = (testId: string, text: string) => h('p', { class: 'search-note', 'data-testid': testId, role: 'status' }, text);

export async function renderSearchView(root: HTMLElement, info: Info, params: URLSearchParams): Promise<void> {
  if (!info.index) {
    clear(
      root,
      viewHeading('Search'),
      h('div', { class: 'empty' }, 'This server was started without --index: start it with `lexcase serve --index DIR` to search.'),
    );
    return;
  }
  const methods = info.index.methods;
  const mode = params.get('mode') === 'evidence' ? 'evidence' : 'search';
  const q = h('input', {
    type: 'search',
    id: 'q',
    name: 'q',
    'data-testid': 'query',
    placeholder: mode === 'search' ? 'query, e.g. hearsay statement offered for the truth' : 'hypothesis, e.g. The statement is inadmissible hearsay',
    value: params.get('q') ?? '',
    autofocus: true,
    'aria-label': mode === 'search' ? 'query' : 'hypothesis',
  });
  const method = h(
    'select',
    { id: 'method', 'data-testid': 'method' },
    methods.map((m) => h('option', { value: m }, m)),
  );
  method.value = params.get('method') && methods.includes(params.get('method')!) ? params.get('method')! : methods[0];
  const k = h('input', {
    type: 'number',
    id: 'k',
    min: 1,
    max: 100,
    value: params.get('k') ?? String(mode === 'search' ? info.defaults.searchK : info.defaults.evidenceK),
    'data-testid': 'k',
  });
  const facts = h('textarea', {
    id: 'facts',
    rows: 3,
    placeholder: 'facts of the case (optional)',
    'data-testid': 'facts',
    'aria-label': 'facts of the case (optional)',
  });
  // arriving from a retrieval-evaluation row: that topic's relevant passages are marked among the hits
  const relevant = new Set(relevantIds(params));
  facts.value = params.get('facts') ?? '';
  const against = h('input', { type: 'checkbox', id: 'against' });
  const advocate = h(
    'select',
    { id: 'advocate', 'data-testid': 'advocate' },
    h('option', { value: 'offline' }, 'offline heuristic'),
    info.llm.available ? h('option', { value: 'llm' }, `LLM advocate (${info.llm.label})`) : null,
  );
  const results = h('section', { id: 'results', 'data-testid': 'results', 'aria-label': 'results' });
  // a screen reader hears how many results came (the results themselves are not a live region: too long to read out)
  const announce = h('p', { class: 'visually-hidden', role: 'status', 'aria-live': 'polite', 'data-testid': 'search-announce' });
  const modeSwitch = h(
    'nav',
    { class: 'modes', 'aria-label': 'search mode' },
    h('a', { href: '#/search', class: mode === 'search' ? 'active' : '', 'data-testid': 'mode-search' }, 'Search'),
    h('a', { href: '#/search?mode=evidence', class: mode === 'evidence' ? 'active' : '', 'data-testid': 'mode-evidence' }, 'Evidence for hypothesis'),
  );
  const submit = h('button', { type: 'submit', 'data-testid': 'go' }, mode === 'search' ? 'Search' : 'Find evidence');
  const form = h(
    'form',
    { class: 'searchbar' },
    q,
    mode === 'search' ? h('label', {}, 'method ', method) : h('label', {}, 'advocate ', advocate),
    h('label', {}, 'k ', k),
    submit,
    mode === 'evidence' ? h('div', { class: 'evidence-extra' }, facts, h('label', {}, against, ' counter-evidence (against)')) : null,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void run();
  });

  async function run(): Promise<void> {
    clear(results, h('div', { class: 'muted' }, mode === 'search' ? 'searching…' : 'the advocate is searching…'));
    submit.disabled = true;
    try {
      if (mode === 'search') {
        const r = await api(`/api/search?${qs({ q: q.value, method: method.value, k: k.value })}`);
        announce.textContent = `${r.hits.length} hits for "${q.value}" (${r.method})`;
        const sameQuery = q.value === (params.get('q') ?? '');
        if (!sameQuery) relevant.clear(); // the marks belong to the eval row's query only
        history.replaceState(null, '', `#/search?${qs({ q: q.value, method: method.value, k: k.value, rel: relevantParam(relevant) })}`);
        const relHits = (r.hits as Hit[]).filter((x) => relevant.has(x.id)).length;
        clear(
          results,
          h(
            'div',
            { class: 'summary', 'data-testid': 'summary' },
            `${r.hits.length} hits · ${r.method} · ${fmt(r.ms, 1)} ms · query terms: `,
            r.queryTerms.map((t: string) => h('code', {}, t)).flatMap((c: Node) => [c, ' ']),
          ),
          // the query is longer than the dense model reads: these hits ranked its start only
          r.queryCut ? searchNote('query-cut', `Query cut: ${r.queryCut}.`) : null,
          // the query was embedded by another endpoint or model folder than the passages: these scores mean little
          r.querySource ? searchNote('query-source', `Other query embedder: ${r.querySource}.`) : null,
          relevant.size
            ? h(
                'div',
                { class: 'summary', 'data-testid': 'relevant-summary', role: 'status' },
                `${relHits} of the topic's ${relevant.size} relevant passage${relevant.size === 1 ? '' : 's'} in these ${r.hits.length} hits (marked relevant)`,
              )
            : null,
          r.hits.length === 0 ? h('div', { class: 'empty' }, 'No hits (all query terms unknown or stopwords?).') : null,
          h(
            'ol',
            { class: 'hits' },
            (r.hits as Hit[]).map((hit) =>
              h(
                'li',
                {
                  class: `hit${relevant.has(hit.id) ? ' relevant' : ''}`,
                  'data-testid': 'hit',
                  'data-id': hit.id,
                  'data-relevant': relevant.has(hit.id) ? 'true' : null,
                },
                h(
                  'div',
                  { class: 'hit-head' },
                  h('span', { class: 'rank' }, `#${hit.rank}`),
                  pidLink(hit.id, { relevant: relevant.has(hit.id) }),
                  relevant.has(hit.id) ? h('span', { class: 'tag relevant' }, 'relevant') : null,
                  hit.title ? h('span', { class: 'title' }, hit.title) : null,
                  h('span', { class: 'score' }, fmt(hit.score)),
                ),
                passage(hit.segments, hit.truncated),
                r.explainable ? explanationToggle(r.query, r.method, hit) : null,
              ),
            ),
          ),
        );
      } else {
        const r = await api('/api/evidence', { hypothesis: q.value, facts: facts.value, against: against.checked, k: Number(k.value), mode: advocate.value });
        clear(
          results,
          h(
            'div',
            { class: 'summary', 'data-testid': 'summary' },
            `${r.stance === 'for' ? 'Evidence for' : 'Counter-evidence to'}: `,
            h('strong', {}, r.hypothesis),
            ` · ${r.mode} · stop: ${r.stop}${r.tokens ? ` · ${r.tokens} tokens` : ''}`,
          ),
          r.analysis ? h('p', { class: 'analysis' }, r.analysis) : null,
          r.error ? errorBox(r.error) : null,
          // some of the advocate's dense searches were longer than the model reads; fewer passages than k
          r.queryCut ? searchNote('query-cut', `Query cut: ${r.queryCut}.`) : null,
          r.shortfall ? searchNote('shortfall', r.shortfall.reason) : null,
          // replies an earlier ask got, served again from the response cache, and who wrote them
          r.fromCache ? searchNote('from-cache', `${r.fromCache}.`) : null,
          // the LLM server described the model otherwise than before, while this search ran (another model behind the name?)
          r.serverChanged ? searchNote('server-changed', `${r.serverChanged}.`) : null,
          h(
            'ol',
            { class: 'hits' },
            r.evidence.map((e: { id: string; score: number; justification: string; noteCutFrom?: number; segments: Segment[]; truncated: boolean }) =>
              h(
                'li',
                { class: 'hit', 'data-testid': 'evidence', 'data-id': e.id },
                h('div', { class: 'hit-head' }, pidLink(e.id), h('span', { class: 'score' }, fmt(e.score))),
                h('div', { class: 'justification' }, e.justification, noteCut(e)),
                passage(e.segments, e.truncated),
              ),
            ),
          ),
          droppedPicks(r, 'picks the advocate dropped'),
          h('h3', {}, `Tool calls (${r.toolCalls.length})`),
          toolCallsTable(r.toolCalls),
        );
        announce.textContent = `${r.evidence.length} evidence passages found`;
      }
    } catch (e) {
      clear(results, errorBox(e));
      announce.textContent = 'the search failed';
    } finally {
      submit.disabled = false;
    }
  }

  clear(
    root,
    h(
      'div',
      { class: 'search-view', 'data-testid': 'search-view' },
      viewHeading(mode === 'search' ? 'Search' : 'Evidence for a hypothesis'),
      modeSwitch,
      form,
      announce,
      results,
    ),
  );
  if (q.value) await run();
}
