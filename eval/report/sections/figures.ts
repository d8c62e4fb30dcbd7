/**
 * The run's headline figures — the same ones, computed by the same code (eval/systems.ts over
 * eval/stats/), as the explorer's run page and the /v1 API: Recall@k and MRR for a retrieval run,
 * accuracy (and the system's own rates) for the rest, each with its 95% interval and the interval's
 * method named beside it.
 */
import { headlineFigures } from '../../systems.js';
import { METHODS_NOTE } from '../../stats/index.js';
import { table } from '../format.js';
import type { SectionBuilder } from '../types.js';

export const figuresSection: SectionBuilder = (run, o) => {
  const system = typeof run.config.config.system === 'string' ? run.config.config.system : null;
  const figures = headlineFigures(system, run.results, { config: run.config.config, seed: o.seed, iterations: o.iterations });
  if (!figures.length) return null;
  const rows = figures.map((f) => [f.label, f.n, f.text, f.method]);
  return {
    id: 'figures',
    title: 'Figures',
    markdown: table(['measure', 'n', 'value [95% interval]', 'interval'], rows) + `\n\n${METHODS_NOTE}`,
    json: { figures },
  };
};
