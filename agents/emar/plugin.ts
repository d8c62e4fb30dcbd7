/** EMAR as one value of the system list (agents/systems.ts). */
import { accuracy, macroF1, rate } from '../../eval/headline-metrics.js';
import { cli, matchesNames, str, type SystemPlugin } from '../../eval/systems.js';
import { isFailed } from '../../eval/metrics/failures.js';

export const emarPlugin: SystemPlugin = {
  id: 'emar',
  name: 'EMAR',
  variants: [],
  aliases: [],
  matches: matchesNames('emar', [], []),
  run: cli(false),
  traceKind: 'emar',
  reportSection: 'emar',
  method: (c) => str(c.convergence) ?? str(c.embedder),
  k: () => null,
  headline: [macroF1(), accuracy, rate('convergence', 'convergence', 'converged', (r) => !isFailed(r))],
  paper: {
    emar: {
      temperature: 0.1,
      topP: 0.9,
      maxTokens: 2048,
      source: 'EMAR (paper 004), Experiment, "Baselines": all models at temperature 0.1, top-p 0.9, max_tokens 2048',
    },
  },
  load: async () => ({ reportSection: (await import('./report-section.js')).emarSection }),
};
