/** What every 3-ply generator (reflective system and baselines) returns. */
import type { PlyKey } from './format.js';

export const THREEPLY_SYSTEMS = ['reflective', 'single', 'single-enhanced', 'multi-no-reflection'] as const;
export type ThreePlySystemKind = (typeof THREEPLY_SYSTEMS)[number];

export interface TraceStep {
  ply?: PlyKey;
  /** developer | plaintiff | defendant | analyst | polisher | single-agent */
  role: string;
  /** 0 for the first draft, 1 for the one revision. */
  round?: number;
  /** Analyst outcome, polisher revision flag, ... */
  decision?: string;
  /** The agent's reply (text or parsed JSON). */
  output: unknown;
}

export interface ArgumentResult {
  /** True when the system output TERMINATE (abstained) for a ply instead of arguing it. */
  abstained: boolean;
  /** The first ply the system output TERMINATE for, when it abstained. */
  terminatedAt?: PlyKey;
  /** Why it stopped (analyst summary or the TERMINATE line). */
  reason?: string;
  /**
   * The output per ply (the paper's TERMINATE is per ply, 000 §3.3 step 5): the plies argued before
   * the abstention stay, the terminated ply holds its "TERMINATE: …" line; a reply that is nothing
   * but TERMINATE has no ply.
   */
  plies: Partial<Record<PlyKey, string>>;
  steps: TraceStep[];
  /**
   * The reflective system's revisions (§3.3: at most one per ply): plies revised, and plies kept
   * after that one revision although the Factor Analyst's re-check still required correction (its
   * factor errors stay in the argument and count in N_h). Absent for the baselines.
   */
  reflection?: { revisedPlies: number; uncorrectedPlies: number; unpolishedPlies: number };
}
