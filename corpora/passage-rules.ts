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
  const names: Record<string, string> = {
    ' ': 'a space',
    '\t': 'a tab',
    '\n': 'a newline',
    '\r': 'a carriage return',
    '\u0000': 'NUL',
    '\u0085': 'NEXT LINE',
    '\u2028': 'LINE SEPARATOR',
    '\u2029': 'PARAGRAPH SEPARATOR',
    '\u00a0': 'a no-break space',
  };
  return names[c] ? `${names[c]} (${hex})` : hex;
}

/** An id quoted for a message: JSON string syntax, with invisible characters (C1 controls, Unicode spaces and separators) escaped too. */
export function quoteId(id: string): string {
  return JSON.stringify(id).replace(
    /[\u007f-\u009f\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f\u3000\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * An invisible format character (Unicode category Cf): zero-width space/joiners (U+200B–U+200D),
 * the word joiner (U+2060), the soft hyphen (U+00AD), and every bidirectional control (U+200E/F,
 * U+202A–U+202E, U+2066–U+2069, U+061C). An id holding one looks exactly like the id without it
 * (or, with an RTL override, like another id spelled backwards) but names a different passage.
 */
const INVISIBLE_ID_CHAR = /\p{Cf}/u;

const FORMAT_NAMES: Record<string, string> = {
  '\u00ad': 'SOFT HYPHEN',
  '\u061c': 'ARABIC LETTER MARK',
  '\u200b': 'ZERO WIDTH SPACE',
  '\u200c': 'ZERO WIDTH NON-JOINER',
  '\u200d': 'ZERO WIDTH JOINER',
  '\u200e': 'LEFT-TO-RIGHT MARK',
  '\u200f': 'RIGHT-TO-LEFT MARK',
  '\u202a': 'LEFT-TO-RIGHT EMBEDDING',
  '\u202b': 'RIGHT-TO-LEFT EMBEDDING',
  '\u202c': 'POP DIRECTIONAL FORMATTING',
  '\u202d': 'LEFT-TO-RIGHT OVERRIDE',
  '\u202e': 'RIGHT-TO-LEFT OVERRIDE',
  '\u2060': 'WORD JOINER',
  '\u2066': 'LEFT-TO-RIGHT ISOLATE',
  '\u2067': 'RIGHT-TO-LEFT ISOLATE',
  '\u2068': 'FIRST STRONG ISOLATE',
  '\u2069': 'POP DIRECTIONAL ISOLATE',
};

/** Why `id` cannot be a passage id, or undefined when it can. */
export function idProblem(id: string): string | undefined {
  if (id.length === 0) return 'is empty';
  const m = UNSAFE_ID_CHAR.exec(id);
  if (m) {
    // eslint-disable-next-line no-control-regex
    const control = /[\u0000-\u001f\u007f-\u009f]/.test(m[0]);
    return `contains ${control ? 'a control character' : 'whitespace'}: ${describeChar(m[0])} at position ${m.index}; ids may hold no whitespace or control characters (TREC run files and qrels split on whitespace)`;
  }
  const f = INVISIBLE_ID_CHAR.exec(id);
  if (f) {
    const name = FORMAT_NAMES[f[0]];
    return `contains an invisible format character: ${describeChar(f[0])}${name ? ` ${name}` : ''} at position ${f.index}; ids may hold no zero-width or bidirectional control characters (the id would look like another one and name a different passage)`;
  }
  return undefined;
}

/** The key under which two ids count as the same: their Unicode NFC form (ASCII ids as they are). */
export function idKey(id: string): string {
  // eslint-disable-next-line no-control-regex
  return /[^\u0000-\u007f]/.test(id) ? id.normalize('NFC') : id;
}

/**
 * Why a JSON number read from the text `raw` cannot be an id although its value can (`1.0`, `1e3`,
 * `-0`: JavaScript reads them as 1, 1000, 0, Python keeps 1.0): the id would not keep the text form
 * the file holds, and would collide with the passage whose id really is `1`. Undefined when `raw`
 * is the number's own text.
 */
export function rawNumberIdProblem(value: number, raw: string): string | undefined {
  if (raw === String(value)) return undefined;
  return `is the JSON number ${raw}, which is read as ${String(value)}: the id would not keep the text the file holds (and would be the same id as ${String(value)}); write it as a string, e.g. "${raw}"`;
}

/** Why a non-string id value (a JSON number, a boolean) cannot be an id, or undefined when it can be read as one exactly. */
export function idValueProblem(v: unknown): string | undefined {
  if (typeof v === 'boolean') return `must be a string or a number, got a boolean (${v})`;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) return `must be a string or a finite number, got ${v}`;
    if (!Number.isInteger(v)) return `is a non-integer number (${v}); write the id as a string`;
    if (!Number.isSafeInteger(v))
      return `is a number beyond 2^53 (read as ${BigInt(v)}), which JSON numbers cannot hold exactly; write the id as a string, e.g. "12345678901234567890"`;
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
