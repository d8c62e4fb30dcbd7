import { describe, expect, it } from 'vitest';
import { decisionBeforeReasoning } from './decision-order.js';

const obj = (props: Record<string, unknown>) => ({ type: 'object', properties: props, required: Object.keys(props), additionalProperties: false });
const str = { type: 'string' };

describe('decisionBeforeReasoning', () => {
  it('names a verdict written before its rationale, at any depth (items, anyOf)', () => {
    expect(decisionBeforeReasoning(obj({ verdict: str, rationale: { type: 'array', items: str } }))).toEqual([
      '(root): decision key "verdict" before reasoning key "rationale"',
    ]);
    const nested = obj({ scores: obj({ s1: obj({ score: { type: 'number' }, note: str }) }) });
    expect(decisionBeforeReasoning(nested)).toEqual(['(root).scores.s1: decision key "score" before reasoning key "note"']);
    expect(decisionBeforeReasoning(obj({ x: { anyOf: [obj({ answer: str, argument: str }), { type: 'null' }] } }))).toHaveLength(1);
    expect(decisionBeforeReasoning(obj({ revision_needed: { type: 'boolean' }, strength_assessment: str }))).toHaveLength(1);
  });
  it('accepts reasoning first, a decision without reasoning, and a picked item with its justification', () => {
    expect(decisionBeforeReasoning(obj({ rationale: str, verdict: str, checklist: obj({ a: { type: 'boolean' } }) }))).toEqual([]);
    expect(decisionBeforeReasoning(obj({ relation: str, confidence: { type: 'number' } }))).toEqual([]);
    expect(decisionBeforeReasoning(obj({ selected: { type: 'array', items: obj({ role: str, reason: str }) } }))).toEqual([]);
  });
});
