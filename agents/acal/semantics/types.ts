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
  /** Stop when the residual max |f(σ) − σ| ≤ tolerance (default 1e-9; acal-compat: its own 1e-3 rule). */
  tolerance?: number;
  /** Step cap: RK4 steps of the continuous model on cyclic graphs (default 100,000); acal-compat sweeps (100). */
  maxIterations?: number;
}

export interface SemanticsResult {
  semantics: SemanticsName;
  /** Final strength σ per node id. */
  strengths: Record<string, number>;
  /**
   * "topological": one exact pass over an acyclic graph; "continuous": the limit of
   * dσ/dt = f(σ) − σ from σ(0) = τ on a cyclic graph (RK4); "fixed-point": acal-compat's own sweeps.
   */
  method: 'topological' | 'continuous' | 'fixed-point';
  converged: boolean;
  /** RK4 steps (continuous), sweeps (fixed-point), or 1 (topological). */
  iterations: number;
  /** max |f(σ) − σ| at the returned σ (0 for topological). */
  residual: number;
  /** RK4 step size used by the continuous model. */
  stepSize?: number;
}
