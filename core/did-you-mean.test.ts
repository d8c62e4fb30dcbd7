import { expect, it } from 'vitest';
import { closestName, didYouMean } from './did-you-mean.js';

const METHODS = ['bm25', 'qld', 'wink', 'dense', 'hybrid', 'lancedb-fts'];

it('suggests the closest name for a typo and nothing for an unrelated word', () => {
  expect(closestName('bm52', METHODS)).toBe('bm25');
  expect(closestName('BM25', METHODS)).toBe('bm25');
  expect(closestName('hybird', METHODS)).toBe('hybrid');
  expect(closestName('lancedb_fts', METHODS)).toBe('lancedb-fts');
  expect(closestName('splade', METHODS)).toBeUndefined();
  expect(closestName('x', [])).toBeUndefined();
  expect(didYouMean('qdl', METHODS)).toBe('did you mean "qld"? ');
  expect(didYouMean('bm25', METHODS)).toBe('');
});
