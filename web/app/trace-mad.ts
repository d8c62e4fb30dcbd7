/**
 * MAD trace: settings (topology, rounds, cross-examiner), the Round-0 evidence pool, each round's
 * debaters side by side (who they saw, argument, rebuttal, claims with their citations and the
 * exists / seen / supportive flags, the snippet requested, the requests refused with the reason), the
 * cross-examination, the verdict after each round, and the judge (verdict, rationale, checklist,
 * citations it calls unsupported). A pool passage or requested snippet the prompts did not show whole
 * says how, in words: cut (`cutFrom`) or shown as its search snippet (`fromSnippet`).
 */
import { clipped, h, pidLink } from './dom.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
const flag = (ok: boolean, yes: string, no: string) => h('span', { class: ok ? 'flag ok' : 'flag bad' }, ok ? `✓ ${yes}` : `✗ ${no}`);
const arr = (v: unknown): any[] => (Array.isArray(v) ? v : []);

function brief(b: any, gold: Set<string>, answer: string | undefined): HTMLElement {
  return h(
    'div',
    {
      class: `brief${b.letter === answer ? ' for-gold' : ''}${b.error ? ' forfeit' : ''}`,
      'data-testid': 'brief',
      'data-letter': b.letter,
      'data-round': b.round,
    },
    h(
      'div',
      { class: 'adv-head' },
      h('strong', {}, `Debater ${b.letter}`),
      ` · ${b.kind}`,
      arr(b.saw).length ? h('span', { class: 'muted' }, ` · saw ${arr(b.saw).join(', ')}`) : null,
    ),
    b.error ? h('div', { class: 'error' }, `forfeit: ${b.error}`) : null,
    b.rebuttal ? h('p', { class: 'rebuttal' }, h('em', {}, 'Rebuttal: '), b.rebuttal) : null,
    b.argument ? h('p', {}, b.argument) : null,
    arr(b.citations).length
      ? h(
          'ul',
          { class: 'citations', 'data-testid': 'citations' },
          arr(b.citations).map((c) =>
            h(
              'li',
              { 'data-testid': 'citation', 'data-supportive': String(!!c.supportive) },
              // a citation that named no passage handle shown is what the model wrote, never a passage (not linked, never gold)
              c.unresolved ? h('code', {}, String(c.id)) : pidLink(c.id, { gold: gold.has(c.id) }),
              ' ',
              c.unresolved ? h('span', { class: 'muted' }, '(named no passage handle shown) ') : null,
              flag(!!c.exists, 'exists', 'not in index'),
              ' ',
              flag(!!c.seen, 'seen', 'unseen'),
              ' ',
              flag(!!c.supportive, `supportive (${Math.round(100 * (c.overlap ?? 0))}%)`, 'unsupported'),
              h('div', { class: 'snippet' }, c.claim),
            ),
          ),
        )
      : null,
    b.request
      ? h(
          'div',
          { class: 'muted' },
          `requested: ${b.request.tool} "${b.request.query}" → ${arr(b.request.ids).join(', ') || 'nothing'}`,
          shownAs(b.request, b.request.passageChars),
        )
      : null,
    neverRan(b),
  );
}

/** The snippet requests of a turn that never ran: refused ones with the reason, and tool calls with malformed arguments. */
function neverRan(b: any): HTMLElement | null {
  const items = [
    ...arr(b.refused).map((r) => `refused request: ${r.name ?? '?'} — ${r.reason ?? 'no reason recorded'}`),
    ...arr(b.invalidToolCalls).map((c) => `malformed tool call, never run: ${c.name ?? '?'}${c.error ? ` — ${c.error}` : ''}`),
  ];
  return items.length
    ? h(
        'ul',
        { class: 'refused error-text', 'data-testid': 'refused', 'aria-label': `snippet requests of debater ${b.letter} that never ran` },
        items.map((x) => h('li', { 'data-testid': 'refused-request' }, x)),
      )
    : null;
}

/**
 * How a passage reached the prompts when not whole: cut to its first `passageChars` characters
 * (`cutFrom`, its length), or shown as its search snippet (`fromSnippet`: the doc store had no text),
 * in words; null when shown whole. report.md counts both as cut.
 */
function shownAs(p: { cutFrom?: unknown; fromSnippet?: unknown }, passageChars: unknown): HTMLElement | null {
  const words = [
    p.fromSnippet === true ? 'shown as its search snippet: no text in the doc store' : null,
    typeof p.cutFrom === 'number'
      ? `cut: ${typeof passageChars === 'number' ? `the first ${passageChars.toLocaleString('en-US')} of ` : ''}its ${p.cutFrom.toLocaleString('en-US')} characters`
      : null,
  ].filter(Boolean);
  return words.length ? h('span', { class: 'tag cut', 'data-testid': p.fromSnippet === true ? 'from-snippet' : 'passage-cut' }, words.join('; ')) : null;
}

export function madTrace(t: any, gold: Set<string>, answer: string | undefined): (HTMLElement | null)[] {
  const s = t.settings ?? {};
  const j = t.judge;
  const pool = arr(t.pool);
  const poolCut = pool.filter((p) => typeof p.cutFrom === 'number' || p.fromSnippet === true).length;
  const poolSnippets = pool.filter((p) => p.fromSnippet === true).length;
  return [
    h(
      'div',
      { class: 'muted', 'data-testid': 'mad-settings' },
      `MAD · ${s.topology ?? '?'} topology · ${s.rounds ?? '?'} rounds · cross-examiner ${s.crossExaminer ? 'on' : 'off'} · ${s.method ?? ''} k=${s.k ?? '?'}`,
    ),
    t.error ? h('div', { class: 'error' }, t.error) : null,
    h(
      'details',
      { class: 'pool' },
      h(
        'summary',
        { 'data-testid': 'pool-summary' },
        `Evidence pool (${pool.length} passages${poolCut ? `; ${poolCut} cut for the prompts${poolSnippets ? `, ${poolSnippets} of them shown as their search snippet` : ''}` : ''})`,
      ),
      h(
        'ul',
        {},
        pool.map((p) => {
          // a long query (the issue query is the whole fact pattern) is shown to 120 characters and says so; the whole in its title
          const q = clipped(String(p.query), 120);
          return h(
            'li',
            {},
            pidLink(p.id, { gold: gold.has(p.id) }),
            h('span', { class: 'muted', 'data-testid': 'pool-query', ...q.attrs }, ` ← ${q.text}`),
            ' ',
            shownAs(p, t.passageChars),
          );
        }),
      ),
    ),
    ...arr(t.rounds).map((r) =>
      h(
        'section',
        { class: 'round', 'data-testid': 'mad-round', 'data-round': r.round },
        h('h3', {}, `Round ${r.round}`),
        h(
          'div',
          { class: 'briefs' },
          arr(r.briefs).map((b) => brief(b, gold, answer)),
        ),
      ),
    ),
    t.crossExamination
      ? h(
          'section',
          { class: 'cross', 'data-testid': 'cross-examination' },
          h('h3', {}, 'Cross-examination'),
          t.crossExamination.error ? h('div', { class: 'error' }, t.crossExamination.error) : null,
          h(
            'ol',
            {},
            arr(t.crossExamination.questions).map((q) =>
              h('li', {}, h('strong', {}, `${q.letter}: `), q.question, h('div', { class: 'snippet' }, `→ ${q.answer}`)),
            ),
          ),
        )
      : null,
    arr(t.roundVerdicts).length
      ? h(
          'div',
          { class: 'muted', 'data-testid': 'round-verdicts' },
          'Verdict after each round: ',
          arr(t.roundVerdicts)
            .map((v) => `round ${v.round}: ${v.verdict ?? '–'}${v.verdict && v.verdict === answer ? ' ✓' : ''}`)
            .join(' · '),
        )
      : null,
    j
      ? h(
          'div',
          { class: 'verdict', 'data-testid': 'verdict' },
          h('strong', {}, `Judge's verdict: ${j.verdict}`),
          h(
            'ul',
            { class: 'rationale' },
            arr(j.rationale).map((x) => h('li', {}, x)),
          ),
          h(
            'div',
            { class: 'checklist', 'data-testid': 'checklist' },
            Object.entries(j.checklist ?? {}).map(([k, v]) =>
              h('span', { class: v ? 'flag ok' : 'flag bad', 'data-item': k }, `${v ? '✓' : '✗'} ${k.replace(/_/g, ' ')}`),
            ),
          ),
          arr(j.unsupported).length || arr(j.unsupportedUnresolved).length
            ? h(
                'div',
                {},
                'judge: unsupported citations ',
                arr(j.unsupported).map((id) => pidLink(String(id))),
                arr(j.unsupportedUnresolved).map((t) => h('code', { 'data-testid': 'unsupported-unresolved' }, `${String(t)} (named no passage handle shown)`)),
              )
            : null,
        )
      : null,
  ];
}
