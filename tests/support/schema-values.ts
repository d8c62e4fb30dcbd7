/**
 * Random values of a JSON Schema (fast-check arbitraries), for the property test of every schema
 * lexcase sends and for the contract-fuzzing server: whatever the schema allows, biased towards
 * its edges — empty and odd strings (quotes, newlines, JSON, "TERMINATE", handles), boundary
 * numbers, the shortest and longest allowed arrays, every enum member, null where anyOf allows it.
 * Covers the keywords of the strict subset (core/llm/strict-schema.ts) plus `required` lists that
 * leave properties optional and `minLength`/`maxLength`, for non-strict tool schemas.
 *
 *   const v = sampleValue(schema, 42);                          // one seeded value
 *   fc.assert(fc.property(valuesOf(schema), (v) => parser.safeParse(v).success));
 */
import fc from 'fast-check';

type Schema = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ODD_STRINGS = [
  '',
  ' ',
  'A',
  'P1',
  '[P2]',
  'null',
  'TERMINATE',
  'Yes',
  'No',
  'REQUIRES_ABSTENTION',
  '{"a": 1}',
  '```json\n{}\n```',
  'line one\nline two',
  '"quoted"',
  '\\',
  'é漢字🙂',
  'x'.repeat(300),
];

function stringArb(s: Schema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.max(min, s.maxLength ?? 80);
  const odd = ODD_STRINGS.filter((t) => t.length >= min && t.length <= max);
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength: min, maxLength: max }) },
    { weight: 1, arbitrary: fc.string({ minLength: min, maxLength: max, unit: 'grapheme' }) },
    { weight: 2, arbitrary: fc.lorem({ maxCount: 12 }).filter((t) => t.length >= min && t.length <= max) },
    ...(odd.length ? [{ weight: 2, arbitrary: fc.constantFrom(...odd) }] : []),
  );
}

function numberArb(s: Schema, integer: boolean): fc.Arbitrary<number> {
  const lo = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum : -1e6);
  const hi = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum : 1e6);
  if (integer) {
    const min = Math.ceil(s.exclusiveMinimum !== undefined && s.minimum === undefined ? lo + (Number.isInteger(lo) ? 1 : 0) : lo);
    const max = Math.floor(s.exclusiveMaximum !== undefined && s.maximum === undefined ? hi - (Number.isInteger(hi) ? 1 : 0) : hi);
    return fc.integer({ min, max });
  }
  return fc
    .double({
      min: lo,
      max: hi,
      noNaN: true,
      noDefaultInfinity: true,
      minExcluded: s.minimum === undefined && s.exclusiveMinimum !== undefined,
      maxExcluded: s.maximum === undefined && s.exclusiveMaximum !== undefined,
    })
    .map((x) => (Object.is(x, -0) ? 0 : x));
}

function resolveRef(ref: string, root: Schema): Schema {
  const target = ref
    .replace(/^#\/?/, '')
    .split('/')
    .filter(Boolean)
    .reduce<any>((o, k) => o?.[k], root); // eslint-disable-line @typescript-eslint/no-explicit-any
  if (!target) throw new Error(`schema-values: $ref ${ref} does not resolve`);
  return target;
}

function ofType(s: Schema, type: string, root: Schema): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return stringArb(s);
    case 'integer':
      return numberArb(s, true);
    case 'number':
      return numberArb(s, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      const minLength = s.minItems ?? 0;
      const maxLength = Math.max(minLength, s.maxItems ?? minLength + 5);
      return fc.array(valuesOf(s.items ?? {}, root), { minLength, maxLength });
    }
    case 'object': {
      const props: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) props[k] = valuesOf(v as Schema, root);
      const required = Array.isArray(s.required) ? (s.required as string[]).filter((k) => k in props) : [];
      return fc.record(props, { requiredKeys: required });
    }
    default:
      throw new Error(`schema-values: unsupported type ${type}`);
  }
}

/** An arbitrary of the values `schema` accepts (`root` resolves $ref). */
export function valuesOf(schema: Schema, root: Schema = schema): fc.Arbitrary<unknown> {
  if (schema.$ref) return valuesOf(resolveRef(schema.$ref, root), root);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  if (Array.isArray(schema.anyOf)) return fc.oneof(...schema.anyOf.map((s: Schema) => valuesOf(s, root)));
  const types: string[] = schema.type === undefined ? (schema.properties ? ['object'] : []) : Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length === 0) throw new Error(`schema-values: a schema node says nothing about its value: ${JSON.stringify(schema).slice(0, 120)}`);
  return types.length === 1 ? ofType(schema, types[0], root) : fc.oneof(...types.map((t) => ofType(schema, t, root)));
}

/** One value of `schema`, the same for the same seed. */
export function sampleValue(schema: Schema, seed: number): unknown {
  return fc.sample(valuesOf(schema), { seed, numRuns: 1 })[0];
}

/** One random text (a model's free-form reply), the same for the same seed. */
export function sampleText(seed: number): string {
  return fc.sample(stringArb({ maxLength: 400 }), { seed, numRuns: 1 })[0];
}
