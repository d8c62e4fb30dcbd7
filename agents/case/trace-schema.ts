/**
 * The zod schema of a CASE trace (traces/<id>.json of a `system: 'case'` run), registered with the
 * runner so traces are written and read back through it (eval/records.ts). It pins the fields the
 * report, the explorer and resume read — `jurors` is always a list of juror records, `advocates` a
 * list, `tokens` numbers per stage — and keeps everything else as it is.
 */
import { z } from 'zod';
import { baseTraceSchema, registerLexcaseTraceSchema, type TraceSchema } from '../../eval/records.js';

const toolCall = z.looseObject({ tool: z.string(), ids: z.array(z.string()).optional() });

export const jurorRecordSchema = z.looseObject({
  persona: z.string(),
  reasoning: z.string(),
  vote: z.string().nullable(),
  abstained: z.boolean(),
  error: z.string().optional(),
  raw: z.array(z.string()).optional(),
  invalidToolCalls: z.array(z.looseObject({ name: z.string().optional(), args: z.string().optional(), error: z.string().optional() })).optional(),
  tokens: z.number(),
});

export const caseTraceSchema = baseTraceSchema.extend({
  system: z.string().optional(),
  mode: z.string().optional(),
  jurorCount: z.number().int().nonnegative().optional(),
  jurors: z.array(jurorRecordSchema).optional(),
  panel: z.array(z.string()).optional(),
  advocates: z
    .array(
      z.looseObject({
        toolCalls: z.array(toolCall).optional(),
        error: z.string().optional(),
        raw: z.string().optional(),
        failedStep: z.enum(['compile', 'no passages']).optional(),
      }),
    )
    .optional(),
  tokens: z.record(z.string(), z.number()).optional(),
  verdict: z.looseObject({ answer: z.string().nullable(), confidence: z.string(), tally: z.record(z.string(), z.number()) }).optional(),
  error: z.string().optional(),
});

registerLexcaseTraceSchema('case', caseTraceSchema as unknown as TraceSchema);
