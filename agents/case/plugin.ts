/** CASE as one value of the system list (agents/systems.ts): its metadata, and its report section loaded when asked. */
import { accuracy, goldRate } from '../../eval/headline-metrics.js';
import { cli, defaultK, matchesNames, str, type SystemPlugin } from '../../eval/systems.js';
import { AGENT_DEFAULTS } from '../common/defaults.js';
import { EVIDENCE_RECALL_LABELS } from '../common/evidence-recall.js';

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
  headline: [accuracy, goldRate('gold-in-evidence', EVIDENCE_RECALL_LABELS.goldInAnyEvidence, 'goldInAnyEvidence')],
  // counts: citations naming no handle shown, abstaining jurors, picks beyond k (a mean count even at 0 or 1 on every item)
  metricKinds: { unresolvedCitations: 'count', abstentions: 'count', picksBeyondK: 'count', repeatedToolCalls: 'count', toolCallsNotOffered: 'count' },
  paper: {
    case: {
      temperature: 0.3,
      lexcaseDefault: ['temperature'],
      source:
        "CASE (paper 003) gives no temperature for the agents (LLaMA 3 70B via DSPy, §5.3); 0.3 is its baselines' (§4.1, §5.3: llama-3.3-70b-instruct at sampling temperature 0.3), used for the agents too so agents and baselines run at one temperature",
    },
  },
  cli: {
    description: 'CASE: hypotheses → advocates (tool loops) → persona jury',
    defaultRunDir: 'runs/<system>-<mode>-<dataset>-<split>-k<k>-s<seed>',
    llm: 'optional',
    flags: [
      { group: 'run' },
      { name: 'tools', arg: 'list', description: 'advocate tools: bm25,qld,dense,hybrid,rewrite (default: all the index has)', type: 'list' },
      {
        name: 'evidence',
        arg: 'how',
        description:
          "offline evidence (--offline only; refused with an LLM, whose advocates choose their own): learned (the learned selector, trained on the train split of seed 13, so refused on questions of it; needs bm25 + qld, no --tools; with a use-lite dense part it also reads dense and phrase signals) | plan (the query plan's top k)",
        type: 'string',
        default: 'learned',
      },
      { name: 'jurors', arg: 'n', description: 'jurors per question (from the 5 personas)', type: 'int', min: 1, max: 5, default: AGENT_DEFAULTS.jurors },
      {
        name: 'hypotheses',
        arg: 'how',
        description: 'direct (options are the hypotheses) | exploratory (LLM proposes them)',
        type: 'string',
        default: 'direct',
      },
      { name: 'max-steps', arg: 'n', description: 'model calls per advocate', type: 'int', min: 1, default: AGENT_DEFAULTS.maxSteps },
      { name: 'max-tokens', arg: 'n', description: 'tokens per advocate loop', type: 'int', min: 1, default: AGENT_DEFAULTS.maxTokens },
    ],
  },
  load: async () => ({ reportSection: (await import('./report-section.js')).caseSection, cliRun: (await import('./cli-run.js')).cliRun }),
};
