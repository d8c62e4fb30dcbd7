/** CASE as one value of the system list (agents/systems.ts): its metadata, and its report section loaded when asked. */
import { accuracy, rate } from '../../eval/headline-metrics.js';
import { cli, defaultK, matchesNames, str, type SystemPlugin } from '../../eval/systems.js';

export const casePlugin: SystemPlugin = {
  id: 'case',
  name: 'CASE',
  variants: [],
  aliases: [],
  matches: matchesNames('case', [], []),
  run: cli(true),
  traceKind: 'case',
  reportSection: 'case',
  method: (c) => (Array.isArray(c.methods) ? c.methods.join('+') : str(c.method)),
  k: defaultK,
  headline: [accuracy, rate('gold-in-evidence', 'gold passage in evidence', 'goldInAnyEvidence')],
  paper: {
    case: {
      temperature: 0.3,
      source:
        "CASE (paper 003) gives no temperature for the agents (LLaMA 3 70B via DSPy, §5.3); 0.3 is its baselines' (§4.1, §5.3: llama-3.3-70b-instruct at sampling temperature 0.3), used for the agents too so agents and baselines run at one temperature",
    },
  },
  load: async () => ({ reportSection: (await import('./report-section.js')).caseSection }),
};
