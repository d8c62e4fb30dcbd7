/** Reflective 3-ply as one value of the system list (variants `threeply/<kind>`: reflective, single, …). */
import { n0, pooled, threeplyAbstention } from '../../eval/headline-metrics.js';
import { cli, matchesNames, str, type SystemPlugin } from '../../eval/systems.js';
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
  method: (c) => str(c.variant),
  k: () => null,
  headline: [
    pooled(
      'hallucination-accuracy',
      'hallucination accuracy',
      (m) => n0(m.nH),
      (m) => n0(m.nGt),
      (r) => 1 - r,
    ),
    pooled(
      'factor-utilisation-recall',
      'factor-utilisation recall',
      (m) => n0(m.nUtil),
      (m) => n0(m.nGt),
      (r) => r,
    ),
    threeplyAbstention,
  ],
  paper: {
    threeply: {
      topP: 1,
      maxTokens: 1000,
      source: '3-ply (paper 000) §4.1: max_tokens 1000, top_p 1 (no generation temperature given); evaluator at temperature 0',
    },
  },
  load: async () => ({ reportSection: (await import('./report-section.js')).threeplySection }),
};
