/**
 * The analyzer: text → index terms. One configuration is recorded in the index manifest and the
 * same analyzer is rebuilt from it at query time, so documents and queries are analysed alike.
 *
 * Steps: Unicode-aware tokenizing (a token is a run of letters, digits and combining marks,
 * \p{L}\p{N}\p{M}, starting with a letter or digit; text with non-ASCII characters is NFC-normalised
 * first), lowercasing, English stopwords (the `stopword` package's English list, matched on the
 * lowercased surface form), then Porter (`stemmer`) or Snowball English (`snowball-stemmers`) stemming.
 * Lone surrogates and U+FFFD (what invalid UTF-8 decodes to) are separators, never crashes.
 *
 * Presets: `{ preset: "lucene" }` is Lucene's English chain as Anserini uses it (lucene-analyzer.ts);
 * `resolveAnalyzerConfig` expands a preset into the settings the manifest records.
 */
import { createRequire } from 'node:module';
import { stemmer as porterStem } from 'stemmer';
import { eng as STOPWORD_ENG } from 'stopword/src/stopwords_eng.js';
import { resolveAnalyzerConfig, type AnalyzerConfig } from './analyzer-config.js';
import { LUCENE_ENGLISH_STOPWORDS, luceneTerm, scanStandard } from './lucene-analyzer.js';

export interface Analyzer {
  config: AnalyzerConfig;
  /** Index terms of `text`, in order, with repeats. */
  tokens(text: string): string[];
  /** Call `emit` with every raw (lowercased, unstemmed, unfiltered) token of `text`. */
  scan(text: string, emit: (raw: string) => void): void;
  /** Raw token → index term, or null when it is a stopword or too short. Cached. */
  term(raw: string): string | null;
}

const require = createRequire(import.meta.url);

let englishStopwords: Set<string> | undefined;
/** The `stopword` package's English list (108 words; its own file, not the 62-language bundle: indexer/stopword-eng.d.ts). */
export function englishStopwordList(): Set<string> {
  if (!englishStopwords) englishStopwords = new Set<string>(STOPWORD_ENG);
  return englishStopwords;
}

type Stem = (word: string) => string;
function makeStemmer(kind: AnalyzerConfig['stemmer']): Stem {
  if (kind === 'porter') return porterStem;
  if (kind === 'snowball') {
    const sb = require('snowball-stemmers') as { newStemmer(lang: string): { stem(w: string): string } };
    const s = sb.newStemmer('english');
    return (w) => s.stem(w);
  }
  return (w) => w;
}

// Character classes: 1 = starts/continues a token (letter, digit), 2 = continues only (mark), 0 = separator.
const ASCII = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)) ASCII[c] = 1;
}
const classCache = new Map<number, number>();
const LN = /^[\p{L}\p{N}]$/u;
const MARK = /^\p{M}$/u;
function charClass(cp: number): number {
  if (cp < 128) return ASCII[cp];
  let k = classCache.get(cp);
  if (k === undefined) {
    const ch = String.fromCodePoint(cp);
    k = LN.test(ch) ? 1 : MARK.test(ch) ? 2 : 0;
    if (classCache.size < 100_000) classCache.set(cp, k);
  }
  return k;
}

// eslint-disable-next-line no-control-regex
const NON_ASCII = /[^\x00-\x7f]/;

/** Call `emit` for every token of `text` (no case folding here). */
export function scanTokens(text: string, emit: (raw: string) => void): void {
  if (NON_ASCII.test(text)) text = text.normalize('NFC');
  const n = text.length;
  let start = -1;
  for (let i = 0; i < n; i++) {
    let cp = text.charCodeAt(i);
    let width = 1;
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n) {
      const lo = text.charCodeAt(i + 1);
      if (lo >= 0xdc00 && lo <= 0xdfff) {
        cp = (cp - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000;
        width = 2;
      }
    }
    const k = charClass(cp);
    if (k === 1 || (k === 2 && start >= 0)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      emit(text.slice(start, i));
      start = -1;
    }
    i += width - 1;
  }
  if (start >= 0) emit(text.slice(start));
}

const TERM_CACHE_MAX = 500_000;

export { resolveAnalyzerConfig };

/** Cache raw token → term (null: dropped). */
function cachedTerm(f: (raw: string) => string | null): (raw: string) => string | null {
  const cache = new Map<string, string | null>();
  return (raw) => {
    let t = cache.get(raw);
    if (t === undefined) {
      t = f(raw);
      if (cache.size >= TERM_CACHE_MAX) cache.clear();
      cache.set(raw, t);
    }
    return t;
  };
}

function analyzerOf(config: AnalyzerConfig, scan: Analyzer['scan'], term: Analyzer['term']): Analyzer {
  return {
    config,
    scan,
    term,
    tokens(text: string): string[] {
      const out: string[] = [];
      scan(text, (raw) => {
        const t = term(raw);
        if (t !== null) out.push(t);
      });
      return out;
    },
  };
}

export function createAnalyzer(cfg: Partial<AnalyzerConfig> = {}): Analyzer {
  const config = resolveAnalyzerConfig(cfg);
  if (config.preset === 'lucene') return analyzerOf(config, scanStandard, cachedTerm(luceneTerm));
  const stop = config.stopwords === 'english' ? englishStopwordList() : config.stopwords === 'lucene' ? LUCENE_ENGLISH_STOPWORDS : new Set<string>();
  const stem = makeStemmer(config.stemmer);
  const minLen = config.minTokenLength;
  const lower = config.lowercase;
  return analyzerOf(
    config,
    scanTokens,
    cachedTerm((raw) => {
      const folded = lower ? raw.toLowerCase() : raw;
      if (stop.has(lower ? folded : folded.toLowerCase()) || folded.length < minLen) return null;
      const t = stem(folded);
      return t.length === 0 ? null : t;
    }),
  );
}
