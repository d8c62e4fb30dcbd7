/**
 * Which field of a structured reply holds its answer, and which hold the reasoning beside it, declared beside the
 * schema a system sends (`declareAnswerFields`): the fields text-beside-call.ts reads for `tokens.textOtherAnswer`.
 * A schema that declares nothing is read by the name lists there (answer fields `answer`, `vote`, `verdict`,
 * `decision`; reasoning fields `reasoning`, `rationale`, `explanation`, `justification`), so a system of one's own
 * whose answer is `choice` or `holding`, or whose reasoning is `analysis`, declares them to be checked. The
 * declaration lives in a zod registry of its own: it is never sent to the endpoint (the request, and so the
 * response cache's key, is the same with or without it).
 */
import { z } from 'zod';
import { errors } from '../errors.js';

export interface AnswerFields {
  /** The field that holds the answer (an option letter or Yes/No); null: the reply holds no answer to check. */
  answer: string | null;
  /** The string fields that hold the reasoning beside the answer, read for another answer named; [] reads none. */
  reasoning: readonly string[];
}

const declared = z.registry<AnswerFields>();

/**
 * `schema`, declared to hold its answer in `fields.answer` and its reasoning in `fields.reasoning`; an object schema
 * lacking a declared field is a mistake, refused at once.
 */
export function declareAnswerFields<T extends z.ZodType>(schema: T, fields: AnswerFields): T {
  const shape = schema instanceof z.ZodObject ? (schema.shape as Record<string, unknown>) : undefined;
  const missing = [...(fields.answer === null ? [] : [fields.answer]), ...fields.reasoning].filter((f) => shape && !(f in shape));
  if (missing.length) throw errors.invalidInput('declareAnswerFields', `the schema has no field ${missing.join(', ')}`);
  declared.add(schema, { answer: fields.answer, reasoning: [...fields.reasoning] });
  return schema;
}

/** The fields `schema` declares (declareAnswerFields), or undefined where it declares none. */
export function declaredAnswerFields(schema: z.ZodType): AnswerFields | undefined {
  return declared.get(schema);
}
