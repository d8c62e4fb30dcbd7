/** Reflective 3-ply as one value of the system list (variants `threeply/<kind>`: reflective, single, …). */
import { n0, pooled, threeplyAbstention } from '../../eval/headline-metrics.js';
import { cli, matchesNames, str, type SystemPlugin } from '../../eval/systems.js';
import { FACTOR_UTILIZATION_RECALL, HALLUCINATION_ACCURACY } from './measure-names.js';
import { THREEPLY_PAPER } from './paper.js';
import { modeOfId, SCENARIO_MODES } from './scenario-modes.js';
import { THREEPLY_SYSTEMS } from './types.js';

const variants = THREEPLY_SYSTEMS.map((v) => `threeply/${v}`);

export const threeplyPlugin: SystemPlugin = {
  id: 'threeply',
  name: '3-ply',
  variants,
  aliases: [],
  matches: matchesNames('threeply', variants, []),
  run: cli(false, false, 'n'),
  traceKind: 'threeply',
  reportSection: 'threeply',
  itemChecksum: true, // "arguable-001" is the first triple of a seeded draw, not one triple
  method: (c) => str(c.variant),
  k: () => null,
  headline: [
    pooled(
      'hallucination-accuracy',
      HALLUCINATION_ACCURACY,
      (m) => n0(m.nH),
      (m) => n0(m.nGt),
      (r) => 1 - r,
      modeOfId,
      'hallucinationAccuracy',
    ),
    pooled(
      'factor-utilization-recall',
      FACTOR_UTILIZATION_RECALL,
      (m) => n0(m.nUtil),
      (m) => n0(m.nGt),
      (r) => r,
      modeOfId,
      'factorUtilizationRecall',
    ),
    threeplyAbstention(modeOfId),
  ],
  // per-triple factor counts: hallucinated, ground truth, utilized
  metricKinds: { nH: 'count', nGt: 'count', nUtil: 'count', revisedPlies: 'count', uncorrectedPlies: 'count', unpolishedPlies: 'count' },
  paper: {
    threeply: THREEPLY_PAPER,
  },
  cli: {
    description: `reflective 3-ply legal arguments on CATO trade-secret case triples (${HALLUCINATION_ACCURACY}, ${FACTOR_UTILIZATION_RECALL}, abstention)`,
    defaultRunDir: 'runs/threeply-<system>-<source>-s<seed>',
    llm: true,
    flags: [
      { name: 'scenarios', arg: 'list', description: `comma-separated: ${SCENARIO_MODES.join(', ')}`, type: 'list', default: SCENARIO_MODES },
      { name: 'n', arg: 'n', description: 'triples per scenario (the paper: 90)', type: 'int', min: 1, default: 90 },
      { name: 'limit', arg: 'n', description: 'first N triples only (in --scenarios order), as on the other systems', type: 'int', min: 1 },
      { name: 'system', arg: 'kind', description: THREEPLY_SYSTEMS.join(' | '), type: 'string', default: 'reflective' },
      { name: 'seed', arg: 'n', description: 'seed for the triples and the run', type: 'int', default: 13 },
      {
        name: 'complexity',
        arg: 'k',
        description: 'each synthetic case gets k-1..k+1 factors (the paper: 5); refused with --source casebase (real cases keep theirs)',
        type: 'int',
        min: 1,
        default: 5,
      },
      {
        name: 'source',
        arg: 's',
        description: 'synthetic (random factor sets, as the paper) | casebase (real CATO cases)',
        type: 'string',
        default: 'synthetic',
      },
      {
        name: 'evaluator-model',
        arg: 'id',
        description: 'model for the Factor Distiller, on the same endpoint (default: the run model), at temperature 0',
        type: 'string',
      },
      { name: 'concurrency', arg: 'n', description: 'triples run at once', type: 'int', min: 1, default: 1 },
      { name: 'retry-failed', description: 'on resume, keep failed items as they are (default: run them again)', type: 'negatable' },
    ],
  },
  load: async () => ({ reportSection: (await import('./report-section.js')).threeplySection, cliRun: (await import('./cli-run.js')).cliRun }),
};
