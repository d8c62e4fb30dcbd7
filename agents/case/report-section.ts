/**
 * The CASE section of `lexcase report` (registered for runs whose config.system is "case" or
 * "baseline"): the run's label (LLM vs "offline heuristic, no LLM"), advocate evidence recall with
 * its three levels named, gold-in-context for RAG baselines, juror abstentions, advocate stop reasons
 * and tokens per stage. Accuracy, confidence strata, raw per-item flags, tool usage and tokens are
 * also in the generic sections; this one reads the same run files.
 */
import type { SectionBuilder } from '../../eval/report/types.js';
import { caseMetrics, caseMetricsMarkdown } from './metrics.js';

export const caseSection: SectionBuilder = (run, o) => {
  const m = caseMetrics(run.results, run.traces, o.seed);
  const stops: Record<string, number> = {};
  for (const t of run.traces.values())
    for (const a of (t.advocates as { stop?: string }[] | undefined) ?? []) if (a.stop) stops[a.stop] = (stops[a.stop] ?? 0) + 1;
  const extra = Object.keys(stops).length
    ? `\n\nAdvocate stop reasons: ${Object.entries(stops)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}.`
    : '';
  return {
    id: 'case',
    title: `CASE metrics${m.label ? ` (${m.label})` : ''}`,
    markdown: caseMetricsMarkdown(m).split('\n').slice(2).join('\n') + extra,
    json: { ...m, advocateStops: stops },
  };
};
