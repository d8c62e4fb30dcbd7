/**
 * EMAR as a runner AgentSystem: one item → an EmarCase → the recursion → the judge's option. The
 * trace holds the extracted facts, every argument/critique/response with the claims' similarity,
 * the stop reason (convergence or max-depth) and the judge's established facts and rationale.
 */
import { errors } from '../../core/errors.js';
import type { AgentSystem } from '../../eval/types.js';
import { DEFAULT_CONVERGENCE } from './convergence.js';
import { runEmar, type EmarOptions } from './emar.js';
import type { EmarCase } from './types.js';

export interface EmarSystemOptions<Item> extends Omit<EmarOptions, 'signal'> {
  toCase(item: Item): EmarCase;
  /** Map the judge's option letter to the dataset's prediction (default: the letter). */
  toPrediction?(letter: string, item: Item): string;
}

export function createEmarSystem<Item>(opts: EmarSystemOptions<Item>): AgentSystem<Item> {
  return async (item, ctx) => {
    if (!ctx.llm) throw errors.llmNotConfigured();
    const c = opts.toCase(item);
    const r = await runEmar(ctx.llm, c, {
      embedder: opts.embedder,
      epsilon: opts.epsilon,
      maxDepth: opts.maxDepth,
      convergence: opts.convergence,
      seed: ctx.seed,
      signal: ctx.signal,
    });
    const last = r.rounds.at(-1);
    return {
      prediction: opts.toPrediction ? opts.toPrediction(r.answer, item) : r.answer,
      trace: {
        system: 'emar',
        embedder: opts.embedder.id,
        epsilon: opts.epsilon ?? 0.85,
        maxDepth: opts.maxDepth ?? 3,
        convergence: opts.convergence ?? DEFAULT_CONVERGENCE,
        facts: r.facts,
        initial: r.initial,
        rounds: r.rounds,
        stop: r.stop,
        judge: r.judge,
        presentation: r.presentation,
      },
      metrics: {
        depth: r.rounds.length,
        converged: r.stop === 'convergence',
        finalSimilarity: last ? last.similarity : null,
        partiesAgree: last ? last.opponent.answer === last.proponent.answer : null,
        judgeFollowsProponent: r.answer === (last?.proponent ?? r.initial).answer,
      },
    };
  };
}
