/**
 * The strict JSON Schema subset every structured request of lexcase is sent in: OpenAI's
 * Structured Outputs "strict" subset, which vLLM (xgrammar/outlines), llama.cpp (grammar) and
 * Ollama (`format`) also enforce. `toStrictSchema` rewrites a rendered zod schema into it and
 * `strictSchemaProblems` lists what keeps a schema out of it (tests, and the scripted OpenAI
 * contract server, which refuses such a schema the way OpenAI does).
 *
 * The rules (OpenAI, "Supported schemas"):
 *  - the root is an object (not anyOf);
 *  - every object lists all its properties in `required` and has `additionalProperties: false`
 *    (an optional field is a required one the model may fill with a value the parser ignores, or
 *    `anyOf [T, null]`);
 *  - only these keywords: type, properties, required, additionalProperties, items, enum, anyOf,
 *    $defs, $ref, description, title, minItems, maxItems, minimum, maximum, exclusiveMinimum,
 *    exclusiveMaximum, multipleOf (no default, minLength, maxLength, pattern, format, allOf, not,
 *    const, …: `const` is rewritten to a one-value enum);
 *  - every node says what it is (type, enum, anyOf or $ref: no `{}` "anything" node);
 *  - at most 10 levels of nesting, 5,000 properties and 1,000 enum values in all.
 * A closed set (option letters, labels, argument ids) must be an enum; that is the zod schema's
 * job (agents/*: z.enum), checked by the property and contract-fuzzing tests.
 */

type Json = Record<string, unknown>;

const KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'anyOf',
  '$defs',
  '$ref',
  'description',
  'title',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
]);
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
export const STRICT_LIMITS = { depth: 10, properties: 5000, enumValues: 1000 } as const;

const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** `schema` (a rendered JSON Schema) rewritten into the strict subset; unfixable nodes are left for `strictSchemaProblems` to name. */
export function toStrictSchema(schema: Json): Json {
  const visit = (node: unknown): unknown => {
    if (!isObj(node)) return node;
    const out: Json = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === 'const') out.enum = [v];
      else if (k === 'properties' && isObj(v)) out.properties = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, visit(s)]));
      else if (k === '$defs' && isObj(v)) out.$defs = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, visit(s)]));
      else if (k === 'items') out.items = visit(v);
      else if (k === 'anyOf' && Array.isArray(v)) out.anyOf = v.map(visit);
      else if (KEYWORDS.has(k) && k !== 'additionalProperties' && k !== 'required') out[k] = v;
    }
    const isObject = out.type === 'object' || (Array.isArray(out.type) && out.type.includes('object')) || isObj(out.properties);
    if (isObject) {
      out.type ??= 'object';
      out.properties ??= {};
      out.required = Object.keys(out.properties as Json);
      out.additionalProperties = false;
    }
    return out;
  };
  return visit(schema) as Json;
}

/** What keeps `schema` out of the strict subset ("path: problem"); empty when it is strict-clean. */
export function strictSchemaProblems(schema: unknown): string[] {
  const problems: string[] = [];
  let properties = 0;
  let enumValues = 0;
  const root = isObj(schema) ? schema : {};
  if (!isObj(schema)) return ['(root): not a JSON object schema'];
  if (schema.type !== 'object') problems.push(`(root): type must be "object" (got ${JSON.stringify(schema.type ?? (schema.anyOf ? 'anyOf' : null))})`);
  const visit = (node: unknown, path: string, depth: number): void => {
    if (!isObj(node)) return void problems.push(`${path}: not a schema object`);
    if (depth > STRICT_LIMITS.depth) problems.push(`${path}: nested deeper than ${STRICT_LIMITS.depth} levels`);
    for (const k of Object.keys(node)) if (!KEYWORDS.has(k)) problems.push(`${path}: keyword "${k}" is not supported`);
    if (!('type' in node) && !('enum' in node) && !('anyOf' in node) && !('$ref' in node))
      problems.push(`${path}: says nothing about the value (no type, enum, anyOf or $ref)`);
    const types = node.type === undefined ? [] : Array.isArray(node.type) ? node.type : [node.type];
    for (const t of types) if (typeof t !== 'string' || !TYPES.has(t)) problems.push(`${path}: unknown type ${JSON.stringify(t)}`);
    if (node.enum !== undefined) {
      if (!Array.isArray(node.enum) || node.enum.length === 0) problems.push(`${path}: enum must be a non-empty array`);
      else {
        enumValues += node.enum.length;
        for (const v of node.enum) if (v !== null && typeof v === 'object') problems.push(`${path}: enum values must be primitives`);
      }
    }
    if (typeof node.$ref === 'string') {
      const target = node.$ref
        .replace(/^#\/?/, '')
        .split('/')
        .filter(Boolean)
        .reduce<unknown>((o, k) => (isObj(o) ? o[k] : undefined), root);
      if (!isObj(target)) problems.push(`${path}: $ref ${node.$ref} does not resolve`);
    }
    if (types.includes('object') || 'properties' in node) {
      const props = isObj(node.properties) ? node.properties : undefined;
      if (!props) problems.push(`${path}: object without properties`);
      if (node.additionalProperties !== false) problems.push(`${path}: additionalProperties must be false`);
      const keys = Object.keys(props ?? {});
      properties += keys.length;
      const req = Array.isArray(node.required) ? node.required : [];
      const missing = keys.filter((k) => !req.includes(k));
      if (missing.length) problems.push(`${path}: properties not in required: ${missing.join(', ')}`);
      for (const k of keys) visit(props![k], `${path}.${k}`, depth + 1);
    }
    if (types.includes('array')) {
      if (!('items' in node)) problems.push(`${path}: array without items`);
      else visit(node.items, `${path}[]`, depth + 1);
    }
    if (node.anyOf !== undefined) {
      if (!Array.isArray(node.anyOf) || node.anyOf.length === 0) problems.push(`${path}: anyOf must be a non-empty array`);
      else node.anyOf.forEach((s, i) => visit(s, `${path}.anyOf[${i}]`, depth + 1));
    }
    if (isObj(node.$defs)) for (const [k, s] of Object.entries(node.$defs)) visit(s, `${path}.$defs.${k}`, depth + 1);
  };
  visit(schema, '(root)', 1);
  if (properties > STRICT_LIMITS.properties) problems.push(`(root): ${properties} properties (at most ${STRICT_LIMITS.properties})`);
  if (enumValues > STRICT_LIMITS.enumValues) problems.push(`(root): ${enumValues} enum values (at most ${STRICT_LIMITS.enumValues})`);
  return problems;
}
