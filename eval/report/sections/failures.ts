/**
 * Failed items (system error or unparseable output), grouped by error code, and failed steps
 * inside items (an unparseable vote, judgement or argument: `stepFailures` of each result), by step.
 */
import { table } from '../format.js';
import type { SectionBuilder } from '../types.js';
import { tallyPerKey } from './tally.js';

export const failuresSection: SectionBuilder = (run) => {
  const failed = run.results.filter((r) => r.error);
  const byCode = new Map<string, number>();
  for (const r of failed) {
    const code = /^([A-Z][A-Z_]+):/.exec(r.error!)?.[1] ?? 'OTHER';
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
  if (failed.length === 0) return { id: 'failures', title: 'Failures', markdown: `None.${stepMd}`, json };
  const list = failed.slice(0, 20).map((r) => `- \`${r.id}\`: ${r.error!.split('\n')[0].slice(0, 200)}`);
  const more = failed.length > 20 ? `\n- … ${failed.length - 20} more in report.json` : '';
  return {
    id: 'failures',
    title: 'Failures',
    markdown: `${failed.length} of ${run.results.length} items failed (counted as wrong).\n\n${table(['error', 'items'], [...byCode])}\n\n${list.join('\n')}${more}${stepMd}`,
    json,
  };
};
