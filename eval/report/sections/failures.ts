/**
 * Failed items (eval/metrics/failures.ts: an error, or no prediction — code NO_PREDICTION), grouped by error code, and failed steps
 * inside items (an unparseable vote, judgement or argument: `stepFailures` of each result), by step.
 */
import { isFailedIn } from '../../metrics/failures.js';
import { recordedSystemSpec } from '../../systems.js';
import { codeSpan, table } from '../format.js';
import type { SectionBuilder } from '../types.js';
import { tallyPerKey } from './tally.js';
import { truncate } from '../../../core/truncate.js';

/** What a failed item's line says: its error, else that it has no prediction. */
const reason = (r: { error?: string }) => r.error ?? 'no prediction (no error recorded)';

/**
 * How the run's figures count a failed item: a retrieval run's recorded no ranking, so every figure leaves
 * it out of n (the Figures table's "failed" column); elsewhere accuracy counts it as wrong (and a figure
 * that leaves it out, as 3-ply's, says so in its own column). Before 2026-12-04 every run said "counted
 * as wrong", a retrieval run too.
 */
const howCounted = (run: Parameters<SectionBuilder>[0]) =>
  recordedSystemSpec(run.config).retrieval ? "left out of every figure's n: no ranking recorded" : 'counted as wrong in accuracy';

export const failuresSection: SectionBuilder = (run) => {
  // the one rule (eval/metrics/failures.ts): an error or no prediction — as accuracy and the explorer count them
  // in id order (numeric parts as numbers), not the order items finished: a run at --concurrency 4 lists the same items the same way
  const retrieval = !!recordedSystemSpec(run.config).retrieval;
  const failed = run.results.filter(isFailedIn(retrieval)).sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));
  const byCode = new Map<string, number>();
  for (const r of failed) {
    const code = r.error === undefined ? 'NO_PREDICTION' : (/^([A-Z][A-Z_]+):/.exec(r.error)?.[1] ?? 'OTHER');
    byCode.set(code, (byCode.get(code) ?? 0) + 1);
  }
  const steps = tallyPerKey(run.results, (r) => r.stepFailures).map(([k, t]) => [k, { failures: t.total, items: t.items }] as const);
  const stepFailures = Object.fromEntries(steps);
  const json = { count: failed.length, byCode: Object.fromEntries(byCode), items: failed.map((r) => ({ id: r.id, error: r.error })), stepFailures };
  const stepMd = steps.length
    ? `\n\nFailed steps inside items (recorded in the traces, never replaced by a default):\n\n${table(
        ['step', 'failures', 'items'],
        steps.map(([k, v]) => [k, v.failures, v.items]),
      )}`
    : '';
  // a retrieval query with no hits is no failure: it was searched, and scores 0 in every figure's n
  const noHits = retrieval ? run.results.filter((r) => r.error === undefined && r.prediction === null).length : 0;
  // a TREC grid run's topic with no hit has no measure (trec_eval skips it): left out of n, not scored 0 (its figures' note says so too)
  const trec = run.config.config?.system === 'trec';
  const noHitsMd = noHits
    ? trec
      ? `\n\n${noHits} of ${run.results.length} topics returned no hits: not failures, left out of every measure's n, as trec_eval skips a topic with no line in the run file (\`eval run --complete\` would score them 0).`
      : `\n\n${noHits} of ${run.results.length} queries returned no hits: not failures, scored 0 in every figure's n.`
    : '';
  if (noHits) Object.assign(json, { noHits });
  if (failed.length === 0) return { id: 'failures', title: 'Failures', markdown: `None.${noHitsMd}${stepMd}`, json };
  const list = failed.slice(0, 20).map((r) => `- ${codeSpan(r.id)}: ${truncate(reason(r).split('\n')[0], 200)}`);
  const more = failed.length > 20 ? `\n- … ${failed.length - 20} more in report.json` : '';
  return {
    id: 'failures',
    title: 'Failures',
    markdown: `${failed.length} of ${run.results.length} items failed (${howCounted(run)}).\n\n${table(
      ['error', 'items'],
      [...byCode].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0], 'en')),
    )}\n\n${list.join('\n')}${more}${noHitsMd}${stepMd}`,
    json,
  };
};
