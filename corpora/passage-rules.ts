/**
 * The rules every passage obeys, whichever loader produced it (JSONL, CSV/TSV, Parquet, or an array
 * handed to buildIndex): ids are non-empty strings without control characters (a newline, tab or
 * NUL in an id breaks TREC run files and qrels later), texts are strings.
 */

/** Why `id` cannot be a passage id, or undefined when it can. */
export function idProblem(id: string): string | undefined {
  if (id.length === 0) return 'is empty';
  // eslint-disable-next-line no-control-regex
  const m = /[\u0000-\u001f\u007f]/.exec(id);
  if (m) return `contains a control character (${JSON.stringify(m[0])} at position ${m.index}); ids may not hold newlines, tabs or NUL`;
  return undefined;
}

/** A short description of a value's JSON type, for messages ("a number", "an object"). */
export function describeType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'number' || typeof v === 'bigint') return 'a number';
  if (typeof v === 'boolean') return 'a boolean';
  return typeof v;
}
