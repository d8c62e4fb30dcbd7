import { describe, expect, it } from 'vitest';
import { AsciiInterner, HASH_START, MISSING, hashStep } from './ascii-interner.js';
import { LEGAL_CORPUS_PASSAGES, bundledLines } from '../../tests/support/bundled-data.js';

const hashOf = (s: string, start = 0, end = s.length) => {
  let h = HASH_START;
  for (let i = start; i < end; i++) h = hashStep(h, s.charCodeAt(i));
  return h;
};

/** Every ASCII word (as the builder's scan sees it: runs of [A-Za-z0-9]) of the bundled legal corpus, with its position in the text. */
function words(): { text: string; start: number; end: number }[] {
  const out: { text: string; start: number; end: number }[] = [];
  for (const line of bundledLines(LEGAL_CORPUS_PASSAGES).filter(Boolean)) {
    const text = (JSON.parse(line) as { text: string }).text;
    if (/[^\x00-\x7f]/.test(text)) continue;
    for (const m of text.matchAll(/[A-Za-z0-9]+/g)) out.push({ text, start: m.index, end: m.index + m[0].length });
  }
  return out;
}

describe('AsciiInterner', () => {
  it('answers exactly what a Map of the same tokens answers, through many regrowths, looking tokens up in place inside their passages', () => {
    const ws = words();
    expect(ws.length).toBeGreaterThan(30_000);
    const interner = new AsciiInterner(4); // tiny start: the table doubles many times
    const map = new Map<string, number>();
    for (const w of ws) {
      const raw = w.text.slice(w.start, w.end);
      const h = hashOf(w.text, w.start, w.end);
      const got = interner.get(w.text, w.start, w.end, h);
      const want = map.get(raw);
      expect(got).toBe(want === undefined ? MISSING : want);
      if (want === undefined) {
        const value = map.size % 7 === 0 ? -1 : map.size; // -1 (dropped token) is a value too
        map.set(raw, value);
        interner.set(w.text, w.start, w.end, h, value);
      }
    }
    expect(map.size).toBeGreaterThan(5000);
    expect(interner.size).toBe(map.size);
  });

  it('tells apart different tokens that share a hash and a length, and prefixes of a stored token', () => {
    const interner = new AsciiInterner(8);
    const h = 12345; // forced collision: every key below lands on the same slot chain
    interner.set('plaintiff', 0, 9, h, 1);
    interner.set('defendant', 0, 9, h, 2);
    interner.set('x plaint', 2, 8, h, 3);
    expect(interner.get('the plaintiff sued', 4, 13, h)).toBe(1);
    expect(interner.get('defendant', 0, 9, h)).toBe(2);
    expect(interner.get('plaint', 0, 6, h)).toBe(3);
    expect(interner.get('plaintifx', 0, 9, h)).toBe(MISSING);
    expect(interner.get('plaintiff', 0, 9, h + 1)).toBe(MISSING);
    interner.clear();
    expect(interner.size).toBe(0);
    expect(interner.get('plaintiff', 0, 9, h)).toBe(MISSING);
  });
});
