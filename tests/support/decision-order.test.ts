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
    expect(decisionBeforeReasoning(obj({ revision_needed: { type: 'boolean' }, feedback_summary: str }))).toHaveLength(1);
  });
  it("names the 3-ply Polisher's grades written before its feedback (the appendix's order): a grade is a decision, not reasoning", () => {
    const grade = { type: 'string', enum: ['Strong', 'Moderate', 'Weak'] };
    const appendixOrder = obj({
      argument_segment_type: str,
      accuracy_assessment: grade,
      strength_assessment: grade,
      factor_utilization_assessment: grade,
      feedback_summary: str,
      revision_needed: { type: 'boolean' },
      instructions_for_developer: str,
      polished_argument: str,
    });
    expect(decisionBeforeReasoning(appendixOrder)).toEqual([
      '(root): decision key "accuracy_assessment" before reasoning key "feedback_summary"',
      '(root): decision key "strength_assessment" before reasoning key "feedback_summary"',
      '(root): decision key "factor_utilization_assessment" before reasoning key "feedback_summary"',
    ]);
  });
  it('classes a key as reasoning by its exact name only, never by a suffix', () => {
    expect(decisionBeforeReasoning(obj({ verdict: str, risk_assessment: str, case_summary: str }))).toEqual([]);
  });
  it("names ACAL's team pick written before its reason (the role chosen is the decision), and accepts {reason, role}", () => {
    const pick = (o: Record<string, unknown>) => obj({ selected: { type: 'array', items: obj(o) } });
    expect(decisionBeforeReasoning(pick({ role: str, reason: str }))).toEqual(['(root).selected[]: decision key "role" before reasoning key "reason"']);
    expect(decisionBeforeReasoning(pick({ reason: str, role: str }))).toEqual([]);
  });
  it('accepts reasoning first, a decision without reasoning, and a picked item with its justification', () => {
    expect(decisionBeforeReasoning(obj({ rationale: str, verdict: str, checklist: obj({ a: { type: 'boolean' } }) }))).toEqual([]);
    expect(decisionBeforeReasoning(obj({ relation: str, confidence: { type: 'number' } }))).toEqual([]);
    expect(decisionBeforeReasoning(obj({ picked: { type: 'array', items: obj({ id: str, justification: str }) } }))).toEqual([]);
  });
});
