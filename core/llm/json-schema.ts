/**
 * The JSON Schema sent to an endpoint for a zod schema (response_format json_schema, or the
 * parameters of a forced tool call). It describes what the model must write, i.e. the schema's
 * input, with one refinement: a pipe whose input side says less than its output side (a
 * `z.preprocess` normaliser, or a string normalised into an enum of option letters) is rendered
 * as its output side, so a schema-following server is constrained to values that validate.
 * The rendering is then put into the strict subset (strict-schema.ts: every property required,
 * no additional properties, only supported keywords), which is what OpenAI's `strict: true`,
 * vLLM, llama.cpp and Ollama all enforce. Every value of the sent schema must pass the zod
 * parser: a schema whose parser is narrower than what it sends (a refine, a min length) is a bug,
 * found by the contract-fuzz property (tests/contract-fuzz.test.ts).
 */
import { z } from 'zod';
import { toStrictSchema } from './strict-schema.js';

type Def = { type?: string; in?: z.ZodType; out?: z.ZodType };
const defOf = (s: unknown): Def => ((s as { _zod?: { def?: Def } })?._zod?.def ?? {}) as Def;

const sentAs = new WeakMap<object, Record<string, unknown>>();

/**
 * `schema`, sent to the endpoint as `json` instead of its own rendering: for a parser that is more
 * lenient than what a model is asked for (it takes "[P3]", "p3" or an id it will flag as unknown,
 * while the model is offered exactly the item's handles as an enum). `json` must be narrower than
 * the parser (the property test checks it).
 */
export function sendAs<T extends z.ZodType>(schema: T, json: Record<string, unknown>): T {
  sentAs.set(schema, json);
  return schema;
}

function render(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    override(ctx) {
      const fixed = sentAs.get(ctx.zodSchema);
      if (fixed) {
        for (const k of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as Record<string, unknown>)[k];
        Object.assign(ctx.jsonSchema, structuredClone(fixed));
        return;
      }
      const def = defOf(ctx.zodSchema);
      if (def.type !== 'pipe' || !def.in || !def.out) return;
      const inType = defOf(def.in).type;
      const outType = defOf(def.out).type;
      if (inType === 'transform' || outType === 'enum' || outType === 'literal') {
        const out = render(def.out);
        delete out.$schema;
        for (const k of Object.keys(ctx.jsonSchema)) delete (ctx.jsonSchema as Record<string, unknown>)[k];
        Object.assign(ctx.jsonSchema, out);
      }
    },
  }) as Record<string, unknown>;
}

export function jsonSchemaFor(schema: z.ZodType): Record<string, unknown> {
  return toStrictSchema(render(schema));
}
