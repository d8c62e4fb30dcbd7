/**
 * An invisible format character inside a word: a soft hyphen (U+00AD: text from PDFs, HTML's
 * &shy;), a zero-width space (U+200B), a word joiner (U+2060), U+FEFF or a bidirectional control
 * (U+202E …) between two letters or digits. The default analyzer ends a token there
 * ("con\u00adtract" is the terms "con" and "tract"), the lucene preset keeps it inside the term (as
 * Lucene does): either way the word is not the word a user types. Counted between Latin, Greek and
 * Cyrillic letters and digits only (Thai, Khmer and CJK text writes U+200B between words, where
 * splitting is right); ZWJ and ZWNJ (U+200C/U+200D), which Persian and Indic scripts write inside
 * words and emoji sequences use, are not counted. Nothing is changed: index build (the passages,
 * indexer/corpus-notes.ts) and loadTopics (the queries) say where they are.
 */
const FORMAT_CHARS = '\\u00ad\\u061c\\u180e\\u200b\\u200e\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufeff';
const FORMAT_CHAR = new RegExp(`[${FORMAT_CHARS}]`);
// Letters of the scripts that separate words with spaces, digits, and marks after them.
const WORD_CHAR = '\\p{Script=Latin}\\p{Script=Greek}\\p{Script=Cyrillic}\\p{N}';
const FORMAT_IN_WORD = new RegExp(`[${WORD_CHAR}\\p{M}][${FORMAT_CHARS}]+[${WORD_CHAR}]`, 'u');
const WORD_PART = new RegExp(`[\\p{L}\\p{N}\\p{M}${FORMAT_CHARS}]`, 'u');

/** The first word of `text` with an invisible format character inside it (at most 40 characters each side of it), or undefined. */
export function formatCharWord(text: string): string | undefined {
  if (!FORMAT_CHAR.test(text)) return undefined;
  const m = FORMAT_IN_WORD.exec(text);
  if (!m) return undefined;
  const at = m.index;
  let start = at;
  let end = at + m[0].length;
  while (start > 0 && at - start < 40 && WORD_PART.test(text[start - 1])) start--;
  while (end < text.length && end - at < 40 && WORD_PART.test(text[end])) end++;
  return text.slice(start, end);
}

/** The word as ASCII: its invisible characters (and any other non-ASCII one) written as \uXXXX. */
export const visibleWord = (word: string): string => word.replace(/[^\u0020-\u007e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
