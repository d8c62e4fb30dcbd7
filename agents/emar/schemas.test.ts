import { describe, expect, it } from 'vitest';
import { judgeSchema } from './schemas.js';

describe("EMAR's option letter (the judge's and the parties' answer)", () => {
  const judge = (answer: string) => judgeSchema(['A', 'B', 'C', 'D']).safeParse({ established_facts: ['B recorded first'], rationale: 'race-notice', answer });
  it.each([
    ['(B)', 'B'],
    ['b', 'B'],
    ['d.', 'D'],
    ['C. The recording act protects B.', 'C'],
  ])('reads %j as %s', (raw, letter) => {
    expect(judge(raw).data?.answer).toBe(letter);
  });
  // before: "C is wrong; A" was the judge's verdict C
  it.each(['C is wrong; A', 'A or D'])('refuses %j with the letters it takes', (raw) => {
    const r = judge(raw);
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].message).toBe('expected one of A, B, C, D');
  });
});
