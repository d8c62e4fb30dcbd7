/**
 * `value`'s keys in `like`'s order (recursively for plain objects), then any keys `like` lacks:
 * a record read back through its zod schema comes out in the schema's key order, and a results.jsonl
 * rewritten from it (a replay putting lines in the recording's order) differed byte for byte from the
 * lines as written — a replay that is to reproduce its recording's file did not.
 */
export function orderLike<T>(like: unknown, value: T): T {
  if (!isPlain(like) || !isPlain(value)) return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(like)) if (Object.hasOwn(value, k)) out[k] = orderLike(like[k], value[k]);
  for (const k of Object.keys(value)) if (!Object.hasOwn(out, k)) out[k] = value[k];
  return out as T;
}

const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;
