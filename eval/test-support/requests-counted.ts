/**
 * The requests a run's counts say reached the server, summed as the counts line's parts are
 * (eval/run-counts.ts): its LLM calls, the requests cut off, refused and failed attempts sent again
 * (runCutOffCount, runRefusedCount, runRetriedCount: replaced attempts' included), and, given the run's
 * interrupts, the requests of the items under way at them. For tests that hold a run's figures to
 * the requests a scripted server received.
 */
import { runCutOffCount, runRefusedCount, runRetriedCount, type UnderWay } from '../run-counts.js';
import type { ResultRecord } from '../types.js';

export function requestsCounted(results: readonly ResultRecord[], underWay?: UnderWay): number {
  const calls = results.reduce((s, r) => s + (r.tokens?.calls ?? 0) + (r.replacedAttempts?.tokens.calls ?? 0), 0);
  return calls + runCutOffCount(results) + runRefusedCount(results) + runRetriedCount(results) + (underWay?.requests ?? 0);
}
