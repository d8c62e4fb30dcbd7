/** Argument view: an ACAL argument graph with base/effective/final strengths, relations, clash outcomes and the contestation actions; every action goes to POST /api/acal/contest (the library's contest()) and the graph is redrawn from the recomputed result. */
import { api, qs } from './api.js';
import { clear, errorBox, fmt, h, pidLink, scrollBox, viewHeading } from './dom.js';
import { graphSvg, type Graph } from './graph-svg.js';
import { runList } from './run-view.js';

interface Audit {
  revision: number;
  who: string;
  when: string;
  action: Record<string, unknown>;
  claim: { before: { strength: number; verdict: string }; after: { strength: number; verdict: string; escalation: string } };
}
interface GraphReply {
  graph: Graph;
  audit: Audit[];
  compare: { semantics: string; claimStrength: number; thresholdVerdict: string; converged: boolean }[];
  entry?: Audit;
}

export async function renderArgumentView(root: HTMLElement, params: URLSearchParams): Promise<void> {
  const { runs } = await api<{ runs: { id: string; kind: string; graphs: number; items: number; correct: number }[] }>('/api/runs');
  const acalRuns = runs.filter((r) => r.graphs > 0) as any[];
  const runId = params.get('run') ?? acalRuns[0]?.id ?? null;
  const side = h('aside', { 'aria-label': 'ACAL runs' }, h('h2', {}, 'ACAL runs'), runList(acalRuns, runId, 'args'));
  const body = h('section', { class: 'arg-main', 'data-testid': 'argument-view', 'aria-label': 'argument graph' });
  clear(
    root,
    viewHeading(runId ? `Arguments · ${runId}${params.get('item') ? ` · ${params.get('item')}` : ''}` : 'Arguments'),
    h('div', { class: 'arg-view two' }, side, body),
  );
  if (!runId) {
    clear(body, h('div', { class: 'empty' }, 'No argument graphs under --runs (an ACAL run writes <run>/acal/<item>.graph.json).'));
    return;
  }
  let item = params.get('item');
  try {
    const { graphs } = await api(`/api/acal/graphs?${qs({ run: runId })}`);
    item ??= graphs.find((g: { error?: string }) => !g.error)?.itemId ?? null;
    const picker = h(
      'select',
      { 'data-testid': 'graph-picker', onchange: (e: Event) => (location.hash = `#/args?${qs({ run: runId, item: (e.target as HTMLSelectElement).value })}`) },
      graphs.map((g: { itemId: string; verdict?: string; claimStrength?: number; error?: string }) =>
        h('option', { value: g.itemId }, g.error ? `${g.itemId} (unreadable)` : `${g.itemId} · σ ${fmt(g.claimStrength, 3)} → ${g.verdict}`),
      ),
    );
    if (item) picker.value = item;
    const holder = h('div');
    clear(body, h('div', { class: 'graph-pick' }, h('label', {}, 'graph ', picker)), holder);
    if (item) draw(holder, runId, await api<GraphReply>(`/api/acal/graph?${qs({ run: runId, item })}`));
  } catch (e) {
    clear(body, errorBox(e));
  }
}

function draw(el: HTMLElement, runId: string, r: GraphReply, change?: { before: number; after: number; verdictBefore: string; verdictAfter: string }): void {
  const g = r.graph;
  const res = g.result;
  const msg = h('div', { class: 'contest-msg', 'data-testid': 'contest-msg', role: 'status', tabindex: -1 });
  const send = async (action: Record<string, unknown>) => {
    // the control that acted keeps focus across the redraw (or the message, when it is gone or disabled)
    const from = (document.activeElement as HTMLElement | null)?.getAttribute('data-testid');
    clear(msg, 'recomputing…');
    try {
      const out = await api<GraphReply & { entry: Audit }>('/api/acal/contest', { run: runId, item: g.itemId, action });
      const c = out.entry.claim;
      draw(el, runId, out, { before: c.before.strength, after: c.after.strength, verdictBefore: c.before.verdict, verdictAfter: c.after.verdict });
      const again = from ? el.querySelector<HTMLElement>(`[data-testid="${CSS.escape(from)}"]`) : null;
      const target = again && !(again as HTMLButtonElement).disabled ? again : el.querySelector<HTMLElement>('[data-testid=contest-msg]');
      target?.focus({ preventScroll: !!again });
    } catch (e) {
      clear(msg, errorBox(e));
    }
  };
  const pick = (id: string) => document.querySelector(`[data-arg-row="${CSS.escape(id)}"]`)?.scrollIntoView({ block: 'center', behavior: 'smooth' });
  if (change)
    msg.append(`revision ${g.revision}: σ(claim) ${fmt(change.before)} → ${fmt(change.after)}; verdict ${change.verdictBefore} → ${change.verdictAfter}`);

  const argRows = g.arguments.map((a) => {
    const base = h('input', {
      type: 'number',
      min: 0,
      max: 1,
      step: 0.05,
      value: String(a.humanBase ?? a.baseStrength),
      class: 'base-input',
      'data-testid': `base-${a.id}`,
      'aria-label': `base strength τ of ${a.id}`,
    });
    const eff = res.effectiveBase[a.id];
    const delta = res.clashDelta[a.id];
    return h(
      'tr',
      { class: `${a.side} ${a.status}`, 'data-arg-row': a.id, 'data-testid': `arg-row-${a.id}` },
      h('td', { class: 'pid', 'data-label': 'id' }, a.id),
      h(
        'td',
        { 'data-label': 'argument' },
        h('div', {}, a.text),
        h(
          'div',
          { class: 'muted' },
          `${a.agent} · ${a.origin}${a.citedPassageIds.length ? ' · cites ' : ''}`,
          a.citedPassageIds.flatMap((id, i) => [i ? ', ' : '', pidLink(id)]),
        ),
      ),
      h('td', { 'data-label': 'side' }, a.side),
      h('td', { 'data-label': 'status' }, a.status),
      h(
        'td',
        { class: 'num', 'data-label': 'τ base' },
        fmt(a.baseStrength, 2),
        a.humanBase !== undefined ? h('div', { class: 'muted' }, `human ${fmt(a.humanBase, 2)}`) : null,
      ),
      h(
        'td',
        { class: 'num', 'data-label': 'τ effective' },
        eff === undefined ? '–' : fmt(eff, 3),
        delta ? h('div', { class: 'muted' }, `clash ${delta > 0 ? '+' : ''}${fmt(delta, 3)}`) : null,
      ),
      h('td', { class: 'num', 'data-testid': `sigma-${a.id}`, 'data-label': 'σ final' }, a.status === 'rejected' ? '–' : fmt(res.strengths[a.id], 4)),
      h(
        'td',
        { class: 'actions', 'data-label': 'contest' },
        h(
          'button',
          {
            type: 'button',
            'data-testid': `accept-${a.id}`,
            'aria-label': `accept ${a.id}`,
            disabled: a.status === 'accepted',
            onclick: () => void send({ type: 'accept', argument: a.id }),
          },
          'accept',
        ),
        h(
          'button',
          {
            type: 'button',
            'data-testid': `reject-${a.id}`,
            'aria-label': `reject ${a.id}`,
            disabled: a.status === 'rejected',
            onclick: () => void send({ type: 'reject', argument: a.id }),
          },
          'reject',
        ),
        h(
          'button',
          {
            type: 'button',
            'data-testid': `edit-${a.id}`,
            'aria-label': `edit the text of ${a.id}`,
            onclick: () => {
              const text = prompt(`Edit the text of ${a.id}`, a.text);
              if (text && text !== a.text) void send({ type: 'edit', argument: a.id, text });
            },
          },
          'edit',
        ),
        h(
          'button',
          {
            type: 'button',
            'data-testid': `flip-${a.id}`,
            'aria-label': `flip side of ${a.id}`,
            onclick: () => void send({ type: 'edit', argument: a.id, side: a.side === 'support' ? 'attack' : 'support' }),
          },
          'flip side',
        ),
        h(
          'span',
          { class: 'base-set' },
          base,
          h(
            'button',
            {
              type: 'button',
              'data-testid': `set-base-${a.id}`,
              'aria-label': `set τ of ${a.id}`,
              onclick: () => void send({ type: 'set-base', argument: a.id, base: Number(base.value) }),
            },
            'set τ',
          ),
        ),
      ),
    );
  });

  const ids = g.arguments.map((a) => a.id);
  const sel = (tid: string, label: string, opts: string[]) =>
    h(
      'select',
      { 'data-testid': tid, 'aria-label': label },
      opts.map((o) => h('option', { value: o }, o)),
    );
  const addSide = sel('add-side', 'side of the new argument', ['support', 'attack']);
  const addText = h('input', {
    type: 'text',
    placeholder: 'argument text',
    'data-testid': 'add-text',
    class: 'wide',
    'aria-label': 'text of the new argument',
  });
  const addBase = h('input', { type: 'number', min: 0, max: 1, step: 0.05, value: '0.6', 'data-testid': 'add-base' });
  const addRel = h('input', {
    type: 'text',
    placeholder: 'relations, e.g. attack:s2 support:a1',
    'data-testid': 'add-relate',
    'aria-label': 'relations of the new argument, e.g. attack:s2 support:a1',
  });
  const relFrom = sel('rel-from', 'relation from', ids);
  const relTo = sel('rel-to', 'relation to', ids.slice(1).concat(ids.slice(0, 1)));
  const relKind = sel('rel-kind', 'relation kind', ['attack', 'support', 'none']);
  const relDirected = h('input', { type: 'checkbox', 'data-testid': 'rel-directed' });
  const parseRel = (spec: string) =>
    spec
      .split(/[\s,]+/)
      .filter(Boolean)
      .map((x) => {
        const [kind, to] = x.split(':');
        return { kind, to };
      });

  const prevScroll = el.querySelector<HTMLElement>('[data-testid=graph-wrap]')?.scrollLeft;
  const wrap = h(
    'div',
    { class: 'svg-wrap', tabindex: 0, role: 'region', 'aria-label': 'argument graph (scrolls sideways on a narrow screen)', 'data-testid': 'graph-wrap' },
    graphSvg(g, pick),
  );
  clear(
    el,
    h(
      'div',
      { class: `claim-box ${res.verdict === 'Yes' ? 'yes' : 'no'}` },
      h(
        'div',
        { class: 'muted' },
        `${g.itemId}${g.task ? ` · ${g.task}` : ''} · revision ${g.revision} · ${res.semantics}, θ=${g.settings.threshold}, band [${g.settings.band.join(', ')}]`,
      ),
      h('div', { class: 'claim-text' }, g.claim.text),
      h('div', { class: 'case-text' }, g.caseText),
      h(
        'div',
        { class: 'claim-strength' },
        'σ(claim) = ',
        h('strong', { 'data-testid': 'claim-strength' }, fmt(res.claimStrength)),
        ' → ',
        h('strong', { 'data-testid': 'verdict' }, res.verdict),
        ` (${res.decidedBy}${res.escalation === 'needed' ? '; in the uncertainty band: escalation needed' : ''})`,
      ),
    ),
    msg,
    wrap,
    scrollBox(
      'arguments',
      h(
        'table',
        { class: 'args', 'data-testid': 'arguments' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['id', 'argument', 'side', 'status', 'τ base', 'τ effective', 'σ final', 'contest'].map((x) => h('th', { scope: 'col' }, x)),
          ),
        ),
        h('tbody', {}, argRows),
      ),
    ),
    h(
      'div',
      { class: 'forms' },
      h(
        'fieldset',
        {},
        h('legend', {}, 'add an argument'),
        addSide,
        addText,
        h('label', {}, ' τ ', addBase),
        addRel,
        h(
          'button',
          {
            type: 'button',
            'data-testid': 'add-go',
            onclick: () => void send({ type: 'add', side: addSide.value, text: addText.value, base: Number(addBase.value), relations: parseRel(addRel.value) }),
          },
          'add',
        ),
      ),
      h(
        'fieldset',
        {},
        h('legend', {}, 'change a relation'),
        relFrom,
        relKind,
        relTo,
        h('label', {}, relDirected, ' one direction only'),
        h(
          'button',
          {
            type: 'button',
            'data-testid': 'rel-go',
            onclick: () => void send({ type: 'set-relation', from: relFrom.value, to: relTo.value, kind: relKind.value, bidirectional: !relDirected.checked }),
          },
          'set',
        ),
      ),
    ),
    h('h3', {}, `Relations (${g.relations.length})`),
    h(
      'div',
      { class: 'relations' },
      g.relations.map((x) =>
        h('span', { class: `rel-chip ${x.kind}` }, `${x.from} ${x.kind === 'support' ? '+' : '−'}→ ${x.to} (${fmt(x.confidence, 2)}, ${x.origin})`),
      ),
    ),
    h('h3', {}, `Clash resolution (${g.clash.outcomes.length})`),
    g.clash.outcomes.length
      ? h(
          'ul',
          { class: 'clash' },
          g.clash.outcomes.map((o) =>
            h(
              'li',
              {},
              `${o.support} vs ${o.attack}: winner ${o.winner}`,
              o.reason ? h('span', { class: 'muted' }, ` — ${o.reason}`) : null,
              ` (Δτ ${o.support}: ${fmt(res.clashDelta[o.support] ?? 0, 3)}, ${o.attack}: ${fmt(res.clashDelta[o.attack] ?? 0, 3)})`,
            ),
          ),
        )
      : h('p', { class: 'muted' }, 'no clashes resolved'),
    h('h3', {}, 'Semantics'),
    h(
      'table',
      { class: 'semantics' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['semantics', 'σ(claim)', 'threshold verdict', 'converged'].map((x) => h('th', { scope: 'col' }, x)),
        ),
      ),
      h(
        'tbody',
        {},
        r.compare.map((c) =>
          h(
            'tr',
            { class: c.semantics === res.semantics ? 'active' : '' },
            h('td', {}, c.semantics),
            h('td', { class: 'num' }, fmt(c.claimStrength)),
            h('td', {}, c.thresholdVerdict),
            h('td', {}, c.converged ? 'yes' : 'not converged'),
          ),
        ),
      ),
    ),
    h('h3', {}, `Audit log (${r.audit.length})`),
    h(
      'ol',
      { class: 'audit', 'data-testid': 'audit' },
      r.audit.map((e) =>
        h(
          'li',
          {},
          `r${e.revision} ${e.when} ${e.who}: `,
          h('code', {}, JSON.stringify(e.action)),
          ` — σ(claim) ${fmt(e.claim.before.strength)} → ${fmt(e.claim.after.strength)} (${e.claim.before.verdict} → ${e.claim.after.verdict})`,
        ),
      ),
    ),
  );
  // the claim sits at the top centre of the drawing: on a screen narrower than the graph, open it
  // scrolled so the claim is in view, centred (a redraw after a contest keeps the reader's scroll)
  wrap.scrollLeft = prevScroll ?? Math.max(0, (wrap.scrollWidth - wrap.clientWidth) / 2);
}
