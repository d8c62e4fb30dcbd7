/**
 * ACAL trace (and its LegalBench baselines' — standard prompting, chain of thought, single-agent
 * RAG): the decision (σ(claim) against θ, or the judge), a link to the item's argument graph in
 * the argument view, the evidence the arena retrieved, the support and attack teams with the
 * selector's reasons, citations dropped as not retrieved, the relation judgements and the seeded
 * presentation orders — every field under a human label, never a camelCase key.
 */
import { qs } from './api.js';
import { h, pidLink, round, scrollBox } from './dom.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const arr = (v: unknown): any[] => (Array.isArray(v) ? v : []);

const SYSTEM_NAMES: Record<string, string> = {
  acal: 'ACAL arena',
  sp: 'standard prompting (baseline)',
  cot: 'chain of thought (baseline)',
  rag: 'single-agent RAG (baseline)',
};
const DECIDED: Record<string, string> = { threshold: 'the threshold θ on σ(claim)', judge: 'the judge (σ(claim) in the uncertainty band)' };

function teamTable(t: any): HTMLElement {
  const rows = (['support', 'attack'] as const).flatMap((side) =>
    arr(t.teams?.[side]).map((m) => ({ side, role: String(m.role ?? ''), reason: String(m.reason ?? '') })),
  );
  return scrollBox(
    'teams',
    h(
      'table',
      { class: 'runs-table', 'data-testid': 'acal-teams' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ['team', 'role', 'why the selector chose it'].map((x) => h('th', { scope: 'col' }, x)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((r) => h('tr', {}, h('td', {}, r.side === 'support' ? 'support the claim' : 'attack the claim'), h('td', {}, r.role), h('td', {}, r.reason))),
      ),
    ),
  );
}

function judgements(t: any): HTMLElement | null {
  const pj = arr(t.pairJudgements);
  if (!pj.length) return null;
  return h(
    'details',
    { 'data-testid': 'acal-relations' },
    h('summary', {}, `Relation judgements (${pj.length} pairs in ${t.relationCalls ?? '?'} calls)`),
    scrollBox(
      'relation judgements',
      h(
        'table',
        { class: 'runs-table' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['pair', 'the model said', 'confidence', 'kept in the graph'].map((x) => h('th', { scope: 'col' }, x)),
          ),
        ),
        h(
          'tbody',
          {},
          pj.map((p) =>
            h(
              'tr',
              {},
              h('td', { class: 'pid' }, String(p.pair ?? '').replace('~', ' ~ ')),
              h('td', {}, p.relation),
              h('td', { class: 'num' }, round(p.confidence, 2)),
              h('td', {}, p.kept),
            ),
          ),
        ),
      ),
    ),
  );
}

export function acalTrace(t: any, runId: string, item: string, graph: string | null): HTMLElement[] {
  const kind = String(t.system ?? 'acal');
  const evidence = arr(t.evidenceIds).map(String);
  const dropped = arr(t.droppedCitations);
  const orders = arr(t.presentation);
  const out: (HTMLElement | null)[] = [
    h(
      'div',
      { class: 'muted', 'data-testid': 'acal-system' },
      [SYSTEM_NAMES[kind] ?? kind, t.semantics && `${t.semantics} semantics`, typeof t.llmCalls === 'number' && `${t.llmCalls} LLM calls`]
        .filter(Boolean)
        .join(' · '),
    ),
    typeof t.claimStrength === 'number'
      ? h(
          'div',
          { class: 'verdict', 'data-testid': 'acal-decision' },
          h('strong', {}, `σ(claim) = ${round(t.claimStrength, 4)}`),
          ` — decided by ${DECIDED[t.decidedBy] ?? t.decidedBy ?? '?'}${t.judged ? '; the judge was consulted' : ''}; ${t.clashes ?? 0} clash${t.clashes === 1 ? '' : 'es'} resolved`,
        )
      : null,
    graph
      ? h(
          'p',
          {},
          h('a', { href: `#/args?${qs({ run: runId, item: graph })}`, 'data-testid': 'acal-graph-link' }, 'Open the argument graph of this item'),
          h('span', { class: 'muted' }, ' — arguments, strengths, relations; contest it there'),
        )
      : kind === 'acal'
        ? h('p', { class: 'muted' }, 'no argument graph saved for this item')
        : null,
    evidence.length || t.evidenceTool ? h('h3', {}, `Evidence (${evidence.length}${t.evidenceTool ? `, by ${t.evidenceTool}` : ''})`) : null,
    evidence.length
      ? h(
          'ol',
          { class: 'evidence-list', 'data-testid': 'acal-evidence' },
          evidence.map((id) => h('li', {}, pidLink(id))),
        )
      : null,
    t.teams ? h('h3', {}, 'Teams') : null,
    t.teams ? teamTable(t) : null,
    t.teamRolesRepeated
      ? h('p', { class: 'muted' }, `${t.teamRolesRepeated} role(s) named twice by the selector (each makes its team one agent smaller)`)
      : null,
    t.emptyArgumentsDropped
      ? h(
          'p',
          { class: 'muted', 'data-testid': 'acal-empty-arguments' },
          `${t.emptyArgumentsDropped} argument(s) written with empty text, dropped (counted as failed steps)`,
        )
      : null,
    dropped.length
      ? h(
          'details',
          { 'data-testid': 'acal-dropped' },
          h('summary', {}, `Citations dropped: not among the retrieved passages (${dropped.length})`),
          h(
            'ul',
            {},
            dropped.map((d) => h('li', {}, `argument ${d.argument}: `, arr(d.ids).join(', '))),
          ),
        )
      : null,
    judgements(t),
    t.reasoning ? h('h3', {}, 'Reasoning') : null,
    t.reasoning ? h('p', {}, String(t.reasoning)) : null,
    orders.length
      ? h(
          'details',
          {},
          h('summary', {}, `Presentation orders (seeded, ${orders.length})`),
          h(
            'ul',
            {},
            orders.map((o) => h('li', {}, `${o.kind ?? 'order'}${o.at ? ` (${o.at})` : ''}: `, arr(o.order).join(', '))),
          ),
        )
      : null,
  ];
  return out.filter((x): x is HTMLElement => !!x);
}
