import { describe, expect, it } from 'vitest';
import { evidenceBlock } from '../mad/prompts.js';
import { withPassageHandles } from './passage-handles.js';
import { truncate } from './question-text.js';

/** A lone surrogate: a high half not followed by a low half, or a low half not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('truncate never splits a surrogate pair', () => {
  it('cuts before an emoji whose pair straddles the cut, so the prompt text ends whole', () => {
    expect(truncate('a😀😀b and more text', 3)).toBe('a…');
    expect(JSON.stringify(truncate('a😀😀b and more text', 3))).not.toContain('\\ud83d');
  });

  it('keeps a pair that ends exactly at the cut, and leaves short texts whole', () => {
    expect(truncate('a😀😀b and more text', 4)).toBe('a😀…');
    expect(truncate('a😀', 3)).toBe('a😀');
  });

  it('leaves no lone surrogate at any cut of a passage with astral characters', () => {
    const passage = 'The witness texted "see you at the bank 😀" and later wrote 𝒻𝓇𝒶𝓊𝒹 in the ledger 🏦 before the sale.';
    for (let max = 2; max <= passage.length + 1; max++) {
      const cut = truncate(passage, max);
      expect(cut.length, `max ${max}`).toBeLessThanOrEqual(max);
      expect(LONE_SURROGATE.test(cut), `max ${max}: ${JSON.stringify(cut)}`).toBe(false);
    }
  });

  it("a debate prompt's authorities block carries no lone surrogate when a passage is cut inside an emoji", () => {
    const text = `${'x'.repeat(8)}😀 rest of the passage`;
    const block = withPassageHandles(() => evidenceBlock([{ id: 'cap-1#p1', text }], 10));
    expect(block).toContain('[P1] xxxxxxxx…');
    expect(LONE_SURROGATE.test(block)).toBe(false);
  });
});
