/** MAD and its baselines (variants `mad/mad`, `mad/single-rag`, `mad/self-consistency`, as config.json records them) as one value of the system list. */
import { accuracy } from '../../eval/headline-metrics.js';
import { cli, defaultK, matchesNames, str, type SystemPlugin } from '../../eval/systems.js';
import { MAD_SYSTEMS } from './system-names.js';

const variants = MAD_SYSTEMS.map((v) => `mad/${v}`);
const NO_SETTINGS = 'MAD (paper 002) publishes no sampling settings: the LLM layer default (temperature 0) is kept';

export const madPlugin: SystemPlugin = {
  id: 'mad',
  name: 'MAD',
  variants,
  aliases: [],
  matches: matchesNames('mad', variants, []),
  run: cli(true),
  traceKind: 'mad',
  // the single-path baselines answer once: their items show in the baseline view
  variantTraceKinds: { 'mad/single-rag': 'baseline', 'mad/self-consistency': 'baseline' },
  reportSection: 'mad',
  method: (c) => [str(c.topology), str(c.method)].filter(Boolean).join(' · ') || null,
  k: defaultK,
  headline: [accuracy],
  paper: {
    mad: { source: NO_SETTINGS },
    'single-rag': { source: NO_SETTINGS },
    'self-consistency': {
      temperature: 0.7,
      source: 'MAD (paper 002) §3.6 votes among m sampled answers but gives no temperature; 0.7 is the usual self-consistency setting (Wang et al. 2023)',
    },
  },
  load: async () => ({ reportSection: (await import('./report-section.js')).madSection }),
};
