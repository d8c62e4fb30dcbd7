/**
 * The analyzer's settings: defaults, allowed values, and the check of a partial configuration (a
 * manifest's, `--analyzer`'s, a library caller's). Plain code, not a zod schema: createAnalyzer runs
 * on every search, and loading zod (~95 modules) costs ~0.1 s of CPU per CLI call. The manifest's
 * zod schema (manifest-schema.ts) is built from these constants, so both agree.
 */
import { errors } from '../core/errors.js';

export const STOPWORD_LISTS = ['english', 'none'] as const;
export const STEMMERS = ['porter', 'snowball', 'none'] as const;

export interface AnalyzerConfig {
  lowercase: boolean;
  stopwords: (typeof STOPWORD_LISTS)[number];
  stemmer: (typeof STEMMERS)[number];
  minTokenLength: number;
}

export const ANALYZER_DEFAULTS: Readonly<AnalyzerConfig> = { lowercase: true, stopwords: 'english', stemmer: 'porter', minTokenLength: 1 };
export const ANALYZER_KEYS = Object.keys(ANALYZER_DEFAULTS) as (keyof AnalyzerConfig)[];

/** A full configuration from a partial one: defaults for what is unset; INVALID_INPUT naming `<field>.<key>` for a bad value. Unknown keys are dropped. */
export function resolveAnalyzerConfig(cfg: Partial<Record<keyof AnalyzerConfig, unknown>> = {}, field = 'analyzer'): AnalyzerConfig {
  const out: AnalyzerConfig = { ...ANALYZER_DEFAULTS };
  const bad = (k: string, expected: string, v: unknown) => errors.invalidInput(`${field}.${k}`, `expected ${expected}, got ${JSON.stringify(v)}`);
  const { lowercase, stopwords, stemmer, minTokenLength } = cfg;
  if (lowercase !== undefined) {
    if (typeof lowercase !== 'boolean') throw bad('lowercase', 'true or false', lowercase);
    out.lowercase = lowercase;
  }
  if (stopwords !== undefined) {
    if (!(STOPWORD_LISTS as readonly unknown[]).includes(stopwords)) throw bad('stopwords', `one of ${STOPWORD_LISTS.join(', ')}`, stopwords);
    out.stopwords = stopwords as AnalyzerConfig['stopwords'];
  }
  if (stemmer !== undefined) {
    if (!(STEMMERS as readonly unknown[]).includes(stemmer)) throw bad('stemmer', `one of ${STEMMERS.join(', ')}`, stemmer);
    out.stemmer = stemmer as AnalyzerConfig['stemmer'];
  }
  if (minTokenLength !== undefined) {
    if (typeof minTokenLength !== 'number' || !Number.isInteger(minTokenLength) || minTokenLength < 1) throw bad('minTokenLength', 'an integer ≥ 1', minTokenLength);
    out.minTokenLength = minTokenLength;
  }
  return out;
}
