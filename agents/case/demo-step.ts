/**
 * Demo step: the offline CASE heuristic (no LLM) on the demo split against the demo index —
 * advocate evidence recall and the IR solver's accuracy next to the trivial baselines, printed after
 * the retrieval table.
 */
import { loadQuestions } from '../../corpora/registry.js';
import type { DemoStep } from '../../eval/demo/types.js';
import { createProgress } from '../../core/progress.js';
import { DEFAULT_QUERY_PLAN, OFFLINE_LABEL } from './advocate-offline.js';
import { LEARNED_SELECTOR_LABEL, SIGNALS_SUFFIX } from './case-offline-system.js';
import { EVIDENCE_SELECTOR_MODEL } from './evidence-selector-weights.js';
import { EVIDENCE_SELECTOR_MODEL_DENSE } from './evidence-selector-weights-dense.js';
import { answerBaselines, answerBaselinesMarkdown } from './answer-baselines.js';
import { IR_SOLVER_DEPTH, IR_SOLVER_LABEL, IR_SOLVER_TOP } from './ir-solver.js';
import { caseMetricsMarkdown } from './metrics.js';
import { evalCaseOffline } from './offline-eval.js';
import { SELECTOR_TRAINING, selectorRecord } from './selector-training.js';
import { DEFAULT_K } from '../../retrieval/default-k.js';

export const caseOfflineStep: DemoStep = {
  name: 'case-offline',
  async run(ctx) {
    const questions = await loadQuestions(ctx.dataset, ctx.split, { seed: ctx.splitSeed });
    ctx.say(`CASE (${OFFLINE_LABEL}) on ${ctx.dataset} ${ctx.split} (${questions.length} questions)…`);
    const bar = createProgress('case offline', { unit: 'questions' });
    bar.start(questions.length);
    const r = await evalCaseOffline({
      index: ctx.indexDir,
      questions,
      k: DEFAULT_K,
      seed: ctx.seed,
      from: { dataset: ctx.dataset, split: ctx.split, splitSeed: ctx.splitSeed },
      heldOutHint: `run the demo on its default split (val, split seed ${SELECTOR_TRAINING.splitSeed}) or on test with split seed ${SELECTOR_TRAINING.splitSeed}`,
      onProgress: (d) => bar.update(d),
    }).finally(() => bar.stop());
    const m = r.metrics;
    const w = DEFAULT_QUERY_PLAN.weights;
    const baselines = answerBaselines(questions, ctx.seed, ctx.iterations);
    const withSignals = r.evidenceSelection.endsWith(SIGNALS_SUFFIX);
    const selector = withSignals ? EVIDENCE_SELECTOR_MODEL_DENSE : EVIDENCE_SELECTOR_MODEL;
    const intro =
      `Four heuristic advocates per question (one per option). Each option's queries — the option alone, its key legal terms, facts + question + option, ` +
      `question + option — go through bm25 and qld. Each advocate keeps the top ${selector.keep} of its query plan (bm25, weighted RRF ${w.hypothesis} / ${w.terms} / ${w['facts+hypothesis']}, k = ${DEFAULT_QUERY_PLAN.rrfK}); ` +
      `its other slots (5 in all) are filled by the ${LEARNED_SELECTOR_LABEL}: a linear ranker over query-dependent features (ranks, self-score-normalised scores, ` +
      `contrast with the other options${withSignals ? '; use-lite cosines and dense ranks, shared word bigrams' : ''}) that ranks the question's candidate passages, each going to the option that fuses it highest. Evidence: ${r.evidenceSelection}. ` +
      `The answer comes from the ${IR_SOLVER_LABEL}: each option's question + option query is scored by BM25 against the top ${IR_SOLVER_DEPTH} passages for the facts + question, ` +
      `divided by the query's self-score (mean of the best ${IR_SOLVER_TOP}). It measures lexical support, not legal correctness — read it against the baselines below.`;
    const base = `| baseline | accuracy [95% interval] | interval |\n|---|---|---|\n${answerBaselinesMarkdown(baselines)}`;
    ctx.sections.push({
      title: `CASE: ${OFFLINE_LABEL} — ${ctx.dataset} ${ctx.split} split`,
      markdown: `${intro}\n\n${caseMetricsMarkdown(m, { evidence: false })}\n\n${base}`,
    });
    ctx.data.caseOffline = {
      label: OFFLINE_LABEL,
      solver: IR_SOLVER_LABEL,
      methods: r.methods,
      k: DEFAULT_K,
      plan: DEFAULT_QUERY_PLAN,
      evidenceSelection: r.evidenceSelection,
      selectorKeep: selector.keep,
      // which fit chose the evidence (features, keep, training split and seed, weights digest), as `run case --offline` records it
      selector: r.evidenceSelection.startsWith(LEARNED_SELECTOR_LABEL) ? selectorRecord(selector) : null,
      metrics: m,
      baselines,
    };
  },
};
