/**
 * ACAL and its paper's baselines as one value of the system list: variants `acal/acal`, `acal/sp`,
 * `acal/cot`, `acal/rag`, as runs record them in config.json; older runs recorded `acal` or
 * `acal-<baseline>` (kept as aliases).
 */
import { accuracy, macroF1, rate } from '../../eval/headline-metrics.js';
import { cli, defaultK, defaultMethod, matchesNames, str, type SystemPlugin } from '../../eval/systems.js';
import { ACAL_LABELS } from './labels.js';
import { ACAL_SYSTEMS } from './system-names.js';

const variants = ACAL_SYSTEMS.map((v) => `acal/${v}`);
const aliases = ACAL_SYSTEMS.filter((v) => v !== 'acal').map((v) => `acal-${v}`);

export const acalPlugin: SystemPlugin = {
  id: 'acal',
  name: 'ACAL',
  variants,
  aliases,
  matches: matchesNames('acal', variants, aliases),
  run: cli(true, true),
  traceKind: 'acal', // its trace view links each item to its argument graph (the explorer's ACAL view, /api/acal/graph)
  reportSection: 'acal',
  method: (c) => str(c.semantics) ?? defaultMethod(c),
  k: defaultK,
  headline: [macroF1(ACAL_LABELS), accuracy, rate('convergence', 'convergence', 'converged')],
  paper: { acal: { source: 'ACAL (paper 001) publishes no sampling settings (Gemini 2.5 defaults): the LLM layer default (temperature 0) is kept' } },
  load: async () => ({ reportSection: (await import('./report-section.js')).acalSection }),
};
