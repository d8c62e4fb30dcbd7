/**
 * The 3-ply section of `lexcase report` (runs whose config.system is "threeply"): per scenario,
 * hallucination accuracy, factor utilization recall and abstention ratio with their named 95% intervals (eval/stats).
 */
import type { SectionBuilder } from '../../eval/report/types.js';
import type { ResultRecord } from '../../eval/types.js';
import { summarizeRun, summaryMarkdown } from './summary.js';

/**
 * How an abstention counts in the pooled figures: as the paper's formulas have it (§4.4, eq. 1–5:
 * N_gt sums over every triple; "For successful abstentions, Rec_U is 0"), so a scenario whose
 * answered triples all abstained reads 100% hallucination accuracy and 0% utilization recall.
 */
export const ABSTENTIONS_COUNTED =
  'An abstained triple that argued no ply is in both pooled figures as the paper’s formulas have it (N_gt summed over every triple; “for successful abstentions, Rec_U is 0”): it adds its N_gt with N_h = N_util = 0, so a scenario whose answered triples all abstained reads 100% hallucination accuracy and 0% factor utilization recall — read them beside the abstention figure.';

/**
 * The reflective system's revisions over the triples that record them (metrics revisedPlies,
 * uncorrectedPlies): how many plies were revised, and how many were kept after their one revision
 * (the paper's cap, §3.3) although the Factor Analyst's re-check still required correction. Null for
 * the baselines and for runs from before the count.
 */
export function reflectionText(results: readonly ResultRecord[]): string | null {
  const counted = results.filter((r) => typeof r.metrics?.uncorrectedPlies === 'number');
  if (!counted.length) return null;
  const sum = (k: string) => counted.reduce((a, r) => a + Number(r.metrics?.[k] ?? 0), 0);
  const revised = sum('revisedPlies');
  const uncorrected = sum('uncorrectedPlies');
  const inTriples = counted.filter((r) => Number(r.metrics?.uncorrectedPlies) > 0).length;
  return (
    `**Reflection:** ${revised} ${revised === 1 ? 'ply was' : 'plies were'} revised (at most once each, the paper’s cap, §3.3); ` +
    `${uncorrected} of them (in ${inTriples} ${inTriples === 1 ? 'triple' : 'triples'}) ${uncorrected === 1 ? 'was' : 'were'} kept although the Factor Analyst’s re-check still required correction: ` +
    'the factor errors it found stay in the argument and count in N_h (metrics revisedPlies, uncorrectedPlies).' +
    unpolishedText(counted)
  );
}

/** The plies kept unpolished because the Polisher's reply gave no polished text (metrics unpolishedPlies; absent before the count). */
function unpolishedText(counted: readonly ResultRecord[]): string {
  const withCount = counted.filter((r) => typeof r.metrics?.unpolishedPlies === 'number');
  if (!withCount.length) return '';
  const n = withCount.reduce((a, r) => a + Number(r.metrics?.unpolishedPlies), 0);
  const inTriples = withCount.filter((r) => Number(r.metrics?.unpolishedPlies) > 0).length;
  const before = counted.length - withCount.length;
  return (
    ` ${n} ${n === 1 ? 'ply' : 'plies'} (in ${inTriples} ${inTriples === 1 ? 'triple' : 'triples'}) ${n === 1 ? 'was' : 'were'} kept unpolished: the Argument Polisher’s reply gave an empty \`polished_argument\`, so the draft it assessed stands (metrics unpolishedPlies)` +
    (before ? `; ${before} ${before === 1 ? 'triple was' : 'triples were'} run before this count and ${before === 1 ? 'is' : 'are'} not in it.` : '.')
  );
}

export const threeplySection: SectionBuilder = (run, o) => {
  if (!run.results.length) return null;
  const variant = String(run.config.config.variant ?? 'threeply');
  const rows = summarizeRun(run.results, { seed: o.seed, iterations: o.iterations });
  const reflection = reflectionText(run.results);
  return {
    id: 'threeply',
    title: '3-ply arguments: hallucination, factor utilization, abstention (per scenario)',
    markdown:
      summaryMarkdown(variant, rows) +
      '\n\nPercentages pooled over the scenario’s triples (the paper’s formulas), with their 95% intervals (pooled ratios: percentile bootstrap over triples, none below n = 10; abstention: Wilson). Abstention is the right answer on mismatched and non-arguable triples; on arguable triples the figure is wrongful abstention. ' +
      ABSTENTIONS_COUNTED +
      (reflection ? `\n\n${reflection}` : ''),
    json: { variant, scenarios: rows, ...(reflection ? { reflection } : {}) },
  };
};
