/**
 * One JSONL line: a value as JSON and "\n". JSON allows U+2028 and U+2029 (and U+0085) raw inside
 * a string, and JSON.stringify leaves them raw, but Python's str.splitlines() — and editors, and
 * JavaScript before ES2019 — take them for line ends, so an LLM reply holding one split its record
 * in two for a reader of the file. Escaped as \u2028, \u2029 and \u0085 (only ever inside a string,
 * since JSON has them nowhere else) the line is the same JSON value and holds no line end but its last.
 */
const SEPARATORS = /[\u0085\u2028\u2029]/g;

const escapeSeparator = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `value` as one JSONL line (ending in "\n"), with U+0085, U+2028 and U+2029 escaped; JSON.parse reads it back as `value`. */
export const jsonLine = (value: unknown): string => JSON.stringify(value).replace(SEPARATORS, escapeSeparator) + '\n';
