/**
 * Accuracy of EMAR's convergence rules on labelled claim pairs: for each pair, does the rule say
 * "converged" exactly when the two claims reach the same conclusion? Used by the labelled-set
 * test and by bench/emar-convergence.ts for docs/emar.md. The similarity is that of the text a run
 * embeds (`claimForEmbedding`: "Answer (B) <option text>. <claim>"), not of the raw claims; a pair
 * without `choices` embeds its answer letter with no option text.
 */
import { CONVERGENCE_RULES, cosineSimilarity, hasConverged, type ConvergenceRule } from './convergence.js';
import { claimForEmbedding } from './prompts.js';
import type { ClaimEmbedder } from './types.js';

export interface LabelledClaimPair {
  kind: string;
  a: { answer: string; claim: string };
  b: { answer: string; claim: string };
  /** Gold: do the two claims reach the same conclusion? */
  converged: boolean;
  /** The options the letters name, when the pair has them (embedded as runs embed them). */
  choices?: string[];
}

/** The text a run embeds for one party's claim of `p`. */
export function embeddedText(side: { answer: string; claim: string }, choices: string[] = []): string {
  return claimForEmbedding({ answer: side.answer, claim: side.claim, argument: '', evidence: [] }, choices);
}

export interface RuleAccuracy {
  rule: ConvergenceRule;
  correct: number;
  n: number;
  /** Per pair kind: correct / n. */
  byKind: Record<string, { correct: number; n: number }>;
}

export async function evaluateConvergenceRules(
  pairs: LabelledClaimPair[],
  embedder: ClaimEmbedder,
  epsilon: number,
): Promise<{ similarities: number[]; rules: RuleAccuracy[] }> {
  const vecs = await embedder.embed(
    pairs.flatMap((p) => [embeddedText(p.a, p.choices), embeddedText(p.b, p.choices)]),
    { kind: 'passage' },
  );
  const similarities = pairs.map((_, i) => cosineSimilarity(vecs[2 * i], vecs[2 * i + 1]));
  const rules = CONVERGENCE_RULES.map((rule) => {
    const acc: RuleAccuracy = { rule, correct: 0, n: pairs.length, byKind: {} };
    pairs.forEach((p, i) => {
      const ok = hasConverged(rule, p.a.answer, p.b.answer, similarities[i], epsilon) === p.converged;
      const k = (acc.byKind[p.kind] ??= { correct: 0, n: 0 });
      k.n++;
      if (ok) {
        k.correct++;
        acc.correct++;
      }
    });
    return acc;
  });
  return { similarities, rules };
}
