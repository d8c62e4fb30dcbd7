import { describe, expect, it } from 'vitest';
import { scoresSchema } from './score-arguments.js';

describe('scoresSchema (ACAL argument scores)', () => {
  const ids = ['s1', 'a1'];
  it('a list-form reply that scores an argument twice with different scores is refused (asked again once), not read as its first score', () => {
    const reply = {
      scores: [
        { id: 's1', note: 'strong', score: 0.9 },
        { id: 'a1', note: 'fair', score: 0.5 },
        { id: 's1', note: 'weak', score: 0.1 },
      ],
    };
    const r = scoresSchema(ids).safeParse(reply);
    // before: s1 0.9 kept, and a verdict of Yes where the second score gave No, with no word anywhere
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message)).toContain('argument s1 scored twice: 0.9, then 0.1');
  });
  it('the same score repeated, the object form and the list form each read as they were', () => {
    const list = [
      { id: 's1', note: 'strong', score: 0.9 },
      { id: 's1', note: 'strong again', score: 0.9 },
      { id: 'a1', note: 'fair', score: 0.5 },
    ];
    const want = { s1: { note: 'strong', score: 0.9 }, a1: { note: 'fair', score: 0.5 } };
    expect(scoresSchema(ids).parse({ scores: list }).scores).toEqual(want);
    expect(scoresSchema(ids).parse({ scores: want }).scores).toEqual(want);
  });
});
