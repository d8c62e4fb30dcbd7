import { describe, expect, it } from 'vitest';
import { createAnalyzer } from '../../indexer/analyzer.js';
import { highlight, queryTerms } from './highlight.js';

describe('highlight', () => {
  const porter = createAnalyzer();

  it('marks words whose index term is a query term (stemmed), never stopwords or other words, and keeps the text intact', () => {
    const text = 'The Statements were offered, and the court stated: "Assertions of truth."';
    const terms = queryTerms(porter, 'statement offered to prove the truth asserted');
    const segs = highlight(porter, text, terms);
    expect(segs.map((s) => s[0]).join('')).toBe(text);
    expect(segs.filter((s) => s[1] !== null)).toEqual([
      ['Statements', 'statement'],
      ['offered', 'offer'],
      ['Assertions', 'assert'],
      ['truth', 'truth'],
    ]);
  });

  it('follows the index analyzer config: without stemming only exact lowercased words match', () => {
    const plain = createAnalyzer({ stemmer: 'none' });
    const segs = highlight(plain, 'Contract contracts CONTRACT', queryTerms(plain, 'contract'));
    expect(segs.filter((s) => s[1] !== null).map((s) => s[0])).toEqual(['Contract', 'CONTRACT']);
  });

  it('matches a decomposed accented word against the NFC query term, as the analyzer does', () => {
    const decomposed = 'cafe\u0301 society';
    const segs = highlight(porter, decomposed, queryTerms(porter, 'café'));
    expect(segs[0]).toEqual(['cafe\u0301', porter.tokens('café')[0]]);
    expect(segs.map((s) => s[0]).join('')).toBe(decomposed);
  });

  it('returns the whole text unmarked when nothing matches', () => {
    expect(highlight(porter, 'no match here', ['zebra'])).toEqual([['no match here', null]]);
    expect(highlight(porter, '', ['zebra'])).toEqual([]);
  });
});
