/**
 * The counts line every `lexcase run <system>` prints after a run (CASE, the baselines, MAD, ACAL,
 * EMAr, 3-ply, a plugin's `run`): what this call ran and failed, what it skipped as already done —
 * saying how many of those are failures kept from an earlier attempt (--no-retry-failed), so the line
 * agrees with the report's failed items printed with it — and the whole run's tokens, summed from
 * results.jsonl as report.md sums them (not only what this call spent: 0 after a full resume).
 */
import type { ResultRecord } from './types.js';

export interface RunCounts {
  ran: number;
  skipped: number;
  failed: number;
  /** Failed items from an earlier call that this call ran again. */
  retried?: number;
  /** Of `skipped`, the earlier failures kept as failed (retryFailed false). */
  keptFailed?: number;
}

/** "6 failed earlier, kept as failed by --no-retry-failed": the one wording of kept failures (this line and the runner's "resuming …" line). */
export function keptFailedText(n: number): string {
  return `${n} failed earlier, kept as failed by --no-retry-failed`;
}

/** "5 failed earlier, run again": the one wording of retried failures (this line and the runner's "resuming …" line). */
export function retriedText(n: number): string {
  return `${n} failed earlier, run again`;
}

/** "ran 0, skipped 8 (already done; 6 failed earlier, kept as failed by --no-retry-failed), failed 0". */
export function runCountsText(r: RunCounts): string {
  const retried = r.retried ? ` (${retriedText(r.retried)})` : '';
  const kept = r.keptFailed ? `; ${keptFailedText(r.keptFailed)}` : '';
  return `ran ${r.ran}${retried}, skipped ${r.skipped} (already done${kept}), failed ${r.failed}`;
}

/** The tokens the run's results record, all of its items (report.md's "Tokens" total). */
export function runTokenTotal(results: readonly ResultRecord[]): number {
  return results.reduce((s, r) => s + (typeof r.tokens?.total === 'number' ? r.tokens.total : 0), 0);
}

/** "tokens 10,886 (whole run; this call 0)": the run's total, and this call's when it differs. */
export function runTokensText(results: readonly ResultRecord[], thisCall: number): string {
  const total = runTokenTotal(results);
  return `tokens ${total.toLocaleString('en-US')}${thisCall === total ? '' : ` (whole run; this call ${thisCall.toLocaleString('en-US')})`}`;
}
