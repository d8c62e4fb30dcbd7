/**
 * CASE's single-path baselines (`lexcase run baseline --mode …`) as one value of the system list:
 * variants `baseline/<mode>`, as their runs record them (config.json `system: "baseline/<mode>"` and `mode`;
 * older runs `system: "baseline"`), which get CASE's report section.
 */
import { accuracy } from '../../../eval/headline-metrics.js';
import { cli, defaultK, matchesNames, str, type SystemPlugin } from '../../../eval/systems.js';
import { BASELINE_MODES } from './baseline-modes.js';

const variants = BASELINE_MODES.map((m) => `baseline/${m}`);

export const baselinePlugin: SystemPlugin = {
  id: 'baseline',
  name: 'baseline (CASE)',
  variants,
  aliases: [],
  matches: matchesNames('baseline', variants, []),
  run: cli(true),
  traceKind: 'baseline',
  reportSection: 'case',
  method: (c) => str(c.mode),
  k: defaultK,
  headline: [accuracy],
  metricKinds: { citations: 'count', unresolvedCitations: 'count' },
  paper: { baseline: { temperature: 0.3, source: 'CASE (paper 003) §4.1 and §5.3: baselines 1-4 (llama-3.3-70b-instruct) at sampling temperature 0.3' } },
  cli: {
    description: 'single-path baselines: LLM-only, BM25/QLD/dense/hybrid RAG, gold oracle',
    defaultRunDir: 'runs/<system>-<mode>-<dataset>-<split>-k<k>-s<seed>',
    llm: true,
    flags: [{ group: 'run' }, { name: 'mode', arg: 'mode', description: BASELINE_MODES.join(' | '), type: 'string', required: true }],
  },
  // its report section is CASE's (`reportSection: 'case'`), loaded by CASE's plugin
  load: async () => ({ cliRun: (await import('./cli-run.js')).cliRun }),
};
