/**
 * Seeded jury sampling: `size` distinct personas per question. The runner hands each item
 * ctx.seed = deriveSeed(runSeed, questionId); the panel is drawn from a sub-stream of that seed, so
 * the same run seed gives every question the same panel on every rerun (and on resume), and a
 * different run seed gives different panels.
 */
import { createRng, deriveSeed } from '../../core/rng.js';
import { errors } from '../../core/errors.js';
import { PERSONAS, type Persona } from './personas.js';

/** Panel for an item seed (ctx.seed: deriveSeed(runSeed, questionId)), not a run seed: panelFor takes those. */
export function samplePanel(itemSeed: number, size = 3, pool: readonly Persona[] = PERSONAS): Persona[] {
  if (!Number.isInteger(size) || size < 1 || size > pool.length)
    throw errors.invalidInput('jurors', `must be an integer from 1 to ${pool.length}, got ${size}`);
  return createRng(deriveSeed(itemSeed, 'jury')).sample(pool, size);
}

/** Panel for a run seed and a question id: the jurors `lexcase run case --seed <runSeed> --jurors <size>` and runExperiment with createCase seat for that question. */
export function panelFor(runSeed: number, questionId: string, size = 3): Persona[] {
  return samplePanel(deriveSeed(runSeed, questionId), size);
}
