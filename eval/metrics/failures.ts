/**
 * One rule for failed items, shared by every system's headline figures: an item failed when its
 * record carries an `error` or has no prediction. A failed item stays in n and counts as wrong, and
 * the failure count is reported beside the figure — except 3-ply's measures (hallucination
 * accuracy, factor utilization recall, abstention), which are defined only over an argument or an
 * abstention the system produced: there a failed triple is no abstention, adds nothing to N_h,
 * N_util or N_gt, and is left out of n, its count shown beside every figure. A prediction left on a
 * failed record (kept for audit) is never scored.
 */
import type { ResultRecord } from '../types.js';

type Scorable = Pick<ResultRecord, 'error' | 'prediction'>;

export const isFailed = (r: Scorable): boolean => r.error !== undefined || r.prediction === null;

export const failedCount = (records: readonly Scorable[]): number => records.filter(isFailed).length;

/**
 * The rule of a run's kind: a retrieval run's item failed only on an error (its search threw) — a query
 * that returned no hits records no prediction, yet it was searched and scores 0 in every figure's n.
 * compare, the report's Failures section and the explorer's and /v1's summaries count by it.
 */
export const isFailedIn =
  (retrieval: boolean) =>
  (r: Scorable): boolean =>
    retrieval ? r.error !== undefined : isFailed(r);

/** The prediction as scored: null (wrong) for a failed item. */
export const scoredPrediction = (r: Scorable): string | null => (isFailed(r) ? null : r.prediction);

/** 1 for a correct, non-failed item, else 0 — one flag per record, failed items included. */
export const correctFlags = (records: readonly (Scorable & Pick<ResultRecord, 'gold'>)[]): number[] =>
  records.map((r) => (!isFailed(r) && r.prediction === r.gold ? 1 : 0));
