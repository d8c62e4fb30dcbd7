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

export interface DecisionStats {
  /** Items with a decision (not failed): every count and mean below is over these. */
  answered: number;
  /** Failed items, left out. */
  failed: number;
  judged: number;
  inBand: number;
  notConverged: number;
  clashes: number;
  /** Items whose team had fewer than the paper's 2 agents (a role named twice counts once). */
  smallTeams: number;
  /** Per answered item; null when none was answered. */
  meanClashes: number | null;
  meanArguments: number | null;
}

export function decisionStats(results: readonly ResultRecord[]): DecisionStats {
  const m = results.filter((r) => !isFailed(r)).map((r) => r.metrics ?? {});
  const sum = (k: string) => m.reduce((s, x) => s + (typeof x[k] === 'number' ? (x[k] as number) : 0), 0);
  return {
    answered: m.length,
    failed: results.length - m.length,
    judged: m.filter((x) => x.judged === true).length,
    inBand: m.filter((x) => x.inBand === true).length,
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

/** acal-report.md's line: "Decisions over the 1 answered item (11 failed, no decision): 0 of 1 escalated …". */
export function decisionsLine(d: DecisionStats): string {
  return (
    `Decisions ${answeredText(d)}: ${d.judged} of ${d.answered} escalated to the judge (σ(claim) in the uncertainty band); ${d.notConverged} not converged; ` +
    `mean ${mean(d.meanArguments)} arguments and ${mean(d.meanClashes)} clashes per answered item.`
  );
}
