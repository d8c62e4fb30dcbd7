import { describe, expect, it } from 'vitest';
import { costLine, itemTotalsText } from './llm-calls.js';

type Calls = Parameters<typeof costLine>[0];
const call = (c: Partial<Calls[number]>) => ({ stage: 'advocate A', ...c }) as Calls[number];

describe("the call timeline's level totals", () => {
  it('sum the calls when every call recorded them, the latency labelled a sum of call times, not elapsed time (jurors run in parallel)', () => {
    expect(costLine([call({ ms: 10.4, tokens: { total: 30, input: 20, output: 10 } }), call({ ms: 5, tokens: { total: 7, input: 5, output: 2 } })])).toBe(
      '2 calls · 37 tokens (25 in / 12 out) · 15 ms summed call time (calls may overlap: not elapsed time)',
    );
  });
  it('say "–" when no call recorded them (a run without exchanges), never 0 (before: "1 call · 0 tokens (0 in / 0 out) · 0 ms" beside "Item totals: 11 calls, 15,457 tokens")', () => {
    expect(costLine([call({})])).toBe('1 call · – tokens (– in / – out) · – ms');
  });
  it('one call: its own latency, no sum to label', () => {
    expect(costLine([call({ ms: 812, tokens: { total: 9, input: 6, output: 3 } })])).toBe('1 call · 9 tokens (6 in / 3 out) · 812 ms');
  });
  it('give a partly recorded figure as a lower bound', () => {
    expect(costLine([call({ ms: 4, tokens: { total: 9 } }), call({})])).toBe(
      '2 calls · ≥ 9 tokens (– in / – out) · ≥ 4 ms summed call time (calls may overlap: not elapsed time)',
    );
  });
});

describe("the panel's item totals", () => {
  it('name the refused and cut-off requests beside the calls, so "5 calls (+1 refused)" stands over six rows', () => {
    // before: " Item totals: 5 calls, 550 tokens, 900 ms." over the five replies and the refused request's row
    expect(itemTotalsText({ calls: 5, tokens: 550, ms: 900, error: null, refused: 1 })).toBe(' Item totals: 5 calls (+1 refused), 550 tokens, 900 ms.');
    expect(itemTotalsText({ calls: 2, tokens: 9, ms: 5, error: null, refused: 2, abandoned: 1 })).toBe(
      ' Item totals: 2 calls (+2 refused, +1 cut off), 9 tokens, 5 ms.',
    );
    expect(itemTotalsText({ calls: 3, tokens: 1240, ms: 812, error: null })).toBe(' Item totals: 3 calls, 1,240 tokens, 812 ms.');
  });
  it('name the calls never sent (still waiting for a concurrency slot when the item ended) under their own label, so the totals name every row', () => {
    // before: " Item totals: 0 calls (+1 cut off), 0 tokens, 160 ms." over three rows, two of them unexplained
    expect(itemTotalsText({ calls: 0, tokens: 0, ms: 160, error: 'the judge step failed', abandoned: 1, unsent: 2 })).toBe(
      ' Item totals: 0 calls (+1 cut off, +2 never sent), 0 tokens, 160 ms.',
    );
  });
});
