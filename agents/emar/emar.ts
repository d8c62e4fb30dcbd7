/**
 * EMAR (Evidence-logic-integrated Multi-Agent argumentation), the paper's algorithm:
 *   facts ← ExtractFacts(E)
 *   A ← Proponent(E, P)
 *   repeat  B ← Opponent(E, P, A);  A ← Proponent(E, P, A, B);  epoch ← epoch + 1
 *          (the Response sees its own argument A beside the critique B: it revises or adheres to it)
 *   until  stance(A) = stance(B) and cos(embed(A), embed(B)) ≥ ε  or  epoch = MAX_DEPTH
 *          (the `embedding` rule drops the stance condition; see convergence.ts)
 *   J ← Judge(facts, A, B)          (the judge also states the established facts; A and B in a seeded order)
 * with ε = 0.85 and MAX_DEPTH = 3 as in the paper. At most 3 + 2·MAX_DEPTH LLM calls per case.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { errors } from '../../core/errors.js';
import { offeredLetters } from '../common/option-check.js';
import { claimSimilarity, DEFAULT_CONVERGENCE, DEFAULT_EPSILON, DEFAULT_MAX_DEPTH, hasConverged, type ConvergenceRule } from './convergence.js';
import { extractFacts } from './fact-extraction.js';
import { judge } from './judge.js';
import { opponent } from './opponent.js';
import { proponent } from './proponent.js';
import { claimForEmbedding } from './prompts.js';
import type { ClaimEmbedder, EmarCase, EmarResult, EmarRound } from './types.js';
import { seededOrder } from '../common/presentation-order.js';
import { deriveSeed } from '../../core/rng.js';

export interface EmarOptions {
  embedder: ClaimEmbedder;
  /** Convergence threshold on the cosine similarity of the parties' claims (default 0.85). */
  epsilon?: number;
  /** Maximum recursion depth (default 3). */
  maxDepth?: number;
  /** Convergence rule: `stance` (default: same option and similarity ≥ ε) or `embedding` (similarity only). */
  convergence?: ConvergenceRule;
  /** The item's seed (ctx.seed): which party's final position the judge reads first (default deriveSeed(13, case id)). */
  seed?: number;
  signal?: AbortSignal;
}

export async function runEmar(model: BaseChatModel, c: EmarCase, opts: EmarOptions): Promise<EmarResult> {
  const epsilon = opts.epsilon ?? DEFAULT_EPSILON;
  const maxDepth = opts.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (!(epsilon > -1 && epsilon <= 1)) throw errors.invalidInput('epsilon', `expected a cosine similarity in (-1, 1], got ${epsilon}`);
  if (!Number.isInteger(maxDepth) || maxDepth < 1) throw errors.invalidInput('maxDepth', `expected a positive integer, got ${maxDepth}`);
  offeredLetters(c, 'EMAR');

  const { signal } = opts;
  const facts = await extractFacts(model, c, signal);
  const initial = await proponent(model, c, facts, undefined, signal);
  let a = initial;
  const rounds: EmarRound[] = [];
  let stop: EmarResult['stop'] = 'max-depth';
  for (let epoch = 1; epoch <= maxDepth; epoch++) {
    const b = await opponent(model, c, facts, a, signal);
    a = await proponent(model, c, facts, { own: a, critique: b }, signal);
    const similarity = await claimSimilarity(opts.embedder, claimForEmbedding(a, c.choices), claimForEmbedding(b, c.choices), signal);
    const sameStance = a.answer === b.answer;
    rounds.push({ epoch, opponent: b, proponent: a, similarity, sameStance });
    if (hasConverged(opts.convergence ?? DEFAULT_CONVERGENCE, a.answer, b.answer, similarity, epsilon)) {
      stop = 'convergence';
      break;
    }
  }
  // the paper's judge reads the facts and the claim list (Judge(F, P)); lexcase's also reads both
  // final positions, in a seeded order so that neither party is always read first
  const opp = rounds.at(-1)?.opponent;
  const order = seededOrder(opp ? (['proponent', 'opponent'] as const) : (['proponent'] as const), (x) => x, {
    seed: opts.seed ?? deriveSeed(13, c.id),
    kind: 'judge positions',
  });
  const verdict = await judge(model, c, facts, a, opp, signal, order.items[0]);
  return { facts, initial, rounds, stop, judge: verdict, answer: verdict.answer, presentation: [order.record] };
}
