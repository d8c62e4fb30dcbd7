/** Test helper: wraps an embedder and counts the passage texts it is asked to embed. */
import type { Embedder } from '../../embed/types.js';

export function counting(inner: Embedder): Embedder & { embedded: number } {
  const e = {
    embedded: 0,
    id: inner.id,
    provider: inner.provider,
    model: inner.model,
    dimension: inner.dimension,
    async embed(texts: string[], o: Parameters<Embedder['embed']>[1]) {
      if (o.kind === 'passage') e.embedded += texts.length;
      return inner.embed(texts, o);
    },
  };
  return e;
}
