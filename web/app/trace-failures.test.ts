/**
 * The trace views show what a run records about a step that failed, rendered in-process
 * (web/test-support/fake-dom.ts): a CASE advocate whose reply could not be used shows its error and
 * that reply, as text; a MAD debater's refused snippet requests show with their reasons. Before,
 * the advocate's reply and MAD's refusals were not in the view at all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeText, installFakeDom, viewRoot } from '../test-support/fake-dom.js';
import { ADVOCATE_ERROR, ADVOCATE_RAW, caseFailureTrace, MAD_REFUSED, madFailureTrace } from '../test-support/failure-traces.js';
import { caseTrace } from './trace-case.js';
import { madTrace } from './trace-mad.js';

let uninstall: () => void;
beforeAll(() => {
  uninstall = installFakeDom();
});
afterAll(() => uninstall());

const root = viewRoot;

describe('CASE trace view: an advocate whose reply could not be used', () => {
  it('shows its error as a note and the reply it got, as text (markup in it is not parsed)', () => {
    const view = root(caseTrace(structuredClone(caseFailureTrace), new Set(['caselaw_4411']), 'B'));
    const [a, b] = view.byTestId('advocate');
    const error = a.byTestId('advocate-error');
    expect(error).toHaveLength(1);
    expect(error[0].getAttribute('role')).toBe('note');
    expect(error[0].textContent).toBe(ADVOCATE_ERROR);
    // the reply as the server sent it: one text node inside a <pre>, on demand under a summary that says what it is
    const raw = a.byTestId('advocate-raw')[0];
    expect(raw.tagName).toBe('DETAILS');
    expect(raw.children[0].textContent).toBe(`the reply it could not use (${ADVOCATE_RAW.length} characters)`);
    const pre = raw.children[1];
    expect(pre.tagName).toBe('PRE');
    expect(pre.getAttribute('tabindex')).toBe('0');
    expect(pre.childNodes).toEqual([new FakeText(ADVOCATE_RAW)]);
    expect(view.descendants().map((e) => e.tagName.toLowerCase())).not.toContain('tool_call');
    expect(view.descendants().map((e) => e.tagName.toLowerCase())).not.toContain('b');
    expect(a.byTestId('no-evidence').map((e) => e.textContent)).toEqual(['no evidence']);
    // the advocate that worked shows none of it
    expect(b.byTestId('advocate-error')).toEqual([]);
    expect(b.byTestId('advocate-raw')).toEqual([]);
    expect(b.byTestId('no-evidence')).toEqual([]);
    expect(b.byTestId('evidence-item')).toHaveLength(1);
  });

  it('an empty reply is said to be empty', () => {
    const t = structuredClone(caseFailureTrace);
    t.advocates[0].raw = '';
    t.advocates[0].error = 'final reply has no parseable selection and no tool returned passages (the reply was empty)';
    const a = root(caseTrace(t, new Set(), 'B')).byTestId('advocate')[0];
    expect(a.byTestId('advocate-raw').map((e) => e.textContent)).toEqual(['its reply was empty']);
    expect(a.byTestId('advocate-error')[0].textContent).toMatch(/the reply was empty/);
  });
});

describe('MAD trace view: refused snippet requests', () => {
  it("each debater's refused requests are listed with their reasons; a debater with none has no list", () => {
    const view = root(madTrace(structuredClone(madFailureTrace), new Set(), 'B'));
    const briefs = view.byTestId('brief').filter((b) => b.getAttribute('data-round') === '2');
    const listed = (letter: string) =>
      briefs
        .find((b) => b.getAttribute('data-letter') === letter)!
        .byTestId('refused-request')
        .map((e) => e.textContent);
    expect(listed('A')).toEqual([]);
    expect(listed('B')).toEqual([`refused request: bm25_search — ${MAD_REFUSED.B[0].reason}`]);
    expect(listed('C')).toEqual([`refused request: web_search — ${MAD_REFUSED.C[0].reason}`]);
    expect(listed('D')).toEqual([`refused request: bm25_search — ${MAD_REFUSED.D[0].reason}`]);
    const list = briefs.find((b) => b.getAttribute('data-letter') === 'C')!.byTestId('refused')[0];
    expect(list.tagName).toBe('UL');
    expect(list.getAttribute('aria-label')).toBe('snippet requests of debater C that never ran');
    // B's request that ran is still shown beside the one refused
    expect(briefs.find((b) => b.getAttribute('data-letter') === 'B')!.textContent).toContain('requested: bm25_search "party impeach own witness credibility"');
  });
});

describe('MAD trace view: a citation that named no passage handle shown', () => {
  it('shows what the model wrote, said to be no handle, never as a gold passage link (before: a link marked gold when the text was a gold id)', () => {
    const t = structuredClone(madFailureTrace);
    const a = t.rounds[0].briefs[0];
    a.claims = [{ ...a.claims[0], unresolved: ['caselaw_4411'] } as (typeof a.claims)[number]];
    a.citations = [
      {
        id: 'caselaw_4411',
        claim: a.claims[0].text,
        exists: false,
        seen: false,
        supportive: false,
        overlap: 0,
        unresolved: true,
      } as (typeof a.citations)[number],
    ];
    const view = root(madTrace(t, new Set(['caselaw_4411']), 'B'));
    const brief = view.byTestId('brief').find((b) => b.getAttribute('data-round') === '1' && b.getAttribute('data-letter') === 'A')!;
    const [c] = brief.byTestId('citation');
    expect(c.textContent).toContain('caselaw_4411 (named no passage handle shown) ');
    expect(c.descendants().map((e) => e.tagName)).not.toContain('A');
    expect(c.descendants().some((e) => /gold/.test(e.getAttribute('class') ?? ''))).toBe(false);
  });
});
