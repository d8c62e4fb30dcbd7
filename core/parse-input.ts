/**
 * Parse a request's input with its zod schema, as every JSON surface does (the query service behind
 * MCP and /v1, /v1/run, the explorer's request bodies): an unknown field (a typo like `kk`, `quey`,
 * `filters.source`) is named first — a typo also leaves its field missing, and the typo is what to
 * name — with the closest field and the fields taken; else the first issue, naming its field. One
 * INVALID_INPUT LexcaseError (`details.field`), which every surface answers with 400 / a tool error.
 */
import type { z } from 'zod';
import { didYouMean } from './did-you-mean.js';
import { LexcaseError } from './errors.js';

type Def = { innerType?: unknown; element?: unknown; discriminator?: string; options?: unknown[] };
const defOf = (s: unknown): Def | undefined => (s as { def?: Def } | undefined)?.def;
const shapeOf = (s: unknown) => (s as { shape?: Record<PropertyKey, unknown> } | undefined)?.shape;

/**
 * The object schema at `path` of `schema` (optional / default wrappers unwrapped, an array index its
 * element; a discriminated union's option picked by the value's discriminator, another union's object
 * option), or undefined.
 */
function objectAt(schema: z.ZodType, path: readonly PropertyKey[], value: unknown): Record<PropertyKey, unknown> | undefined {
  let s: unknown = schema;
  let v = value;
  const unwrap = () => {
    while (defOf(s)?.innerType) s = defOf(s)!.innerType;
    const d = defOf(s);
    if (d?.discriminator && d.options) {
      const tag = (v as Record<string, unknown> | undefined)?.[d.discriminator];
      s = d.options.find((o) => (shapeOf(o)?.[d.discriminator!] as { def?: { values?: unknown[] } } | undefined)?.def?.values?.includes(tag));
    } else if (d?.options) s = d.options.find((o) => shapeOf(o)); // a union of a flag and an object (rm3: true | {…}): the object
  };
  unwrap();
  for (const p of path) {
    s = typeof p === 'number' ? defOf(s)?.element : shapeOf(s)?.[p]; // relations.0: the array's element
    v = (v as Record<PropertyKey, unknown> | undefined)?.[p];
    unwrap();
  }
  return shapeOf(s);
}

/** Parse with zod; an unknown field, else the first issue, becomes one INVALID_INPUT error naming the field. */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const issue = r.error.issues.find((i) => i.code === 'unrecognized_keys') ?? r.error.issues[0];
  if (issue.code === 'unrecognized_keys') {
    // A typo must not be ignored (filters.source for filters.sources would drop the filter): name it and what is taken.
    const field = [...issue.path, issue.keys[0]].join('.');
    const known = Object.keys(objectAt(schema, issue.path, value) ?? {});
    const hint = known.length
      ? `; ${didYouMean(issue.keys[0], known)}${where} takes ${issue.path.length ? `${issue.path.join('.')}.` : ''}{${known.join(', ')}}`
      : '';
    throw new LexcaseError('INVALID_INPUT', `${where}: unknown field "${field}"${hint}`, { field });
  }
  const field = issue.path.length ? issue.path.join('.') : '(root)';
  throw new LexcaseError('INVALID_INPUT', `${where}: field "${field}": ${issue.message}`, { field });
}
