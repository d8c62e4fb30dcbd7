/**
 * The one line splitter behind readLines and the bench's piped JSONL reader: a line (and a UTF-8
 * character) cut across chunks comes back whole, an empty line stays a line, the bytes after the last
 * "\n" come from end(), and a line past the limit throws naming its number, before the chunk's lines.
 */
import { describe, expect, it } from 'vitest';
import { LineSplitter } from './line-splitter.js';

const text = (bs: Buffer[]) => bs.map((b) => b.toString('utf8'));

describe('LineSplitter', () => {
  it('joins a line and a UTF-8 character cut across chunks; keeps empty lines; the tail from end()', () => {
    const bytes = Buffer.from('é1\n\nRègle 607 — témoin\nlast', 'utf8');
    const s = new LineSplitter();
    // cut inside "é" (2 bytes), inside "è" and across the long line
    const cuts = [1, 5, 9, 14, bytes.length];
    const got: string[] = [];
    let from = 0;
    for (const to of cuts) {
      got.push(...text(s.push(bytes.subarray(from, to))));
      from = to;
    }
    expect(got).toEqual(['é1', '', 'Règle 607 — témoin']);
    expect(s.end()?.toString('utf8')).toBe('last');
    expect(s.lines).toBe(4);
    expect(s.end()).toBeUndefined();
  });

  it('gives no tail when the stream ends with a newline', () => {
    const s = new LineSplitter();
    expect(text(s.push(Buffer.from('a\nb\n')))).toEqual(['a', 'b']);
    expect(s.end()).toBeUndefined();
  });

  it('throws for a line past the limit, naming its number, whether it ends in the chunk or spans chunks', () => {
    const tooLong = (n: number) => new Error(`line ${n} too long`);
    expect(() => new LineSplitter(4, tooLong).push(Buffer.from('ok\nabcdef\n'))).toThrow('line 2 too long');
    const s = new LineSplitter(4, tooLong);
    expect(text(s.push(Buffer.from('ok\nabc')))).toEqual(['ok']);
    expect(() => s.push(Buffer.from('de'))).toThrow('line 2 too long');
    // exactly the limit is accepted
    expect(text(new LineSplitter(4, tooLong).push(Buffer.from('abcd\n')))).toEqual(['abcd']);
  });
});
