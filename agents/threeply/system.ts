/**
 * The 3-ply systems as runner AgentSystems over case triples: generate (reflective system or a
 * baseline), then evaluate — the Factor Distiller extracts the factors the argument attributes to
 * each case, scored against the triple (hallucination accuracy, factor utilization recall).
 * prediction is "argue" or "abstain"; gold is "abstain" for mismatched and non-arguable triples.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { errors, errorText } from '../../core/errors.js';
import type { TradeSecretModel } from '../../corpora/trade-secret.js';
import type { AgentSystem, SystemOutcome } from '../../eval/types.js';
import { distillFactors } from './factor-distiller.js';
import { arguedPlies, formatTriple } from './format.js';
import { hallucinationAccuracy, scoreTriple, utilizationRecall } from './metrics.js';
import { runMultiAgent } from './multi-agent.js';
import { runReflective } from './reflective.js';
import type { CaseTriple } from './scenarios.js';
import { runSingleAgent } from './single-agent.js';
import type { ArgumentResult, ThreePlySystemKind } from './types.js';

export function generateArgument(kind: ThreePlySystemKind, llm: BaseChatModel, triple: string, signal?: AbortSignal): Promise<ArgumentResult> {
  switch (kind) {
    case 'reflective':
      return runReflective(llm, triple, signal);
    case 'single':
      return runSingleAgent(llm, triple, { enhanced: false, signal });
    case 'single-enhanced':
      return runSingleAgent(llm, triple, { enhanced: true, signal });
    case 'multi-no-reflection':
      return runMultiAgent(llm, triple, signal);
    default:
      throw errors.usage(`unknown 3-ply system "${String(kind)}"`, 'use reflective, single, single-enhanced or multi-no-reflection');
  }
}

export interface ThreePlySystemOptions {
  kind: ThreePlySystemKind;
  factors: TradeSecretModel;
  /** Model for the Factor Distiller (the paper used a separate model at temperature 0); default: the system's model. */
  evaluator?: BaseChatModel;
}

export function createThreePlySystem(opts: ThreePlySystemOptions): AgentSystem<CaseTriple> {
  return async (triple, ctx) => {
    if (!ctx.llm) throw errors.llmNotConfigured();
    const text = formatTriple(triple, opts.factors);
    let result: Awaited<ReturnType<typeof generateArgument>>;
    let extracted: Awaited<ReturnType<typeof distillFactors>> | null;
    try {
      result = await generateArgument(opts.kind, ctx.llm, text, ctx.signal);
      // the plies argued (before a TERMINATE too) are scored; a TERMINATE ply mentions no factor
      const argued = arguedPlies(result.plies);
      extracted = Object.keys(argued).length ? await distillFactors(opts.evaluator ?? ctx.llm, argued, opts.factors, ctx.signal) : null;
    } catch (e) {
      if (ctx.signal?.aborted) throw e;
      // A failed item produced no argument: it is no abstention and carries no metric (no N_h,
      // N_util or N_gt), so it enters no figure; summaries count it as failed (eval/metrics/failures.ts).
      return {
        prediction: null,
        error: errorText(e),
        trace: { system: opts.kind, mode: triple.mode, triple: { c1: triple.c1, c2: triple.c2, c3: triple.c3 } },
      } as SystemOutcome;
    }
    const score = scoreTriple(triple, extracted, opts.factors, result.abstained);
    return {
      prediction: result.abstained ? 'abstain' : 'argue',
      trace: {
        system: opts.kind,
        mode: triple.mode,
        triple: { c1: triple.c1, c2: triple.c2, c3: triple.c3 },
        abstained: result.abstained,
        terminatedAt: result.terminatedAt ?? null,
        reason: result.reason ?? null,
        plies: result.plies,
        steps: result.steps,
        extracted,
        score,
      },
      metrics: {
        abstained: result.abstained,
        nH: score.nH,
        nGt: score.nGt,
        nUtil: score.nUtil,
        hallucinationAccuracy: hallucinationAccuracy(score),
        factorUtilizationRecall: utilizationRecall(score),
        // the reflective system's revisions (reflective.ts): plies revised, and kept uncorrected at the cap of one revision
        ...(result.reflection ?? {}),
      },
    };
  };
}
