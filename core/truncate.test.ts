import { describe, expect, it } from 'vitest';
import { cutUnits, truncate } from './truncate.js';

const book = '\u{1F4DA}'; // one emoji, two UTF-16 units

describe('cutting text by UTF-16 units', () => {
  it('cutUnits keeps the first max units, moving the cut before a surrogate pair it would split', () => {
    expect(cutUnits('abcdef', 10)).toBe('abcdef');
    expect(cutUnits('abcdef', 4)).toBe('abcd');
    // the pair sits at units 3-4: a cut at 4 would keep its first half alone
    const text = `abc${book}def`;
    expect(text.slice(0, 4)).toMatch(/[\ud800-\udbff]$/); // what a plain slice gave: a lone first half
    expect(cutUnits(text, 4)).toBe('abc');
    expect(cutUnits(text, 5)).toBe(`abc${book}`);
  });

  it('truncate marks a cut with "…" inside max units, never after half a pair', () => {
    expect(truncate('abcdef', 6)).toBe('abcdef');
    expect(truncate('abc def', 5)).toBe('abc…');
    expect(truncate(`abc${book}def`, 5)).toBe('abc…');
    expect(truncate(`abc${book}def`, 6)).toBe(`abc${book}…`);
  });
});
