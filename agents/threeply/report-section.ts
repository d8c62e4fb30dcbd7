/**
 * The 3-ply section of `lexcase report` (runs whose config.system is "threeply"): per scenario,
 * hallucination accuracy, factor utilization recall and abstention ratio with their named 95% intervals (eval/stats).
 */
import type { SectionBuilder } from '../../eval/report/types.js';
import { summarizeRun, summaryMarkdown } from './summary.js';

export const threeplySection: SectionBuilder = (run, o) => {
  if (!run.results.length) return null;
  const variant = String(run.config.config.variant ?? 'threeply');
  const rows = summarizeRun(run.results, { seed: o.seed, iterations: o.iterations });
  return {
    id: 'threeply',
    title: '3-ply arguments: hallucination, factor utilization, abstention (per scenario)',
    markdown:
      summaryMarkdown(variant, rows) +
      '\n\nPercentages pooled over the scenario’s triples (the paper’s formulas), with their 95% intervals (pooled ratios: percentile bootstrap over triples, none below n = 10; abstention: Wilson). Abstention is the right answer on mismatched and non-arguable triples; on arguable triples the figure is wrongful abstention.',
    json: { variant, scenarios: rows },
  };
};
