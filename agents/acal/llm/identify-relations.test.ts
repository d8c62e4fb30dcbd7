import { describe, expect, it } from 'vitest';
import { relationsSchema } from './identify-relations.js';

describe('relationsSchema (ACAL relation identification)', () => {
  const ids = ['s1~a1', 's1~a2'];
  it('a list-form reply that judges a pair twice two ways is refused (asked again once), not read as its first judgement', () => {
    const reply = {
      relations: [
        { pair: 's1~a1', relation: 'attack', confidence: 0.9 },
        { pair: 's1~a2', relation: 'neutral', confidence: 0.7 },
        { pair: 's1~a1', relation: 'support', confidence: 0.9 },
      ],
    };
    const r = relationsSchema(ids).safeParse(reply);
    // before: { 's1~a1': attack 0.9 } — an attack edge, and so a clash, from a reply that also called the pair a support
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => i.message)).toContain('pair s1~a1 judged twice: attack 0.9, then support 0.9');
  });
  it('the same judgement repeated, the object form and the list form each read as they were', () => {
    const list = [
      { pair: 's1~a1', relation: 'attack', confidence: 0.9 },
      { pair: 's1~a1', relation: 'attack', confidence: 0.9 },
      { pair: 's1~a2', relation: 'support', confidence: 0.65 },
    ];
    const want = { 's1~a1': { relation: 'attack', confidence: 0.9 }, 's1~a2': { relation: 'support', confidence: 0.65 } };
    expect(relationsSchema(ids).parse({ relations: list }).relations).toEqual(want);
    expect(relationsSchema(ids).parse({ relations: want }).relations).toEqual(want);
  });
});
