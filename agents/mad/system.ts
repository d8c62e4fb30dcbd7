/** The MAD system by name: the debate itself or one of its baselines (agents/mad/baselines.ts). */
import type { Question } from '../../corpora/types.js';
import type { AgentSystem } from '../../eval/types.js';
import { createSelfConsistency, createSingleRag } from './baselines.js';
import { createMad } from './debate.js';
import type { MadSettings } from './types.js';
import { MAD_SYSTEMS, type MadSystemName } from './system-names.js';

export { MAD_SYSTEMS, type MadSystemName };

export function createMadSystem(name: MadSystemName, opts: Partial<MadSettings> & { samples?: number } = {}): AgentSystem<Question> {
  if (name === 'single-rag') return createSingleRag(opts);
  if (name === 'self-consistency') return createSelfConsistency(opts);
  return createMad(opts);
}
