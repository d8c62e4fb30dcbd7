/**
 * The learned evidence selector of the offline advocates (default; `evidence: 'plan'` gives the old
 * per-option top k of the query plan). Trained on the Bar Exam QA train split only
 * (train-evidence-selector.ts; figures in docs/case.md).
 *
 * A linear scorer over the question-level features (evidence-features.ts: max and mean over the
 * options of query-dependent features) ranks the question's candidate passages by how likely each
 * is the question's gold passage; it was fitted with a listwise softmax loss per question.
 * Selection, k slots per option:
 *  1. each option keeps its top `keep` passages of the query plan (the plan's fused order);
 *  2. the remaining slots are filled from the learned ranking, best first, skipping passages already
 *     held: each goes to the option, among those with room, that fuses it highest in its plan
 *     (ties: earlier option). So the options' evidence is distinct passages beyond the first `keep`.
 */
import type { QueryPlan } from './advocate-offline.js';
import { gatherQuestionEvidence, type GatherOptions, type QuestionEvidence } from './evidence-candidates.js';
import { candidateFeatures, planRanking, QUESTION_FEATURES, SIGNAL_FEATURES } from './evidence-features.js';
import type { Question } from '../../corpora/types.js';
import type { Retriever } from '../../retrieval/types.js';
import { factsOf } from '../common/question-text.js';
import type { Hypothesis } from './types.js';
import { errors } from '../../core/errors.js';

export interface SelectorModel {
  /** Length of the feature vector (evidence-features.ts QUESTION_FEATURES). */
  features: number;
  mean: number[];
  std: number[];
  w: number[];
  /** Plan passages each option keeps before the learned fill (chosen by cross-validation on train). */
  keep: number;
  /** How it was trained (split, n, loss, hyper-parameters). */
  trainedOn: string;
  /**
   * Set when it reads the dense and phrase signals (evidence-signals.ts): the dense embedder it was
   * trained with, and the dense query rule (retrieval/dense-query.ts: 0 = the whole query, N = the
   * last N words), which the signals keep whatever the retriever's own rule.
   */
  signals?: { embedder: string; queryWords: number };
}

export function linearScore(m: Pick<SelectorModel, 'mean' | 'std' | 'w'>, x: ArrayLike<number>): number {
  let s = 0;
  for (let j = 0; j < m.w.length; j++) s += ((x[j] - m.mean[j]) / m.std[j]) * m.w[j];
  return s;
}

export interface SelectedItem {
  id: string;
  /** The learned score of the passage (question level). */
  score: number;
  justification: string;
}

/** Pure selection from per-candidate scores (question level) and the options' plan rankings. */
export function selectBySlots(
  candidates: { id: string; score: number }[],
  plans: { score: Map<string, number>; rank: Map<string, number>; order: string[] }[],
  k: number,
  keep: number,
): SelectedItem[][] {
  const learned = new Map(candidates.map((c) => [c.id, c.score]));
  const chosen: SelectedItem[][] = plans.map((p) =>
    p.order
      .slice(0, Math.min(keep, k))
      .map((id, i) => ({ id, score: learned.get(id) ?? -Infinity, justification: `query plan rank #${i + 1} for this option` })),
  );
  const taken = new Set(chosen.flat().map((e) => e.id));
  const ranked = [...candidates].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  let r = 0;
  for (const c of ranked) {
    r++;
    if (chosen.every((l) => l.length >= k)) break;
    if (taken.has(c.id)) continue;
    let best = -1;
    for (let o = 0; o < plans.length; o++) {
      if (chosen[o].length >= k) continue;
      if (best < 0) {
        best = o;
        continue;
      }
      const s = plans[o].score.get(c.id) ?? 0,
        sb = plans[best].score.get(c.id) ?? 0;
      const ro = plans[o].rank.get(c.id) ?? Infinity,
        rb = plans[best].rank.get(c.id) ?? Infinity;
      if (s > sb || (s === sb && ro < rb)) best = o;
    }
    if (best < 0) break;
    const pr = plans[best].rank.get(c.id);
    chosen[best].push({
      id: c.id,
      score: c.score,
      justification: `learned selector rank #${r} for the question${pr ? `, plan rank #${pr} for this option` : ''}`,
    });
    taken.add(c.id);
  }
  return chosen;
}

/** Evidence per option (in `ev.options` order) chosen by `model`. */
export function selectEvidence(ev: QuestionEvidence, plan: QueryPlan, model: SelectorModel, k: number): SelectedItem[][] {
  const computed = QUESTION_FEATURES + (ev.signals ? SIGNAL_FEATURES : 0);
  if (model.features !== computed)
    throw errors.invalidInput(
      'evidence selector model',
      `it has ${model.features} features, the code computes ${computed} (${ev.signals ? 'with' : 'without'} dense and phrase signals)`,
    );
  const { plans, candidates } = candidateFeatures(ev, plan);
  return selectBySlots(
    candidates.map((c) => ({ id: c.id, score: linearScore(model, c.question) })),
    plans,
    k,
    model.keep,
  );
}

/** What the selector reads for one question: gatherQuestionEvidence with each option's plan top k among the candidates. */
export function gatherSelectorEvidence(
  retrievers: { bm25: Retriever; qld: Retriever },
  q: Question,
  hypotheses: Hypothesis[],
  plan: QueryPlan,
  k: number,
  signals?: GatherOptions['signals'],
): Promise<QuestionEvidence> {
  return gatherQuestionEvidence(retrievers, {
    facts: factsOf(q),
    question: q.question,
    hypotheses,
    extra: (o) => planRanking(o.runs, plan).order.slice(0, k),
    ...(signals ? { signals } : {}),
  });
}
