/**
 * The `lucene` analyzer preset: the chain of Anserini's DefaultEnglishAnalyzer on Lucene 8 —
 *   StandardTokenizer (UAX #29 words, max 255 characters; lucene-tokenizer.ts)
 *   → EnglishPossessiveFilter (drops a trailing 's, ’s or ＇s, S in any case)
 *   → LowerCaseFilter (Java's Character.toLowerCase per code point)
 *   → StopFilter with EnglishAnalyzer.ENGLISH_STOP_WORDS_SET (the 33 words below)
 *   → PorterStemFilter (Lucene's PorterStemmer: the `porterstem` package, identical on every word
 *     tests/lucene/ checks; the `stemmer` package of the default preset differs on a few, e.g. "ies").
 * Each raw token maps to one term independently of its neighbours, so the chain fits the
 * Analyzer's scan + term split (and its term cache).
 */
import { stem as porterStem } from 'porterstem';
import { scanStandard } from './lucene-tokenizer.js';

/** Lucene's EnglishAnalyzer.ENGLISH_STOP_WORDS_SET (the StopAnalyzer list), 33 words. */
export const LUCENE_ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(' '),
);

// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

/** EnglishPossessiveFilter: strip a final ' ’ ＇ followed by s or S. */
export function stripPossessive(t: string): string {
  const n = t.length;
  if (n < 2) return t;
  const s = t.charCodeAt(n - 1);
  const q = t.charCodeAt(n - 2);
  return (s === 0x73 || s === 0x53) && (q === 0x27 || q === 0x2019 || q === 0xff07) ? t.slice(0, n - 2) : t;
}

/** Java's Character.toLowerCase, code point by code point (no final sigma, İ → i). */
export function javaLowerCase(t: string): string {
  if (!NON_ASCII.test(t)) return t.toLowerCase();
  let out = '';
  for (const ch of t) out += ch === '\u0130' ? 'i' : ch.toLowerCase();
  return out;
}

/** Raw StandardTokenizer token → index term, or null for a stopword. */
export function luceneTerm(raw: string): string | null {
  const t = javaLowerCase(stripPossessive(raw));
  if (LUCENE_ENGLISH_STOPWORDS.has(t)) return null;
  const s = porterStem(t);
  return s.length ? s : null;
}

export { scanStandard };
