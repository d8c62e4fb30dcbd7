/**
 * The fingerprint of what a run sends that decides its results, beside its settings: the prompt
 * templates, the structured-output schemas and the tool definitions its system (or variant) uses.
 * Each system names them (agents/<system>/requests.ts), rendered on a fixed probe input — never an
 * item — so the value depends on the templates only; this module hashes them, one way for every
 * system. config.json records it as `prompts`:
 *
 *   { "sha256": "<all parts>", "parts": { "<part>": "<16 hex digits>", ... } }
 *
 * so a resume (eval/runner.ts) under changed prompts or schemas is refused like any other changed
 * field, naming the part that changed (`prompts.parts.answer`), and `lexcase merge` refuses shards
 * that sent different ones. A zod schema is hashed as the JSON Schema sent to an endpoint
 * (core/llm/json-schema.ts), a tool as its name, description and parameters; text as it is.
 */
import { createHash } from 'node:crypto';
import { jsonSchemaFor } from '../core/llm/json-schema.js';
import { stableJson } from './resume-config.js';

/** A part: text, a zod schema, a tool ({name, description, schema}), or a list or record of parts. */
export type RequestParts = Record<string, unknown>;

export interface RequestFingerprint {
  sha256: string;
  parts: Record<string, string>;
}

const isZod = (v: unknown): v is Parameters<typeof jsonSchemaFor>[0] => !!v && typeof v === 'object' && '_zod' in v;
const isTool = (v: unknown): v is { name: string; description: string; schema: unknown } =>
  !!v && typeof v === 'object' && typeof (v as { name?: unknown }).name === 'string' && 'schema' in v && 'description' in v;

/** What a part is as JSON: the schema as sent, a tool as its definition; functions are not parts. */
function canonical(v: unknown): unknown {
  if (isZod(v)) return jsonSchemaFor(v);
  if (isTool(v)) return { tool: v.name, description: v.description, parameters: canonical(v.schema) };
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, canonical(x)]));
  if (typeof v === 'function') throw new TypeError('a request part is text, a schema or a tool, not a function');
  return v;
}

const hash = (v: unknown) => createHash('sha256').update(stableJson(v)).digest('hex');

/** The fingerprint of `parts` (config.json `prompts`): one hash over all of them and a short one per part. */
export function requestFingerprint(parts: RequestParts): RequestFingerprint {
  const json = canonical(parts) as Record<string, unknown>;
  return {
    sha256: hash(json),
    parts: Object.fromEntries(
      Object.keys(json)
        .sort()
        .map((k) => [k, hash(json[k]).slice(0, 16)]),
    ),
  };
}
