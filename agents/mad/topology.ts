/**
 * Who sees whom in a rebuttal round (paper 002 §3.3). Debaters sit in a ring ordered by option
 * letter (A, B, C, …).
 * - full: every debater sees every other debater's brief from the previous round;
 * - sparse: each debater sees only the opponent immediately preceding it in the ring — debater i
 *   sees debater (i − 1 mod n)'s previous brief (A sees the last option's, B sees A's, …).
 * In both, a debater always has its own previous brief, and the Judge sees all final briefs.
 * With two debaters the topologies coincide.
 */
import { errors } from '../../core/errors.js';
import type { Topology } from './types.js';

export const TOPOLOGIES: readonly Topology[] = ['full', 'sparse'];

export function parseTopology(s: string): Topology {
  if (s === 'full' || s === 'sparse') return s;
  throw errors.invalidInput('topology', `"${s}"; expected full or sparse`);
}

/** Indices of the opponents whose previous-round briefs debater `i` (of `n`) sees. */
export function visibleOpponents(topology: Topology, i: number, n: number): number[] {
  if (n < 2) return [];
  if (topology === 'sparse') return [(i - 1 + n) % n];
  return [...Array(n).keys()].filter((j) => j !== i);
}
