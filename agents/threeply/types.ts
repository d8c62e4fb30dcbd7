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
  /** True when the system output TERMINATE (abstained) instead of a 3-ply argument. */
  abstained: boolean;
  /** The ply at which the system stopped, when it abstained. */
  terminatedAt?: PlyKey;
  /** Why it stopped (analyst summary or the TERMINATE line). */
  reason?: string;
  /** The final plies (empty when abstained: a TERMINATE output carries no argument). */
  plies: Partial<Record<PlyKey, string>>;
  steps: TraceStep[];
}
