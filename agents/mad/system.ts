/** The MAD system by name: the debate itself or one of its baselines (agents/baselines/mad.ts). */
import type { Question } from '../../corpora/types.js';
import type { AgentSystem } from '../../eval/types.js';
import { createSelfConsistency, createSingleRag } from '../baselines/mad.js';
import { createMad } from './debate.js';
import type { MadSettings } from './types.js';

export const MAD_SYSTEMS = ['mad', 'single-rag', 'self-consistency'] as const;
export type MadSystemName = (typeof MAD_SYSTEMS)[number];

export function createMadSystem(name: MadSystemName, opts: Partial<MadSettings> & { samples?: number } = {}): AgentSystem<Question> {
  if (name === 'single-rag') return createSingleRag(opts);
  if (name === 'self-consistency') return createSelfConsistency(opts);
  return createMad(opts);
}
