import { describe, expect, it } from 'vitest';
import { jsonSchemaFor } from '../../core/llm/json-schema.js';
import { decisionBeforeReasoning } from '../../tests/support/decision-order.js';
import { ARGUMENT_POLISHER_SYSTEM } from './prompts.js';
import { analystReportSchema, normalizeOutcome, polisherReportSchema } from './schemas.js';

const POLISHER_KEYS = [
  'feedback_summary',
  'argument_segment_type',
  'accuracy_assessment',
  'strength_assessment',
  'factor_utilization_assessment',
  'revision_needed',
  'instructions_for_developer',
  'polished_argument',
];

describe('the Argument Polisher schema as sent', () => {
  it('writes feedback_summary before the graded assessments and revision_needed (reasoning before decision)', () => {
    const sent = jsonSchemaFor(polisherReportSchema) as { properties: Record<string, unknown> };
    expect(Object.keys(sent.properties)).toEqual(POLISHER_KEYS);
    expect(decisionBeforeReasoning(sent)).toEqual([]);
  });
  it("lists the keys in the prompt's JSON example in the same order", () => {
    const inPrompt = [...ARGUMENT_POLISHER_SYSTEM.matchAll(/"([a-z_]+)":/g)].map((m) => m[1]);
    expect(inPrompt).toEqual(POLISHER_KEYS);
  });
  it('still parses a prompt-mode reply in the appendix order, grades normalised', () => {
    const r = polisherReportSchema.parse({
      argument_segment_type: "Plaintiff's Argument",
      accuracy_assessment: 'minor inaccuracies',
      strength_assessment: 'Moderate (F4 is used)',
      factor_utilization_assessment: 'Good',
      feedback_summary: 'F6 Security-measures (P) is shared with c2 but not used.',
      revision_needed: 'yes',
      instructions_for_developer: 'Add F6.',
      polished_argument: 'c1 and c2 share F4 and F6.',
    });
    expect(r).toMatchObject({ accuracy_assessment: 'Minor Inaccuracies', strength_assessment: 'Moderate', revision_needed: true });
  });
});

describe("the Factor Analyst's outcome", () => {
  it.each([
    ['REQUIRES_ABSTENTION', 'REQUIRES_ABSTENTION'],
    ['requires correction', 'REQUIRES_CORRECTION'],
    ['Requires-Correction', 'REQUIRES_CORRECTION'],
    [' Valid argument. ', 'VALID_ARGUMENT'],
    ['TERMINATE', 'REQUIRES_ABSTENTION'],
    ['TERMINATE: REQUIRES_ABSTENTION', 'REQUIRES_ABSTENTION'],
    ['REQUIRES_ABSTENTION (TERMINATE)', 'REQUIRES_ABSTENTION'],
  ])('reads %j as %s', (raw, outcome) => {
    expect(normalizeOutcome(raw)).toBe(outcome);
    expect(analystReportSchema.parse({ analysis_outcome: raw }).analysis_outcome).toBe(outcome);
  });
  // before: VALID_ARGUMENT, VALID_ARGUMENT, REQUIRES_ABSTENTION, REQUIRES_ABSTENTION, REQUIRES_CORRECTION, REQUIRES_ABSTENTION —
  // the outcome each reply negates (wrongful abstention 0% → 100% with exit 0)
  it.each(['INVALID_ARGUMENT', 'NOT VALID', 'NO_ABSTENTION_REQUIRED', 'does not require abstention', 'No correction required', 'TERMINATE: VALID_ARGUMENT'])(
    'refuses %j: it names no outcome (the reply is re-asked once, then the step fails)',
    (raw) => {
      expect(normalizeOutcome(raw)).toBeUndefined();
      const r = analystReportSchema.safeParse({ analysis_outcome: raw, summary: 'c1 shares F4 with c2.' });
      expect(r.success).toBe(false);
      expect(r.error?.issues[0].message).toContain(`got "${raw}"`);
    },
  );
});

describe("the Polisher's revision_needed", () => {
  it.each([
    [true, true],
    ['True', true],
    ['true.', true],
    ['YES', true],
    ['1', true],
    [1, true],
    ['false', false],
    ['No.', false],
    ['0', false],
  ])('reads %j as %s', (raw, flag) => {
    expect(polisherReportSchema.parse({ revision_needed: raw }).revision_needed).toBe(flag);
  });
  it('refuses a reply that leaves revision_needed out (before: read as false, no revision)', () => {
    const r = polisherReportSchema.safeParse({ feedback_summary: 'F6 is unused', polished_argument: 'text' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].path).toEqual(['revision_needed']);
  });
  // before: each read as false — the revision the Polisher asked for never happened
  it.each(['Yes, revise', 'true, F6 is missing', 'maybe', 'revise'])('refuses %j rather than reading it as no revision', (raw) => {
    const r = polisherReportSchema.safeParse({ revision_needed: raw });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].path).toEqual(['revision_needed']);
  });
});
