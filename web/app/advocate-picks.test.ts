/**
 * The CASE trace view says, in words, which picks an advocate dropped and why, and which notes were
 * cut (rendered in-process, web/test-support/fake-dom.ts); the MAD view says which pool passages were
 * shown as their search snippet. Before, the view showed none of `rejected`, `rejectedIds`,
 * `noteCutFrom` or `fromSnippet`: a trace with 2 dropped picks and a cut note looked like one without.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installFakeDom, viewRoot } from '../test-support/fake-dom.js';
import { caseFailureTrace, madFailureTrace } from '../test-support/failure-traces.js';
import { caseTrace } from './trace-case.js';
import { madTrace } from './trace-mad.js';

let uninstall: () => void;
beforeAll(() => {
  uninstall = installFakeDom();
});
afterAll(() => uninstall());

const root = viewRoot;

/**
 * The failure fixture's CASE trace with advocate B's picks as an LLM advocate records them: one beyond k,
 * an unknown handle written twice, a real id written out, its note cut.
 */
function caseWithDrops() {
  const t = structuredClone(caseFailureTrace) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
  t.advocateNoteChars = 300;
  const b = t.advocates[1];
  b.evidence[0].noteCutFrom = 450;
  b.rejectedIds = ['fre-607#p1', 'P99', 'fre-613#p0'];
  b.rejected = [
    { id: 'fre-607#p1', reason: 'beyond k' },
    { id: 'P99', reason: 'names no handle', times: 2 },
    { id: 'fre-613#p0', reason: 'names no handle' },
  ];
  return t;
}

describe('CASE trace view: what an advocate dropped and cut', () => {
  it("lists each dropped pick once with its reason as text (×2 for one written twice), says the note was cut and how long it was, and the item's unresolved citations", () => {
    const view = root(caseTrace(caseWithDrops(), new Set(), 'B', { unresolvedCitations: 3 }));
    const [a, b] = view.byTestId('advocate');
    expect(a.byTestId('dropped-picks')).toEqual([]);
    const list = b.byTestId('dropped-picks')[0];
    expect(list.getAttribute('role')).toBe('note');
    expect(list.byTestId('dropped-pick').map((e) => [e.getAttribute('data-reason'), e.textContent])).toEqual([
      ['beyond k', 'fre-607#p1 — beyond k: picked after the advocate already had its k passages'],
      ['names no handle', 'P99 ×2 — names no handle: written as no passage handle the advocate was shown (an unknown handle, a passage id spelled out)'],
      ['names no handle', 'fre-613#p0 — names no handle: written as no passage handle the advocate was shown (an unknown handle, a passage id spelled out)'],
    ]);
    expect(list.textContent).toContain('Dropped picks (3) — 2 naming no handle shown, 1 beyond k');
    expect(b.byTestId('note-cut').map((e) => e.textContent)).toEqual(['note cut: the first 300 of its 450 characters']);
    expect(view.byTestId('unresolved-citations').map((e) => e.textContent)).toEqual([
      '3 evidence citations named no passage handle the advocate was shown (dropped from the evidence; report.md counts them)',
    ]);
  });

  it('a trace written before "names no handle" keeps its reasons: an unknown handle reads "no tool returned it"', () => {
    const t = caseWithDrops();
    t.advocates[1].rejectedIds = ['fre-607#p1', 'P99'];
    t.advocates[1].rejected = [
      { id: 'fre-607#p1', reason: 'beyond k' },
      { id: 'P99', reason: 'no tool returned it' },
    ];
    const list = root(caseTrace(t, new Set(), 'B'))
      .byTestId('advocate')[1]
      .byTestId('dropped-picks')[0];
    expect(list.byTestId('dropped-pick').map((e) => e.textContent)).toEqual([
      'fre-607#p1 — beyond k: picked after the advocate already had its k passages',
      'P99 — no tool returned it: a passage never shown to the advocate',
    ]);
    expect(list.textContent).toContain('Dropped picks (2) — 1 never returned by a tool, 1 beyond k');
  });

  it('a trace from before the reasons were recorded lists its rejectedIds and says the reason is not recorded', () => {
    const t = caseWithDrops();
    delete t.advocates[1].rejected;
    delete t.advocateNoteChars;
    const b = root(caseTrace(t, new Set(), 'B')).byTestId('advocate')[1];
    expect(b.byTestId('dropped-pick').map((e) => e.getAttribute('data-reason'))).toEqual(['unrecorded', 'unrecorded', 'unrecorded']);
    expect(b.byTestId('dropped-picks')[0].textContent).toContain('Dropped picks (3) — reasons not recorded');
    expect(b.byTestId('note-cut').map((e) => e.textContent)).toEqual(['note cut from 450 characters']);
  });
});

describe('MAD trace view: a pool passage shown as its search snippet', () => {
  it('says so beside the passage and in the pool summary, with the passages cut', () => {
    const t = structuredClone(madFailureTrace) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    t.passageChars = 600;
    t.pool = [
      { id: 'fre-607#p0', query: 'impeach' },
      { id: 'fre-613#p0', query: 'impeach', fromSnippet: true },
      { id: 'fre-801#p0', query: 'hearsay', cutFrom: 1210 },
    ];
    const view = root(madTrace(t, new Set(), 'B'));
    expect(view.byTestId('pool-summary')[0].textContent).toBe('Evidence pool (3 passages; 2 cut for the prompts, 1 of them shown as their search snippet)');
    expect(view.byTestId('from-snippet').map((e) => e.textContent)).toEqual(['shown as its search snippet: no text in the doc store']);
    expect(view.byTestId('passage-cut').map((e) => e.textContent)).toEqual(['cut: the first 600 of its 1,210 characters']);
  });
});
