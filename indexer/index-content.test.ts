/**
 * What a run records of its index (`indexContent`) includes the settings its dense vectors were made
 * with, with the provider's defaults filled in: a table re-embedded with another word limit is
 * another index (a resume over it is refused), while the same settings spelled out are the same.
 */
import { describe, expect, it } from 'vitest';
import { indexContent, type Manifest } from './manifest.js';

/** The manifest of a 1,149-passage Bar Exam index with a use-lite table embedded with `spec` (as add-dense.ts writes it). */
function withDense(spec: Record<string, unknown> | undefined): Manifest {
  return {
    format: 'lexcase-index',
    version: 3,
    lexcaseVersion: '0.1.0',
    createdAt: '2025-01-01T00:00:00.000Z',
    corpus: { name: 'barexam', checksum: 'a'.repeat(64), passages: 1149 },
    analyzer: { lowercase: true, stopwords: 'english', stemmer: 'porter', minTokenLength: 1 },
    methods: ['bm25', 'qld', 'dense'],
    checksums: {},
    dense: {
      embedder: 'use-lite',
      embedderId: 'use-lite:universal-sentence-encoder-lite',
      model: 'universal-sentence-encoder-lite',
      dimension: 512,
      uri: 'dense',
      table: 'passages',
      rows: 1149,
      ...(spec ? { spec } : {}),
    },
  } as Manifest;
}

describe('indexContent of an index with dense vectors', () => {
  it('records the vector settings with the provider defaults filled in: {use-lite}, {use-lite, maxWords 256} and no recorded spec are the same vectors', () => {
    const plain = indexContent(withDense({ provider: 'use-lite' }));
    expect(plain.dense).toEqual({
      embedder: 'use-lite',
      model: 'universal-sentence-encoder-lite',
      dimension: 512,
      vectors: { maxWords: 256, queryPrefix: '', passagePrefix: '', quantized: false },
    });
    expect(indexContent(withDense({ provider: 'use-lite', maxWords: 256, workers: 2, batchSize: 64 }))).toEqual(plain);
    expect(indexContent(withDense(undefined))).toEqual(plain);
  });

  it('a table embedded from other titles (the corpus checksum the same: it covers texts only) is another index content', () => {
    const withText = (c: string) => {
      const m = withDense({ provider: 'use-lite' });
      return indexContent({ ...m, dense: { ...m.dense!, embeddedTextChecksum: c } } as Manifest);
    };
    expect(withText('1'.repeat(64))).not.toEqual(withText('2'.repeat(64)));
    expect((withText('1'.repeat(64)).dense as { embeddedTextChecksum: string }).embeddedTextChecksum).toBe('1'.repeat(64));
  });

  it('a table re-embedded with another word limit is another index content', () => {
    const five = indexContent(withDense({ provider: 'use-lite', maxWords: 5 }));
    expect(five).not.toEqual(indexContent(withDense({ provider: 'use-lite', maxWords: 256 })));
    expect((five.dense as { vectors: unknown }).vectors).toMatchObject({ maxWords: 5 });
  });
});
