import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { createAnalyzer, englishStopwordList } from './analyzer.js';

describe('analyzer', () => {
  it('lowercases, drops English stopwords and Porter-stems by default', () => {
    const a = createAnalyzer();
    expect(a.config).toEqual({ lowercase: true, stopwords: 'english', stemmer: 'porter', minTokenLength: 1 });
    expect(a.tokens('The Defendant was RUNNING from the police officers')).toEqual(['defend', 'run', 'polic', 'offic']);
  });

  it('tokenizes Unicode letters and digits and splits on punctuation', () => {
    const a = createAnalyzer({ stemmer: 'none', stopwords: 'none' });
    expect(a.tokens("Über-Straße: café §1983, naïve 3.5% O'Brien")).toEqual(['über', 'straße', 'café', '1983', 'naïve', '3', '5', 'o', 'brien']);
    // Decomposed (NFD) input is normalised to the same tokens as composed input.
    expect(a.tokens('cafe\u0301')).toEqual(a.tokens('café'));
  });

  it('never crashes on invalid UTF-8 or lone surrogates: they act as separators', () => {
    const a = createAnalyzer({ stemmer: 'none' });
    const decoded = new TextDecoder().decode(Buffer.from([0x6c, 0x61, 0x77, 0xff, 0xfe, 0x63, 0x61, 0x73, 0x65, 0xc3]));
    expect(decoded).toContain('\ufffd');
    expect(a.tokens(decoded)).toEqual(['law', 'case']);
    expect(a.tokens('tort\ud800contract\udc00')).toEqual(['tort', 'contract']);
  });

  it('honours every config switch', () => {
    expect(createAnalyzer({ stopwords: 'none', stemmer: 'none' }).tokens('The rules')).toEqual(['the', 'rules']);
    expect(createAnalyzer({ lowercase: false, stemmer: 'none' }).tokens('The Rules')).toEqual(['Rules']);
    expect(createAnalyzer({ stemmer: 'snowball' }).tokens('generously')).toEqual(['generous']);
    expect(createAnalyzer({ stemmer: 'porter' }).tokens('generously')).toEqual(['gener']);
    expect(createAnalyzer({ minTokenLength: 3, stemmer: 'none' }).tokens('a an ox law')).toEqual(['law']);
  });

  it('uses the stopword package English list: exactly the main export’s `eng` (read from its own file, not the 62-language bundle)', () => {
    expect(englishStopwordList().has('the')).toBe(true);
    expect(englishStopwordList().has('court')).toBe(false);
    const main = createRequire(import.meta.url)('stopword') as { eng: string[] };
    expect([...englishStopwordList()]).toEqual([...new Set(main.eng)]);
  });
});
