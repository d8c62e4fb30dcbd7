import { describe, expect, it } from 'vitest';
import { advocateQueries, keyTerms } from './advocate-queries.js';

const facts = 'A seller conveyed land to a buyer by a deed that the buyer never recorded. Is the buyer protected against a later purchaser?';

describe('advocate queries', () => {
  it('key terms are the content words of the hypothesis that the facts lack (the doctrine it adds)', () => {
    expect(keyTerms('No, because the jurisdiction has a race-notice recording statute.', facts)).toEqual([
      'jurisdiction',
      'race-notice',
      'recording',
      'statute',
    ]);
    // every word already in the facts: fall back to all content words
    expect(keyTerms('The buyer is protected.', facts)).toEqual(['buyer', 'protected']);
  });

  it('gives hypothesis, key terms and facts + hypothesis, without empty or repeated queries', () => {
    const q = advocateQueries(facts, 'Yes, under the doctrine of equitable conversion.');
    expect(q.map((x) => x.kind)).toEqual(['hypothesis', 'terms', 'facts+hypothesis']);
    expect(q[0].text).toBe('Yes, under the doctrine of equitable conversion.');
    expect(q[1].text).toBe('doctrine equitable conversion');
    expect(q[2].text).toBe(`${facts}\nYes, under the doctrine of equitable conversion.`);
    // no facts: facts + hypothesis is the hypothesis itself, sent once
    expect(advocateQueries('', 'Adverse possession').map((x) => x.kind)).toEqual(['hypothesis', 'terms']);
  });
});

describe('the LLM advocate default plan', () => {
  it('tells a `for` advocate to search the hypothesis alone, its key terms, then facts + hypothesis (not an `against` one)', async () => {
    const { advocateSystemPrompt } = await import('./prompts.js');
    expect(advocateSystemPrompt(5, 'for', ['bm25_search'])).toMatch(/the hypothesis alone, then its key legal terms, then the facts \+ the hypothesis/);
    expect(advocateSystemPrompt(5, 'against', ['bm25_search'])).not.toMatch(/hypothesis alone/);
  });
});
