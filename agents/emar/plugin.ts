/** EMAR as one value of the system list (agents/systems.ts). */
import { accuracy, macroF1, rate } from '../../eval/headline-metrics.js';
import { cli, matchesNames, str, type SystemPlugin } from '../../eval/systems.js';
import { isFailed } from '../../eval/metrics/failures.js';
import { emarLabels } from './cases.js';
import { CONVERGENCE_RULES, DEFAULT_CONVERGENCE, DEFAULT_EPSILON, DEFAULT_MAX_DEPTH } from './convergence.js';
import { EMAR_DATASETS, EMAR_PAPER } from './paper.js';

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
  labels: (c) => emarLabels(c.dataset, c.labels),
  headline: [macroF1, accuracy, rate('convergence', 'convergence', 'converged', (r) => !isFailed(r))],
  // rounds run
  metricKinds: { depth: 'count' },
  paper: { emar: EMAR_PAPER },
  cli: {
    description: 'EMAR evidential multi-agent argumentation (proponent/opponent recursion to convergence, judge) on Bar Exam QA or LegalBench hearsay',
    defaultRunDir: 'runs/emar-<dataset>-<split>-s<seed>',
    llm: true,
    flags: [
      { name: 'dataset', arg: 'name', description: EMAR_DATASETS.join(' | '), type: 'string', default: 'barexam' },
      {
        name: 'split',
        arg: 'split',
        description: 'barexam: train | val | test | all (default val); hearsay: train | test (default test: LegalBench has no val split)',
        type: 'string',
      },
      { name: 'split-seed', arg: 'n', description: 'seed of the Bar Exam QA split (hearsay has its own fixed split)', type: 'int', default: 13 },
      {
        name: 'dataset-file',
        arg: 'file',
        description:
          "barexam: read the questions from this file (JSONL or CSV, the bundled copy's fields) instead of the bundled copy; its seeded split as for the bundled one (--split all: every question). hearsay: refused (your copy: $LEXCASE_LEGALBENCH_DIR)",
        type: 'string',
      },
      { name: 'limit', arg: 'n', description: 'first N items of the split', type: 'int', min: 1 },
      { name: 'seed', arg: 'n', description: 'run seed', type: 'int', default: 13 },
      {
        name: 'epsilon',
        arg: 'x',
        description: 'convergence threshold on the cosine similarity of the claims (the paper: 0.85)',
        type: 'number',
        gt: -1,
        max: 1,
        default: DEFAULT_EPSILON,
      },
      { name: 'max-depth', arg: 'n', description: 'maximum recursion depth (the paper: 3)', type: 'int', min: 1, default: DEFAULT_MAX_DEPTH },
      {
        name: 'convergence',
        arg: 'rule',
        description: 'stop rule: stance = same option and similarity ≥ ε; embedding = similarity ≥ ε only',
        type: 'string',
        choices: CONVERGENCE_RULES,
        default: DEFAULT_CONVERGENCE,
      },
      {
        name: 'embedder',
        arg: 'provider',
        description: 'embedding provider for convergence: use-lite | transformers | openai',
        type: 'string',
        default: 'use-lite',
      },
      { name: 'embed-model', arg: 'id', description: 'embedding model id (provider-specific)', type: 'string' },
      { name: 'embed-model-dir', arg: 'dir', description: 'transformers: a local copy of the model', type: 'string' },
      {
        name: 'temperature',
        arg: 't',
        description:
          "sampling temperature (default: llm.temperature or LEXCASE_LLM_TEMPERATURE if set, else the paper's 0.1; top-p 0.9 and max_tokens 2048 are also the paper's where unset)",
        type: 'number',
        min: 0,
        max: 2,
      },
      { name: 'concurrency', arg: 'n', description: 'items run at once', type: 'int', min: 1, default: 1 },
      { name: 'retry-failed', description: 'on resume, keep failed items as they are (default: run them again)', type: 'negatable' },
    ],
  },
  load: async () => ({ reportSection: (await import('./report-section.js')).emarSection, cliRun: (await import('./cli-run.js')).cliRun }),
};
