/**
 * Convergence test of the recursion. The paper stops when ‖Claim^A − Claim^B‖₁ ≤ ε with ε = 0.85,
 * which it leaves underspecified; lexcase reads it as the cosine similarity of the claims'
 * embeddings reaching ε. That alone barely tells a negation from agreement ("X is hearsay" vs
 * "X is not hearsay": 0.840 with use-lite), so the default rule is stance-aware: both parties
 * state their stance (the option they argue for) in their structured output, and they have
 * converged only when the stances are the same AND the similarity reaches ε. The pure-embedding
 * rule stays available as `embedding`.
 */
import { errors } from '../../core/errors.js';
import type { ClaimEmbedder } from './types.js';

export const DEFAULT_EPSILON = 0.85;
export const DEFAULT_MAX_DEPTH = 3;

export const CONVERGENCE_RULES = ['stance', 'embedding'] as const;
export type ConvergenceRule = (typeof CONVERGENCE_RULES)[number];
export const DEFAULT_CONVERGENCE: ConvergenceRule = 'stance';

/** Have two claims converged under `rule`? `stanceA`/`stanceB` are the option letters argued for. */
export function hasConverged(rule: ConvergenceRule, stanceA: string, stanceB: string, similarity: number, epsilon: number): boolean {
  if (similarity < epsilon) return false;
  return rule === 'embedding' || stanceA === stanceB;
}

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
