/**
 * Demo step: the offline CASE heuristic (no LLM) on the demo split against the demo index —
 * accuracy and advocate evidence recall, printed after the retrieval table.
 */
import { loadQuestions } from '../../corpora/registry.js';
import type { DemoStep } from '../../eval/demo/types.js';
import { createProgress } from '../../src/progress.js';
import { OFFLINE_LABEL } from './advocate-offline.js';
import { caseMetricsMarkdown } from './metrics.js';
import { evalCaseOffline } from './offline-eval.js';

export const caseOfflineStep: DemoStep = {
  name: 'case-offline',
  async run(ctx) {
    const questions = await loadQuestions(ctx.dataset, ctx.split, { seed: ctx.splitSeed });
    ctx.say(`CASE (${OFFLINE_LABEL}) on ${ctx.dataset} ${ctx.split} (${questions.length} questions)…`);
    const bar = createProgress('case offline', { unit: 'questions' });
    bar.start(questions.length);
    const r = await evalCaseOffline({ index: ctx.indexDir, questions, k: 5, seed: ctx.seed, onProgress: (d) => bar.update(d) }).finally(() => bar.stop());
    const m = r.metrics;
    const intro =
      `Four heuristic advocates per question (one per option; query = facts + question + option through ${r.methods.join(' + ')}, RRF-fused, top 5 passages each); ` +
      'the evidence-score solver picks the option whose retrieval scores are highest (min-max normalised per method across the options). Chance is 25%.';
    ctx.sections.push({ title: `CASE: ${OFFLINE_LABEL} — ${ctx.dataset} ${ctx.split} split`, markdown: `${intro}\n\n${caseMetricsMarkdown(m)}` });
    ctx.data.caseOffline = { label: OFFLINE_LABEL, methods: r.methods, k: 5, metrics: m };
  },
};
