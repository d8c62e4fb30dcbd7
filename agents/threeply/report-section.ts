/**
 * The 3-ply section of `lexcase report` (runs whose config.system is "threeply"): per scenario,
 * hallucination accuracy, factor utilization recall and abstention ratio with their named 95% intervals (eval/stats).
 */
import type { SectionBuilder } from '../../eval/report/types.js';
import { summarizeRun, summaryMarkdown } from './summary.js';

/**
 * How an abstention counts in the pooled figures: as the paper's formulas have it (§4.4, eq. 1–5:
 * N_gt sums over every triple; "For successful abstentions, Rec_U is 0"), so a scenario whose
 * answered triples all abstained reads 100% hallucination accuracy and 0% utilization recall.
 */
export const ABSTENTIONS_COUNTED =
  'An abstained triple that argued no ply is in both pooled figures as the paper’s formulas have it (N_gt summed over every triple; “for successful abstentions, Rec_U is 0”): it adds its N_gt with N_h = N_util = 0, so a scenario whose answered triples all abstained reads 100% hallucination accuracy and 0% factor utilization recall — read them beside the abstention figure.';

export const threeplySection: SectionBuilder = (run, o) => {
  if (!run.results.length) return null;
  const variant = String(run.config.config.variant ?? 'threeply');
  const rows = summarizeRun(run.results, { seed: o.seed, iterations: o.iterations });
  return {
    id: 'threeply',
    title: '3-ply arguments: hallucination, factor utilization, abstention (per scenario)',
    markdown:
      summaryMarkdown(variant, rows) +
      '\n\nPercentages pooled over the scenario’s triples (the paper’s formulas), with their 95% intervals (pooled ratios: percentile bootstrap over triples, none below n = 10; abstention: Wilson). Abstention is the right answer on mismatched and non-arguable triples; on arguable triples the figure is wrongful abstention. ' +
      ABSTENTIONS_COUNTED,
    json: { variant, scenarios: rows },
  };
};
