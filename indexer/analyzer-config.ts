/**
 * The analyzer's settings: defaults, allowed values, and the check of a partial configuration (a
 * manifest's, `--analyzer`'s, a library caller's). Plain code, not a zod schema: createAnalyzer runs
 * on every search, and loading zod (~95 modules) costs ~0.1 s of CPU per CLI call. The manifest's
 * zod schema (manifest-schema.ts) is built from these constants, so both agree.
 */
import { errors } from '../core/errors.js';

export const STOPWORD_LISTS = ['english', 'lucene', 'none'] as const;
export const ANALYZER_PRESETS = ['lucene'] as const;
export const STEMMERS = ['porter', 'snowball', 'none'] as const;

/**
 * The analyzer of an index. `preset` absent: lexcase's own analyzer with these settings. `preset:
 * "lucene"`: Lucene's StandardTokenizer → EnglishPossessiveFilter → LowerCaseFilter → StopFilter
 * (33 words) → PorterStemFilter, Anserini's chain (indexer/lucene-analyzer.ts); a fixed chain, whose
 * settings are recorded as LUCENE_ANALYZER_PRESET. Stopwords "lucene" is that 33-word list
 * (usable with lexcase's tokenizer too); "english" the `stopword` package's 108 words.
 */
export interface AnalyzerConfig {
  preset?: (typeof ANALYZER_PRESETS)[number];
  lowercase: boolean;
  stopwords: (typeof STOPWORD_LISTS)[number];
  stemmer: (typeof STEMMERS)[number];
  minTokenLength: number;
}

export const ANALYZER_DEFAULTS: Readonly<AnalyzerConfig> = { lowercase: true, stopwords: 'english', stemmer: 'porter', minTokenLength: 1 };
export const ANALYZER_KEYS = ['preset', ...Object.keys(ANALYZER_DEFAULTS)] as (keyof AnalyzerConfig)[];

/** The settings the lucene preset records (what its chain does, field by field). */
export const LUCENE_ANALYZER_PRESET: Readonly<AnalyzerConfig> = {
  preset: 'lucene',
  lowercase: true,
  stopwords: 'lucene',
  stemmer: 'porter',
  minTokenLength: 1,
};

/**
 * A full configuration from a partial one: defaults for what is unset, a preset expanded (its fixed
 * settings cannot be changed); INVALID_INPUT naming `<field>.<key>` for a bad value. Unknown keys are dropped.
 */
export function resolveAnalyzerConfig(cfg: Partial<Record<keyof AnalyzerConfig, unknown>> = {}, field = 'analyzer'): AnalyzerConfig {
  const out: AnalyzerConfig = { ...ANALYZER_DEFAULTS };
  const bad = (k: string, expected: string, v: unknown) => errors.invalidInput(`${field}.${k}`, `expected ${expected}, got ${JSON.stringify(v)}`);
  const { preset, lowercase, stopwords, stemmer, minTokenLength } = cfg;
  if (preset !== undefined) {
    if (!(ANALYZER_PRESETS as readonly unknown[]).includes(preset)) throw bad('preset', `one of ${ANALYZER_PRESETS.join(', ')}`, preset);
    const changed = (Object.keys(cfg) as (keyof AnalyzerConfig)[]).filter(
      (k) => ANALYZER_KEYS.includes(k) && cfg[k] !== undefined && cfg[k] !== LUCENE_ANALYZER_PRESET[k],
    );
    if (changed.length)
      throw errors.invalidInput(
        field,
        `the lucene preset is Lucene's fixed English chain (${Object.entries(LUCENE_ANALYZER_PRESET)
          .map(([k, v]) => `${k}=${v}`)
          .join(', ')}); it cannot be combined with ${changed.map((k) => `${k}=${String(cfg[k])}`).join(', ')}`,
      );
    return { ...LUCENE_ANALYZER_PRESET };
  }
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
    if (typeof minTokenLength !== 'number' || !Number.isInteger(minTokenLength) || minTokenLength < 1)
      throw bad('minTokenLength', 'an integer ≥ 1', minTokenLength);
    out.minTokenLength = minTokenLength;
  }
  return out;
}
