import { describe, expect, it } from 'vitest';
import { conflictingKey, conflictingKeyMessage } from './json-duplicate-keys.js';

describe('conflictingKey: a key an object names twice with different values', () => {
  it('finds the top-level answer named twice, values in order (JSON.parse alone keeps the last)', () => {
    const text = '{"reasoning": "r", "answer": "B", "answer": "C"}';
    expect((JSON.parse(text) as { answer: string }).answer).toBe('C');
    const c = conflictingKey(text);
    expect(c).toEqual({ path: '', key: 'answer', values: ['"B"', '"C"'] });
    expect(conflictingKeyMessage(c!)).toBe(
      'the reply\'s JSON object names "answer" 2 times with different values: "B", then "C": none is taken for the answer',
    );
  });

  it('passes a key repeated with the same value, and objects with no repeated key', () => {
    expect(conflictingKey('{"answer": "B", "answer": "B"}')).toBeUndefined();
    expect(conflictingKey('{"answer": 1, "answer": 1.0}')).toBeUndefined();
    expect(conflictingKey('{"a": {"answer": "B"}, "b": {"answer": "C"}}')).toBeUndefined();
    expect(conflictingKey('[{"answer": "B"}, {"answer": "C"}]')).toBeUndefined();
    expect(conflictingKey('{"answer": "B"}')).toBeUndefined();
  });

  it('reads keys as JSON does: escapes name the same key, and quotes, braces and colons inside strings are text', () => {
    expect(conflictingKey('{"vote": "A", "vot\\u0065": "D"}')).toMatchObject({ key: 'vote', values: ['"A"', '"D"'] });
    expect(conflictingKey('{"note": "say \\"vote\\": {x}, [y]", "vote": "A"}')).toBeUndefined();
    expect(conflictingKey('{ "vote" :\n "A" ,\t"vote":"B" }')).toMatchObject({ key: 'vote' });
  });

  it('finds a conflict inside nested objects and arrays, naming where', () => {
    const c = conflictingKey('{"passages": [{"id": "p1", "label": "relevant"}, {"id": "p2", "label": "relevant", "label": "irrelevant"}]}');
    expect(c).toEqual({ path: 'passages[1]', key: 'label', values: ['"relevant"', '"irrelevant"'] });
    expect(conflictingKeyMessage(c!)).toContain('(in passages[1])');
    expect(conflictingKey('{"a": {"x": [1, 2]}, "a": {"x": [1, 3]}}')).toMatchObject({ key: 'a' });
    expect(conflictingKey('{"a": {"x": [1, 2]}, "a": {"x": [1, 2]}}')).toBeUndefined();
  });
});
