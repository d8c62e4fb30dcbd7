/** MAD and its baselines (variants `mad/mad`, `mad/single-rag`, `mad/self-consistency`, as config.json records them) as one value of the system list. */
import { accuracy } from '../../eval/headline-metrics.js';
import { cli, defaultK, matchesNames, str, type SystemPlugin } from '../../eval/systems.js';
import { INDEX_METHODS } from '../../retrieval/methods.js';
import { AGENT_DEFAULTS } from '../common/defaults.js';
import { MAD_MAX_ROUNDS, MAD_SYSTEMS } from './system-names.js';

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
  // counts per item; the citation figures a share of the item's citations
  metricKinds: {
    citations: 'count',
    debateCitations: 'count',
    forfeits: 'count',
    checklist: 'count',
    unresolvedCitations: 'count',
    citationsExist: 'share',
    citationsSupportive: 'share',
    citationsJudgeSupportive: 'share',
    citationsSeen: 'share',
    // the judge's verdict after each round (--judge-each-round): an outcome of every item, as accuracy, one
    // without it (failed before that judgment) wrong — report.md's per-item table and its accuracy by round agree
    ...Object.fromEntries(Array.from({ length: MAD_MAX_ROUNDS }, (_, i) => [`correctAfterRound${i + 1}`, 'outcome' as const])),
  },
  paper: {
    mad: { source: NO_SETTINGS },
    'single-rag': { source: NO_SETTINGS },
    'self-consistency': {
      temperature: 0.7,
      lexcaseDefault: ['temperature'],
      source: 'MAD (paper 002) §3.6 votes among m sampled answers but gives no temperature; 0.7 is the usual self-consistency setting (Wang et al. 2023)',
    },
  },
  cli: {
    description: 'multi-agent debate: one debater per option, rounds, topology, judge (or its baselines)',
    defaultRunDir: 'runs/<system>-<mode>-<dataset>-<split>-k<k>-s<seed>',
    llm: true,
    flags: [
      { group: 'run' },
      { name: 'system', arg: 'name', description: MAD_SYSTEMS.join(' | '), type: 'string', default: 'mad' },
      {
        name: 'rounds',
        arg: 'n',
        description: `debate rounds (1–${MAD_MAX_ROUNDS})`,
        type: 'int',
        min: 1,
        max: MAD_MAX_ROUNDS,
        default: AGENT_DEFAULTS.rounds,
        systems: ['mad'],
      },
      {
        name: 'topology',
        arg: 't',
        description: 'full (every opponent) | sparse (the preceding opponent only)',
        type: 'string',
        default: 'sparse',
        systems: ['mad'],
      },
      { name: 'cross-examiner', description: 'one targeted question to each debater before judgment', type: 'boolean', systems: ['mad'] },
      { name: 'judge-each-round', description: 'also judge after each earlier round (accuracy per round from one debate)', type: 'boolean', systems: ['mad'] },
      { name: 'samples', arg: 'n', description: 'self-consistency samples', type: 'int', min: 1, default: 5, systems: ['self-consistency'] },
      {
        name: 'method',
        arg: 'm',
        description: `the shared retriever (its <method>_search tool): ${INDEX_METHODS.join(' | ')}`,
        type: 'string',
        default: 'bm25',
      },
      { name: 'passage-chars', arg: 'n', description: 'characters of each passage shown', type: 'int', min: 1, default: 600 },
      { name: 'seeds', arg: 'list', description: 'run once per seed (comma-separated) and report consistency across seeds', type: 'list' },
    ],
  },
  load: async () => ({ reportSection: (await import('./report-section.js')).madSection, cliRun: (await import('./cli-run.js')).cliRun }),
};
