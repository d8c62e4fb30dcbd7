/**
 * Convergence test of the recursion: the parties have converged when the cosine similarity of the
 * embeddings of their claims reaches ε (the paper's ε = 0.85).
 */
import { errors } from '../../src/errors.js';
import type { ClaimEmbedder } from './types.js';

export const DEFAULT_EPSILON = 0.85;
export const DEFAULT_MAX_DEPTH = 3;

export function cosineSimilarity(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw errors.dimensionMismatch(a.length, b.length, 'EMAR convergence');
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

export async function claimSimilarity(embedder: ClaimEmbedder, a: string, b: string, signal?: AbortSignal): Promise<number> {
  const [va, vb] = await embedder.embed([a, b], { kind: 'passage', signal });
  return cosineSimilarity(va, vb);
}
