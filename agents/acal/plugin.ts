/**
 * ACAL and its paper's baselines as one value of the system list: variants `acal/acal`, `acal/sp`,
 * `acal/cot`, `acal/rag`, as runs record them in config.json; older runs recorded `acal` or
 * `acal-<baseline>` (kept as aliases).
 */
import { accuracy, macroF1, rate } from '../../eval/headline-metrics.js';
import { cli, defaultK, defaultMethod, matchesNames, str, type SystemPlugin } from '../../eval/systems.js';
import { ACAL_LABELS } from './labels.js';
import { MAX_RESAMPLES, MIN_RESAMPLES, RESAMPLES } from '../../eval/stats/settings.js';
import { DEFAULT_INDEX_DIR } from '../../retrieval/default-index-dir.js';
import { DEFAULT_K } from '../../retrieval/default-k.js';
import { SEMANTICS } from './semantics/names.js';
import { DEFAULT_PASSAGE_CHARS } from './passage-chars.js';
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
  labels: () => ACAL_LABELS,
  headline: [macroF1, accuracy, rate('convergence', 'convergence', 'converged')],
  metricKinds: {
    clashes: 'count',
    arguments: 'count',
    relations: 'count',
    llmCalls: 'count',
    teamSize: 'count',
    checklist: 'count',
    citations: 'count',
    unresolvedCitations: 'count',
    claimStrength: 'share',
  },
  paper: {
    acal: {
      source:
        'ACAL (paper 001) publishes no sampling settings (Gemini 2.5 defaults); its public code samples at 0.2–0.5 (docs/acal.md): the LLM layer default (temperature 0) is kept',
    },
  },
  cli: {
    description: 'ACAL argument arena (or a baseline) on a LegalBench task; saves a contestable argument graph per item',
    defaultRunDir: 'runs/acal-<system>-<task>-<semantics>',
    llm: true,
    flags: [
      { name: 'task', arg: 'name', description: 'hearsay | learned_hands_courts', type: 'string', required: true },
      { name: 'system', arg: 'name', description: `${ACAL_SYSTEMS.join(' | ')} (sp/cot/rag are the paper's baselines)`, type: 'string', default: 'acal' },
      {
        name: 'semantics',
        arg: 'name',
        description: `${SEMANTICS.join(' | ')} (acal-compat reproduces the public ACAL code's update)`,
        type: 'string',
        default: 'quadratic',
        systems: ['acal'],
      },
      {
        name: 'index',
        arg: 'dir',
        description: `index for hybrid-RAG evidence (default: the bundled legal-corpus index in ${DEFAULT_INDEX_DIR}, built if absent; an index with dense vectors enables hybrid_search)`,
        type: 'string',
        systems: ['acal', 'rag'],
      },
      {
        name: 'data',
        arg: 'dir',
        description: 'directory with the task data (required for learned_hands_courts, which is CC BY-NC-SA and not bundled)',
        type: 'string',
      },
      {
        name: 'split',
        arg: 'split',
        description: 'test | train (sp/cot: test only, their few-shot examples are the train rows)',
        type: 'string',
        default: 'test',
      },
      { name: 'limit', arg: 'n', description: 'first N items only', type: 'int', min: 1 },
      {
        name: 'k',
        short: 'k',
        arg: 'n',
        description: 'evidence passages per item (0: no retrieval)',
        type: 'int',
        default: DEFAULT_K,
        systems: ['acal', 'rag'],
        ignored: "searches nothing; config.json's k is unused",
      },
      {
        name: 'passage-chars',
        arg: 'n',
        description: 'characters of each evidence passage shown (acal and rag; recorded in config.json)',
        type: 'int',
        min: 1,
        default: DEFAULT_PASSAGE_CHARS,
        systems: ['acal', 'rag'],
      },
      {
        name: 'seed',
        arg: 'n',
        description: 'run seed (acal: team roles and claim strengths; the baselines draw nothing)',
        type: 'int',
        default: 13,
        systems: ['acal'],
        ignored: 'draws nothing, and its requests carry no seed: two seeds are two unseeded samples; config.json and the run dir name record the seed as given',
      },
      { name: 'concurrency', arg: 'n', description: 'items at once', type: 'int', min: 1, default: 1 },
      { name: 'retry-failed', description: 'on resume, keep failed items as they are (default: run them again)', type: 'negatable' },
      {
        name: 'iterations',
        arg: 'n',
        description: 'bootstrap resamples for the CIs (recorded in config.json: lexcase report, the explorer and /v1 use them too)',
        type: 'int',
        min: MIN_RESAMPLES,
        max: MAX_RESAMPLES,
        default: RESAMPLES,
      },
      { name: 'clash', description: 'ablation: no clash resolution', type: 'negatable', systems: ['acal'] },
      { name: 'escalation', description: 'ablation: no uncertainty-aware escalation to the judge', type: 'negatable', systems: ['acal'] },
    ],
  },
  load: async () => ({ reportSection: (await import('./report-section.js')).acalSection, cliRun: (await import('./cli-run.js')).cliRun }),
};
