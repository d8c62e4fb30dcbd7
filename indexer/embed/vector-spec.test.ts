import { describe, expect, it } from 'vitest';
import { BGE_QUERY_INSTRUCTION } from './prefixes.js';
import { vectorSpecChanges } from './vector-spec.js';

const useLite = { provider: 'use-lite' as const, model: 'universal-sentence-encoder-lite' };
const bge = { provider: 'transformers' as const, model: 'bge-small-en-v1.5' };

describe('vectorSpecChanges', () => {
  it("a provider's defaults spelled out are the same vectors; batch sizes and workers are no change", () => {
    expect(vectorSpecChanges({ provider: 'use-lite' }, { provider: 'use-lite', maxWords: 256, workers: 0, batchSize: 4 }, useLite)).toEqual([]);
    expect(vectorSpecChanges({ provider: 'transformers', queryPrefix: BGE_QUERY_INSTRUCTION, quantized: false }, { provider: 'transformers' }, bge)).toEqual(
      [],
    );
    expect(vectorSpecChanges(undefined, { provider: 'transformers', maxWords: 0 }, bge)).toEqual([]);
  });

  it('names each setting that changes the vectors, old and new value', () => {
    expect(vectorSpecChanges({ provider: 'use-lite', maxWords: 128 }, { provider: 'use-lite' }, useLite)).toEqual(['maxWords 128 → 256']);
    expect(
      vectorSpecChanges({ provider: 'transformers' }, { provider: 'transformers', maxWords: 5, passagePrefix: 'passage: ', quantized: true }, bge),
    ).toEqual(['maxWords unlimited → 5', 'passagePrefix "" → "passage: "', 'quantized false → true']);
  });
});
