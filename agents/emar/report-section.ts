/**
 * The EMAR section of `lexcase report` (runs whose config.system is "emar"): the paper's accuracy,
 * macro-F1 and micro-F1, and how the recursion ended (depth, convergence, agreement).
 */
import type { SectionBuilder } from '../../eval/report/types.js';
import { emarLabels } from './cases.js';
import { emarSummaryMarkdown, summarizeEmarRun } from './metrics.js';

export const emarSection: SectionBuilder = (run, o) => {
  if (!run.results.length) return null;
  const dataset = String(run.config.config.dataset ?? '');
  const s = summarizeEmarRun(run.results, { labels: emarLabels(dataset, run.config.config.labels), seed: o.seed, iterations: o.iterations });
  return {
    id: 'emar',
    title: 'EMAR: accuracy, F1 and recursion',
    markdown: `${emarSummaryMarkdown(`${dataset}/${String(run.config.config.split ?? '')}`, s, { limit: run.config.config.limit })}\n\nThe paper's LFPBench (Chinese civil cases) is not available; figures on this dataset are not comparable with the paper's.`,
    json: s,
  };
};
