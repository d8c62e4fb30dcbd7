/**
 * A quantitative bipolar argumentation framework (QBAF) as plain data, and what a gradual
 * semantics returns for it. Pure: no LLM, no I/O.
 */

export type RelationKind = 'support' | 'attack';

export interface QbafNode {
  id: string;
  /** Base (intrinsic) strength τ in [0, 1]. */
  base: number;
}

/** A directed edge: `from` supports or attacks `to`. */
export interface QbafEdge {
  from: string;
  to: string;
  kind: RelationKind;
}

export interface Qbaf {
  nodes: QbafNode[];
  edges: QbafEdge[];
}

export type SemanticsName = 'quadratic' | 'dfquad' | 'acal-compat';

export interface SemanticsOptions {
  /** Fixed-point iteration stops when max |σ' − σ| < tolerance (default 1e-9; acal-compat: 1e-3). */
  tolerance?: number;
  /** Iteration cap (default 1000; acal-compat: 100). */
  maxIterations?: number;
}

export interface SemanticsResult {
  semantics: SemanticsName;
  /** Final strength σ per node id. */
  strengths: Record<string, number>;
  /** "topological": one exact pass over an acyclic graph; "fixed-point": iterated update. */
  method: 'topological' | 'fixed-point';
  converged: boolean;
  /** Update sweeps performed (1 for topological). */
  iterations: number;
  /** max |f(σ) − σ| at the returned σ (0 for topological). */
  residual: number;
  /** Damping used by the last fixed-point attempt (1 = plain iteration σ ← f(σ)). */
  damping?: number;
}
