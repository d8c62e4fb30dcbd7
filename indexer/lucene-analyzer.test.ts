/**
 * The lucene analyzer preset without Lucene at hand (tests/lucene/ compares with Lucene itself):
 * its direct scanner for Latin text gives the same tokens as the Intl.Segmenter path on random
 * strings; the chain's steps (possessive, Java lowercase, 33 stopwords, Lucene's Porter) on the
 * cases Lucene's code defines; the preset is fixed, recorded in the manifest, and rebuilt at query
 * time from it.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createAnalyzer, resolveAnalyzerConfig } from './analyzer.js';
import { buildIndex } from './build.js';
import { fromArray, tempDir, texts } from './build-test-helpers.js';
import { readManifest, LUCENE_ANALYZER_PRESET } from './manifest.js';
import { javaLowerCase, LUCENE_ENGLISH_STOPWORDS, luceneTerm, stripPossessive } from './lucene-analyzer.js';
import { LUCENE_MAX_TOKEN_LENGTH, scanIcu, scanStandard } from './lucene-tokenizer.js';
import { closeSparseIndexes, openRetriever } from '../retrieval/open.js';

const tokens = (scan: (t: string, e: (r: string) => void) => void, text: string) => {
  const out: string[] = [];
  scan(text, (t) => out.push(t));
  return out;
};

const tmp = tempDir('lexcase-lucene-an-');
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

describe('StandardTokenizer (lucene-tokenizer.ts)', () => {
  it('the direct scanner gives the Intl.Segmenter tokens on random Latin text with the punctuation UAX #29 treats specially', () => {
    const alphabet = [..."abzAZ019_.':,;-/$%@ \n\t", '·', '’', '‘', '\u00ad', '\u0301', 'é', 'ß', '“', '”', '—', '§', '\u00a0'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 60 }), (chars) => {
        const text = chars.join('');
        expect(tokens(scanStandard, text)).toEqual(tokens(scanIcu, text));
      }),
      { numRuns: 3000, seed: 29 },
    );
  });

  it('words, numbers, possessives and abbreviations as UAX #29 keeps them', () => {
    expect(tokens(scanStandard, "U.S. v. O'Brien's 1,000.50 F.3d e.g. foo_bar 12:30 a:b well-known plaintiff’s")).toEqual([
      'U.S',
      'v',
      "O'Brien's",
      '1,000.50',
      'F',
      '3d',
      'e.g',
      'foo_bar',
      '12',
      '30',
      'a:b',
      'well',
      'known',
      'plaintiff’s',
    ]);
    expect(tokens(scanStandard, '___ _x 1_000')).toEqual(['_x', '1_000']);
  });

  it('Lucene-specific tokens: emoji and © are tokens, one token per Han ideograph, Thai runs whole', () => {
    expect(tokens(scanStandard, 'Acme© 👍🏽 🇺🇸')).toEqual(['Acme', '©', '👍🏽', '🇺🇸']);
    expect(tokens(scanStandard, '中华人民 ไทยabc')).toEqual(['中', '华', '人', '民', 'ไทย', 'abc']);
  });

  it("tokens longer than 255 are cut where Lucene's 255-character window cuts them", () => {
    expect(tokens(scanStandard, 'a'.repeat(510)).map((t) => t.length)).toEqual([255, 255]);
    // The window ends inside "'s": the apostrophe cannot end a word, so the token stops before it and "s" starts afresh.
    expect(tokens(scanStandard, `${'a'.repeat(254)}'s x`)).toEqual(['a'.repeat(254), 's', 'x']);
    expect(tokens(scanStandard, '𝐀'.repeat(130)).map((t) => t.length)).toEqual([254, 6]);
    expect(LUCENE_MAX_TOKEN_LENGTH).toBe(255);
  });
});

describe('the chain (lucene-analyzer.ts)', () => {
  it("EnglishPossessiveFilter strips 's, ’s, ＇s (s or S) and nothing else", () => {
    expect(["dog's", "DOG'S", 'dog’s', 'dog＇s', "dogs'", "'s", 's', "o'brien"].map(stripPossessive)).toEqual([
      'dog',
      'DOG',
      'dog',
      'dog',
      "dogs'",
      '',
      's',
      "o'brien",
    ]);
  });

  it("LowerCaseFilter is Java's Character.toLowerCase per code point: İ → i, Σ → σ even at a word's end", () => {
    expect(javaLowerCase('İSTANBUL')).toBe('istanbul');
    expect(javaLowerCase('ΣΟΦΙΑΣ')).toBe('σοφιασ');
    expect('ΣΟΦΙΑΣ'.toLowerCase()).toBe('σοφιας'); // what JS alone would do
  });

  it("the 33 stopwords of Lucene's EnglishAnalyzer, and Lucene's Porter (ies → i, not ie)", () => {
    expect(LUCENE_ENGLISH_STOPWORDS.size).toBe(33);
    for (const w of ['the', 'no', 'not', 'will', 'such', 'there']) expect(luceneTerm(w)).toBeNull();
    for (const w of ['what', 'which', 'about', 'more']) expect(luceneTerm(w)).not.toBeNull();
    expect(['ies', 'sses', 'caresses', 'ponies', 'relational', 'generalization', 'plaintiff’s'].map(luceneTerm)).toEqual([
      'i',
      'ss',
      'caress',
      'poni',
      'relat',
      'gener',
      'plaintiff',
    ]);
  });

  it('the preset is fixed: its settings fill in, a conflicting setting is refused', () => {
    expect(resolveAnalyzerConfig({ preset: 'lucene' })).toEqual(LUCENE_ANALYZER_PRESET);
    expect(() => resolveAnalyzerConfig({ preset: 'lucene', stemmer: 'snowball' })).toThrow(/lucene preset.*cannot be combined with stemmer=snowball/);
    expect(resolveAnalyzerConfig({ stopwords: 'lucene' })).toMatchObject({ stopwords: 'lucene', stemmer: 'porter' });
    expect(resolveAnalyzerConfig({}).preset).toBeUndefined();
  });

  it('the manifest records the preset, and queries are analysed with it (a stopword of the default list is a term here)', async () => {
    const dir = `${tmp.dir}/lucene`;
    await buildIndex(fromArray(texts(['What the plaintiff’s claims were about', 'more claims', 'nothing'])), {
      out: dir,
      corpusName: 't',
      workers: 0,
      analyzer: { preset: 'lucene' },
    });
    expect((await readManifest(dir)).analyzer).toEqual(LUCENE_ANALYZER_PRESET);
    const hits = await (await openRetriever(dir, 'bm25', { scorer: 'lucene' })).search('about', { k: 3 });
    expect(hits.map((h) => h.id)).toEqual(['d0']);
    expect(createAnalyzer({ preset: 'lucene' }).tokens('What the plaintiff’s claims were about')).toEqual(['what', 'plaintiff', 'claim', 'were', 'about']);
  });
});
