import { describe, expect, it } from 'vitest';
import { jsonSchemaFor } from '../../core/llm/json-schema.js';
import { decisionBeforeReasoning } from '../../tests/support/decision-order.js';
import { ARGUMENT_POLISHER_SYSTEM } from './prompts.js';
import { polisherReportSchema } from './schemas.js';

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
