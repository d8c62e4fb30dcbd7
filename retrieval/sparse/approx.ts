/**
 * Opt-in approximate scoring: a posting budget with impact-ordered early termination, term at a
 * time ("quit", Moffat & Zobel 1996). The plan (score-core.ts termPlan) already orders the terms:
 * lists in fewer than half the docs first, each group by decreasing weight at tf = 1. The longest
 * prefix of it whose cumulative document frequencies fit the budget is scored exactly (at least the
 * first term); the other terms are skipped. Document frequencies are index-wide, so every query
 * worker keeps the same prefix. Exact scoring stays the default; nothing here runs without `approx`.
 */
import { errors } from '../../core/errors.js';
import type { ApproxOptions } from '../types.js';

export type { ApproxOptions };

/** `approx` checked: undefined (exact), or a budget with a share in (0, 1] and/or an integer ≥ 1. */
export function checkApprox(approx: unknown): ApproxOptions | undefined {
  if (approx === undefined || approx === null) return undefined;
  if (typeof approx !== 'object') throw errors.invalidInput('approx', `expected { postingShare?, maxPostings? }, got ${JSON.stringify(approx)}`);
  const { postingShare, maxPostings, ...rest } = approx as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length) throw errors.invalidInput('approx', `unknown key(s) ${extra.join(', ')} (known: postingShare, maxPostings)`);
  if (postingShare === undefined && maxPostings === undefined)
    throw errors.invalidInput('approx', 'give postingShare (0 < share ≤ 1) and/or maxPostings (an integer ≥ 1)');
  const out: ApproxOptions = {};
  if (postingShare !== undefined) {
    if (typeof postingShare !== 'number' || !(postingShare > 0 && postingShare <= 1))
      throw errors.invalidInput('approx.postingShare', `expected a number > 0 and ≤ 1, got ${JSON.stringify(postingShare)}`);
    out.postingShare = postingShare;
  }
  if (maxPostings !== undefined) {
    if (typeof maxPostings !== 'number' || !Number.isInteger(maxPostings) || maxPostings < 1)
      throw errors.invalidInput('approx.maxPostings', `expected an integer ≥ 1, got ${JSON.stringify(maxPostings)}`);
    out.maxPostings = maxPostings;
  }
  return out;
}

/** The posting budget of a query whose terms have `totalPostings` postings in all. */
export function postingBudget(approx: ApproxOptions, totalPostings: number): number {
  let budget = Infinity;
  if (approx.postingShare !== undefined) budget = approx.postingShare * totalPostings;
  if (approx.maxPostings !== undefined) budget = Math.min(budget, approx.maxPostings);
  return budget;
}

/** How many leading terms of the plan (their document frequencies in order) the budget keeps: ≥ 1 when there is a term. */
export function approxPrefix(dfs: readonly number[], approx: ApproxOptions): number {
  let total = 0;
  for (const df of dfs) total += df;
  const budget = postingBudget(approx, total);
  let used = 0;
  let n = 0;
  for (; n < dfs.length; n++) {
    if (n > 0 && used + dfs[n] > budget) break;
    used += dfs[n];
  }
  return n;
}

/** Short label of a budget for run tags and headers: `approx0.3`, `approx-max100000`, `approx0.3-max100000`. */
export function approxLabel(approx: ApproxOptions): string {
  const parts = ['approx'];
  if (approx.postingShare !== undefined) parts[0] += String(approx.postingShare);
  if (approx.maxPostings !== undefined) parts.push(`max${approx.maxPostings}`);
  return parts.join('-');
}

/** The budget in words, for human output. */
export function describeApprox(approx: ApproxOptions): string {
  const parts: string[] = [];
  if (approx.postingShare !== undefined) parts.push(`${+(approx.postingShare * 100).toFixed(4)} % of the query's postings`);
  if (approx.maxPostings !== undefined) parts.push(`at most ${approx.maxPostings.toLocaleString('en')} postings`);
  return `APPROXIMATE (posting budget: ${parts.join(' and ')}; not exact scores)`;
}

/** For retrievers without an approximate mode: a request for one is an error, never silently exact. */
export function refuseApprox(opts: { approx?: unknown } | undefined, method: string): void {
  if (opts?.approx !== undefined && opts.approx !== null) throw errors.invalidInput('approx', `method "${method}" has no approximate mode (bm25 and qld have)`);
}
