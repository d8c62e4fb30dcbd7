/**
 * The rules every passage obeys, whichever loader produced it (JSONL, CSV/TSV, Parquet, or an array
 * handed to buildIndex): ids are non-empty strings with no whitespace and no control characters —
 * TREC run files and qrels are split on whitespace, so an id with a space, a tab, U+0085 (NEXT
 * LINE), U+2028/U+2029 or a no-break space breaks `search --run-file` and `eval run` later — and
 * texts are strings. A numeric id must be an integer JSON numbers keep exactly (|n| ≤ 2^53 − 1):
 * `12345678901234567890` is read back as 12345678901234567000 by every JSON parser, so it is
 * refused rather than indexed under a number the file never held; booleans are not ids.
 */

/** Whitespace (any Unicode space or line/paragraph separator) or a control character (C0, DEL, C1). */
// eslint-disable-next-line no-control-regex
const UNSAFE_ID_CHAR = /[\s\u0000-\u001f\u007f-\u009f\u2028\u2029\p{Zs}]/u;

function describeChar(c: string): string {
  const hex = `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  const names: Record<string, string> = { ' ': 'a space', '\t': 'a tab', '\n': 'a newline', '\r': 'a carriage return', '\u0000': 'NUL', '\u0085': 'NEXT LINE', '\u2028': 'LINE SEPARATOR', '\u2029': 'PARAGRAPH SEPARATOR', '\u00a0': 'a no-break space' };
  return names[c] ? `${names[c]} (${hex})` : hex;
}

/** An id quoted for a message: JSON string syntax, with invisible characters (C1 controls, Unicode spaces and separators) escaped too. */
export function quoteId(id: string): string {
  return JSON.stringify(id).replace(/[\u007f-\u009f\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f\u3000\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Why `id` cannot be a passage id, or undefined when it can. */
export function idProblem(id: string): string | undefined {
  if (id.length === 0) return 'is empty';
  const m = UNSAFE_ID_CHAR.exec(id);
  if (m) {
    // eslint-disable-next-line no-control-regex
    const control = /[\u0000-\u001f\u007f-\u009f]/.test(m[0]);
    return `contains ${control ? 'a control character' : 'whitespace'}: ${describeChar(m[0])} at position ${m.index}; ids may hold no whitespace or control characters (TREC run files and qrels split on whitespace)`;
  }
  return undefined;
}

/** Why a non-string id value (a JSON number, a boolean) cannot be an id, or undefined when it can be read as one exactly. */
export function idValueProblem(v: unknown): string | undefined {
  if (typeof v === 'boolean') return `must be a string or a number, got a boolean (${v})`;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return `must be a string or a finite number, got ${v}`;
    if (!Number.isInteger(v)) return `is a non-integer number (${v}); write the id as a string`;
    if (!Number.isSafeInteger(v)) return `is a number beyond 2^53 (read as ${BigInt(v)}), which JSON numbers cannot hold exactly; write the id as a string, e.g. "12345678901234567890"`;
  }
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
