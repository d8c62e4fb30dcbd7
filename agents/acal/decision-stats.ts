/**
 * How ACAL reached its decisions (judge escalations, claim strengths in the judge band, clashes,
 * convergence, team sizes), over the answered items only: a failed item (an error or no
 * prediction; eval/metrics/failures.ts) reached no decision, so it is left out of every count and
 * mean here — and counted beside them — while accuracy counts it as wrong. Before, with 11 of 12
 * items failed, "mean 0.9 arguments … per item" averaged the one answered item's 11 arguments
 * over 12.
 */
import { isFailed } from '../../eval/metrics/failures.js';
import type { ResultRecord } from '../../eval/types.js';
import { PAPER_DEFAULTS } from './graph/types.js';

export interface DecisionStats {
  /** Items with a decision (not failed): every count and mean below is over these. */
  answered: number;
  /** Failed items, left out. */
  failed: number;
  judged: number;
  inBand: number;
  /**
   * Items decided by the threshold rule at σ(claim) = θ exactly (not by the judge): a tie the rule
   * σ ≥ θ (eq. 3.7) decides "Yes" — a graph with no argument left, or supports and attacks that
   * cancel. Counted so a tilt towards "Yes" is visible (with --no-escalation every in-band item is
   * decided so).
   */
  thresholdTies: number;
  /** θ the ties are counted at. */
  threshold: number;
  notConverged: number;
  clashes: number;
  /** Items whose team had fewer than the paper's 2 agents (a role named twice counts once). */
  smallTeams: number;
  /** Per answered item; null when none was answered. */
  meanClashes: number | null;
  meanArguments: number | null;
}

export function decisionStats(results: readonly ResultRecord[], threshold: number = PAPER_DEFAULTS.threshold): DecisionStats {
  const m = results.filter((r) => !isFailed(r)).map((r) => r.metrics ?? {});
  const sum = (k: string) => m.reduce((s, x) => s + (typeof x[k] === 'number' ? (x[k] as number) : 0), 0);
  return {
    answered: m.length,
    failed: results.length - m.length,
    judged: m.filter((x) => x.judged === true).length,
    inBand: m.filter((x) => x.inBand === true).length,
    thresholdTies: m.filter((x) => x.claimStrength === threshold && x.judged !== true).length,
    threshold,
    notConverged: m.filter((x) => x.converged === false).length,
    clashes: sum('clashes'),
    smallTeams: m.filter((x) => typeof x.teamSize === 'number' && x.teamSize < 2).length,
    meanClashes: m.length ? sum('clashes') / m.length : null,
    meanArguments: m.length ? sum('arguments') / m.length : null,
  };
}

/** "over the 1 answered item (11 failed, no decision)": what the decision counts are over. */
export function answeredText(d: Pick<DecisionStats, 'answered' | 'failed'>): string {
  return `over the ${d.answered} answered item${d.answered === 1 ? '' : 's'}${d.failed ? ` (${d.failed} failed, no decision)` : ''}`;
}

const mean = (v: number | null) => (v === null ? '–' : v.toFixed(1));

/** "; 6 decided at σ(claim) = θ = 0.5 exactly: "Yes" by the rule σ ≥ θ (eq. 3.7), a tie", or "" without such a tie. */
export function thresholdTiesText(d: Pick<DecisionStats, 'thresholdTies' | 'threshold'>): string {
  return d.thresholdTies ? `; ${d.thresholdTies} decided at σ(claim) = θ = ${d.threshold} exactly: "Yes" by the rule σ ≥ θ (eq. 3.7), a tie` : '';
}

/** acal-report.md's line: "Decisions over the 1 answered item (11 failed, no decision): 1 of 1 claim strengths in the judge band, 0 escalated to the judge; …". */
export function decisionsLine(d: DecisionStats): string {
  return (
    `Decisions ${answeredText(d)}: ${d.inBand} of ${d.answered} claim strengths in the judge band, ${d.judged} escalated to the judge${thresholdTiesText(d)}; ${d.notConverged} not converged; ` +
    `mean ${mean(d.meanArguments)} arguments and ${mean(d.meanClashes)} clashes per answered item.`
  );
}
