/**
 * MAD: accuracy of the judge's verdict after each debate round, over every item of the run — the
 * rule of the headline accuracy and of report.md's "judged after round" table (agents/mad/metrics.ts
 * reads `roundIntervals` too): from the per-item `correctAfterRound<r>` flags (runs with
 * judgeEachRound), an item without a round's flag (it failed before that judgment) counted as wrong;
 * a run without flags gets one point, the final verdict (`correct`, a failed item wrong) at its last
 * round. The interval is Wilson's (eval/stats: a proportion; honest at the small n of a debate run),
 * each round's from eval/stats outcomeInterval: MAD declares its round flags outcomes of every item
 * (metric kind `outcome`), so report.md's per-item table gives them the same figure from the same code.
 */
import { outcomeInterval, proportionInterval, type Interval } from '../stats/index.js';
import type { ResultRecord } from '../types.js';
import type { RoundAccuracy } from './specs.js';

type Scored = Pick<ResultRecord, 'correct' | 'metrics'>;

/** A per-item flag of the verdict after round <r> (agents/mad/debate.ts; declared `outcome` in agents/mad/plugin.ts). */
export const ROUND_FLAG = /^correctAfterRound(\d+)$/;

/** Rounds judged in the run (from any item's flags), ascending. */
function flaggedRounds(results: readonly Scored[]): number[] {
  const rounds = new Set<number>();
  for (const r of results)
    for (const k of Object.keys(r.metrics ?? {})) {
      const m = ROUND_FLAG.exec(k);
      if (m) rounds.add(Number(m[1]));
    }
  return [...rounds].sort((a, b) => a - b);
}

/** Accuracy after each judged round over every item (a missing flag counts wrong); `finalRound` adds the final verdict when no round was flagged. */
export function roundIntervals(results: readonly Scored[], finalRound?: number): { round: number; accuracy: Interval }[] {
  if (results.length === 0) return [];
  const rounds = flaggedRounds(results);
  if (rounds.length === 0)
    return finalRound === undefined ? [] : [{ round: finalRound, accuracy: proportionInterval(results.filter((r) => r.correct).length, results.length) }];
  return rounds.map((round) => ({
    round,
    accuracy: outcomeInterval(`correctAfterRound${round}`, results),
  }));
}

/** The plot's rows (eval/plots/specs.ts roundAccuracySpec) of `roundIntervals`. */
export function roundAccuracy(results: readonly Scored[], finalRound?: number): RoundAccuracy[] {
  return roundIntervals(results, finalRound).map(({ round, accuracy: ci }) => ({ round, n: ci.n, accuracy: ci.estimate, lo: ci.lo ?? 0, hi: ci.hi ?? 1 }));
}

/** A MAD run's last debate round, from its config (`rounds`, recorded by MAD's own system), else undefined. */
export function madFinalRound(config: Record<string, unknown> | undefined): number | undefined {
  const r = config?.rounds;
  return typeof r === 'number' && Number.isInteger(r) && r > 0 ? r : undefined;
}
