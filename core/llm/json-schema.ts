/**
 * The JSON Schema sent to an endpoint for a zod schema (response_format json_schema, or the
 * parameters of a forced tool call). It describes what the model must write, i.e. the schema's
 * input, with one refinement: a pipe whose input side says less than its output side (a
 * `z.preprocess` normaliser, or a string normalised into an enum of option letters) is rendered
 * as its output side, so a schema-following server is constrained to values that validate.
 */
import { z } from 'zod';

type Def = { type?: string; in?: z.ZodType; out?: z.ZodType };
const defOf = (s: unknown): Def => ((s as { _zod?: { def?: Def } })?._zod?.def ?? {}) as Def;

function render(schema: z.ZodType): Record<string, unknown> {
  return z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    override(ctx) {
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
  const out = render(schema);
  delete out.$schema;
  return out;
}
