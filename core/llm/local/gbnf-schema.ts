/**
 * The JSON Schema of a request (a response format, a tool's parameters) as the schema
 * node-llama-cpp turns into a llama.cpp grammar (its GbnfJsonSchema: type, properties, items,
 * enum, const, oneOf, $defs/$ref, minItems/maxItems, minLength/maxLength, a date format).
 *
 *  - anyOf becomes oneOf (for a grammar both are "one of these shapes");
 *  - an integer with both bounds and at most 256 values becomes the enum of those integers, so the
 *    grammar keeps it in range; other numeric bounds (and multipleOf) are dropped: the grammar
 *    cannot express them, and lexcase validates every parsed value anyway (structured.ts clamps a
 *    number outside an inclusive bound and counts it, bound-repair.ts);
 *  - every property of an object is written (the grammar makes all of them required, which any
 *    schema allows), and no other key (additionalProperties is closed);
 *  - title, $schema, default, examples and other annotations are dropped.
 * A node the grammar cannot take (allOf, not, a node that says nothing of its value, a $ref
 * outside #/$defs) throws, naming its path: tests walk every schema lexcase sends through this.
 */

export type Json = Record<string, unknown>;

const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
const BASIC = new Set(['string', 'number', 'integer', 'boolean', 'null']);
const DATE_FORMATS = new Set(['date-time', 'time', 'date']);
/** The most integers a bounded integer is spelled out as (an enum); wider ranges are unbounded in the grammar. */
export const MAX_INTEGER_ENUM = 256;

export class GrammarSchemaError extends Error {
  constructor(path: string, problem: string) {
    super(`${path}: ${problem}`);
    this.name = 'GrammarSchemaError';
  }
}

function integerRange(node: Json): number[] | undefined {
  let lo = typeof node.minimum === 'number' ? Math.ceil(node.minimum) : undefined;
  let hi = typeof node.maximum === 'number' ? Math.floor(node.maximum) : undefined;
  if (typeof node.exclusiveMinimum === 'number') lo = Math.max(lo ?? -Infinity, Math.floor(node.exclusiveMinimum) + 1);
  if (typeof node.exclusiveMaximum === 'number') hi = Math.min(hi ?? Infinity, Math.ceil(node.exclusiveMaximum) - 1);
  if (lo === undefined || hi === undefined || !Number.isFinite(lo) || !Number.isFinite(hi) || hi < lo || hi - lo + 1 > MAX_INTEGER_ENUM) return undefined;
  const step = typeof node.multipleOf === 'number' && Number.isInteger(node.multipleOf) && node.multipleOf > 0 ? node.multipleOf : 1;
  const out: number[] = [];
  for (let v = lo; v <= hi; v++) if (v % step === 0) out.push(v);
  return out.length ? out : undefined;
}

function typed(node: Json, type: string, path: string, convert: (n: unknown, p: string) => Json): Json {
  const d = typeof node.description === 'string' ? { description: node.description } : {};
  switch (type) {
    case 'object': {
      const props = isObj(node.properties) ? node.properties : {};
      const out: Json = { type: 'object', properties: Object.fromEntries(Object.entries(props).map(([k, v]) => [k, convert(v, `${path}.${k}`)])), ...d };
      if (Object.keys(props).length === 0 && isObj(node.additionalProperties)) out.additionalProperties = convert(node.additionalProperties, `${path}{}`);
      return out;
    }
    case 'array': {
      const out: Json = { type: 'array', ...d };
      if (node.items !== undefined) {
        if (Array.isArray(node.items)) out.prefixItems = node.items.map((s, i) => convert(s, `${path}[${i}]`));
        else out.items = convert(node.items, `${path}[]`);
      }
      if (Array.isArray(node.prefixItems)) out.prefixItems = node.prefixItems.map((s, i) => convert(s, `${path}[${i}]`));
      if (typeof node.minItems === 'number') out.minItems = node.minItems;
      if (typeof node.maxItems === 'number') out.maxItems = node.maxItems;
      return out;
    }
    case 'string': {
      if (typeof node.format === 'string' && DATE_FORMATS.has(node.format)) return { type: 'string', format: node.format, ...d };
      const out: Json = { type: 'string', ...d };
      if (typeof node.minLength === 'number') out.minLength = node.minLength;
      if (typeof node.maxLength === 'number') out.maxLength = node.maxLength;
      return out;
    }
    case 'integer': {
      const values = integerRange(node);
      return values ? { enum: values, ...d } : { type: 'integer', ...d };
    }
    case 'number':
    case 'boolean':
    case 'null':
      return { type, ...d };
    default:
      throw new GrammarSchemaError(path, `unknown type ${JSON.stringify(type)}`);
  }
}

/** `schema` (JSON Schema) as node-llama-cpp's grammar schema; throws GrammarSchemaError naming what it cannot take. */
export function grammarSchemaFor(schema: unknown): Json {
  const root = isObj(schema) ? schema : undefined;
  if (!root) throw new GrammarSchemaError('(root)', 'not a JSON Schema object');
  const convert = (node: unknown, path: string): Json => {
    if (node === true) throw new GrammarSchemaError(path, 'an "anything" schema (true) has no grammar');
    if (!isObj(node)) throw new GrammarSchemaError(path, 'not a schema object');
    for (const k of ['allOf', 'not', 'if', 'patternProperties', 'dependentSchemas'])
      if (k in node) throw new GrammarSchemaError(path, `keyword "${k}" has no grammar`);
    const d = typeof node.description === 'string' ? { description: node.description } : {};
    const defs = isObj(node.$defs) ? { $defs: Object.fromEntries(Object.entries(node.$defs).map(([k, v]) => [k, convert(v, `${path}.$defs.${k}`)])) } : {};
    if (typeof node.$ref === 'string') {
      if (!node.$ref.startsWith('#/$defs/')) throw new GrammarSchemaError(path, `$ref ${node.$ref} is not under #/$defs/`);
      return { $ref: node.$ref, ...d, ...defs };
    }
    if ('const' in node) return { const: node.const as never, ...d, ...defs };
    if (Array.isArray(node.enum)) {
      if (node.enum.length === 0) throw new GrammarSchemaError(path, 'an empty enum allows no value');
      if (node.enum.some((v) => v !== null && typeof v === 'object')) throw new GrammarSchemaError(path, 'enum values must be primitives');
      return { enum: node.enum, ...d, ...defs };
    }
    const alternatives = (Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined) as unknown[] | undefined;
    if (alternatives) {
      if (alternatives.length === 0) throw new GrammarSchemaError(path, 'anyOf/oneOf without alternatives');
      if (node.type !== undefined || node.properties !== undefined)
        throw new GrammarSchemaError(path, 'a type or properties beside anyOf/oneOf (narrowing every alternative) has no grammar');
      return { oneOf: alternatives.map((a, i) => convert(a, `${path}|${i}`)), ...d, ...defs };
    }
    const types = node.type === undefined ? (isObj(node.properties) ? ['object'] : []) : Array.isArray(node.type) ? (node.type as unknown[]) : [node.type];
    if (types.length === 0) throw new GrammarSchemaError(path, 'says nothing about the value (no type, enum, const, anyOf or $ref)');
    if (types.some((t) => typeof t !== 'string')) throw new GrammarSchemaError(path, `unknown type ${JSON.stringify(node.type)}`);
    const ts = types as string[];
    if (ts.length === 1) return { ...typed(node, ts[0], path, convert), ...defs };
    // several types: the basic ones together when nothing else narrows them, else one alternative each
    if (ts.every((t) => BASIC.has(t) && t !== 'integer' && t !== 'string')) return { type: ts, ...d, ...defs };
    return { oneOf: ts.map((t) => typed(node, t, `${path}<${t}>`, convert)), ...d, ...defs };
  };
  return convert(root, '(root)');
}
