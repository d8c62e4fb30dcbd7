/**
 * The explorer has a trace view for every trace kind the system list (eval/systems.ts) names, and
 * every system's entry names one of them; /api/info carries the same list to the browser.
 */
import { describe, expect, it } from 'vitest';
import { GENERIC_SYSTEM, SYSTEMS, TRACE_KINDS } from '../eval/systems.js';
import { TRACE_VIEW_KINDS } from './common/trace-kinds.js';

describe('trace kinds: the system list and the explorer agree', () => {
  it('every kind of eval/systems.ts has a view in web/app, and no view is left over', () => {
    expect([...TRACE_VIEW_KINDS].sort()).toEqual([...TRACE_KINDS].sort());
  });

  it("every system's trace kind is one the explorer renders", () => {
    for (const s of [...SYSTEMS, GENERIC_SYSTEM]) expect(TRACE_VIEW_KINDS).toContain(s.traceKind);
  });
});
