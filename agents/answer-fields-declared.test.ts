/**
 * Every reply schema of lexcase's systems that holds an answer declares which field is its answer and which fields
 * hold the reasoning read beside it (core/llm/answer-fields.ts), the fields tokens.textOtherAnswer reads: the name
 * lists of core/llm/text-beside-call.ts are only the fallback for a schema of one's own that declares nothing. The
 * declaration is not sent: the JSON Schema a request carries (and so the `prompts` fingerprint and the response
 * cache's key) is the same as the undeclared schema's.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { declareAnswerFields, declaredAnswerFields } from '../core/llm/answer-fields.js';
import { jsonSchemaFor } from '../core/llm/json-schema.js';
import { answerSchema as acalAnswerSchema, labelSchema as acalLabelSchema } from './acal/baselines/answer.js';
import { judgeSchema as acalJudgeSchema } from './acal/llm/judge.js';
import { answerSchema as mcqAnswerSchema } from './case/baselines/mcq-prompt.js';
import { voteSchema } from './case/juror.js';
import { claimSchema as emarClaimSchema, judgeSchema as emarJudgeSchema } from './emar/schemas.js';
import { citedAnswerSchema, crossAnswerSchema, judgeSchema as madJudgeSchema } from './mad/schemas.js';
import { optionLetterSchema } from './common/option-letter.js';

const letters = ['A', 'B', 'C', 'D'];

describe("each system's answer schema declares its answer and reasoning fields", () => {
  it.each([
    ["CASE's juror", voteSchema(letters), { answer: 'vote', reasoning: ['reasoning'] }],
    ['the MCQ baselines', mcqAnswerSchema(letters), { answer: 'answer', reasoning: ['reasoning'] }],
    // the rationale's three sentences weigh each debater's answer: none is read
    ["MAD's judge", madJudgeSchema(letters, ['P1']), { answer: 'verdict', reasoning: [] }],
    ["MAD's baselines", citedAnswerSchema(letters, ['P1']), { answer: 'answer', reasoning: ['reasoning'] }],
    ["a MAD debater's cross-examination answer (prose, no option)", crossAnswerSchema, { answer: null, reasoning: [] }],
    // a party's argument answers the other party's: it is not read
    ["EMAR's parties", emarClaimSchema(letters), { answer: 'answer', reasoning: [] }],
    ["EMAR's judge", emarJudgeSchema(letters), { answer: 'answer', reasoning: ['rationale'] }],
    ["ACAL's final judge", acalJudgeSchema, { answer: 'decision', reasoning: ['reasoning'] }],
    ["ACAL's CoT and RAG baselines (LegalBench's answer)", acalAnswerSchema, { answer: 'answer', reasoning: ['reasoning'] }],
    ["ACAL's SP baseline", acalLabelSchema, { answer: 'answer', reasoning: [] }],
  ] as const)('%s', (_who, schema, fields) => {
    expect(declaredAnswerFields(schema)).toEqual(fields);
  });
});

describe('declareAnswerFields', () => {
  it('sends nothing: the JSON Schema of a declared schema is the undeclared one', () => {
    const shape = () => z.object({ analysis: z.string(), choice: optionLetterSchema(letters) });
    const declared = declareAnswerFields(shape(), { answer: 'choice', reasoning: ['analysis'] });
    expect(jsonSchemaFor(declared)).toEqual(jsonSchemaFor(shape()));
    expect(declaredAnswerFields(shape())).toBeUndefined();
  });

  it('refuses a field the object schema does not have', () => {
    expect(() => declareAnswerFields(z.object({ analysis: z.string(), choice: z.string() }), { answer: 'answer', reasoning: ['analysis', 'reasons'] })).toThrow(
      /the schema has no field answer, reasons/,
    );
  });
});
