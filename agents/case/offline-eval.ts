/**
 * In-memory offline CASE evaluation over a list of questions (no run dir): used by the demo step
 * and for quick measurements. Experiment runs with resume and reports go through `lexcase run case`.
 */
import type { Question, Split } from '../../corpora/types.js';
import type { ResultRecord } from '../../eval/types.js';
import { checkSeed, deriveSeed } from '../../core/rng.js';
import { createCase } from './index.js';
import { caseMetrics, type CaseMetrics } from './metrics.js';
import { openCaseIndex } from '../../retrieval/open-index.js';
import { withGoldInIndex } from '../common/gold-in-index.js';
import type { QueryPlan } from './advocate-offline.js';
import type { EvidenceMode } from './case-offline-system.js';
import type { SelectorModel } from './evidence-selector.js';
import { assertSelectorHeldOut, SELECTOR_TRAINING } from './selector-training.js';
import { EVIDENCE_SELECTOR_MODEL } from './evidence-selector-weights.js';
import { EVIDENCE_SELECTOR_MODEL_DENSE } from './evidence-selector-weights-dense.js';

export interface OfflineEvalResult {
  records: ResultRecord[];
  traces: Map<string, Record<string, unknown>>;
  metrics: CaseMetrics;
  methods: string[];
  /** How the evidence was selected (trace `evidenceSelection` of the last question). */
  evidenceSelection: string;
}

export async function evalCaseOffline(opts: {
  index: string;
  questions: Question[];
  /** Evidence passages per advocate (default DEFAULT_K, applied once by the offline CASE system). */
  k?: number;
  methods?: string[];
  seed?: number;
  /** Advocates' query plan (default DEFAULT_QUERY_PLAN). */
  plan?: QueryPlan;
  /** Evidence selection (default: the learned selector where it applies; 'plan' = the query plan's top k). */
  evidence?: EvidenceMode;
  /** Selector weights (default: chooseSelector in case-offline-system.ts). */
  selector?: SelectorModel;
  /** Where `questions` came from, named when the learned selector is refused on its own training questions. */
  from?: { dataset: string; split: Split; splitSeed: number };
  /** The way out named in that refusal (default: the library's). */
  heldOutHint?: string;
  onProgress?: (done: number, total: number) => void;
}): Promise<OfflineEvalResult> {
  const idx = await openCaseIndex(opts.index);
  const seed = checkSeed(opts.seed ?? 13, 'seed');
  // a committed learned selector is never measured on the questions it was trained on (as `run case --offline` refuses
  // them); a custom plan leaves the selector out (learnedApplies), a caller's own selector has its own training set
  const committed = !opts.selector || opts.selector === EVIDENCE_SELECTOR_MODEL || opts.selector === EVIDENCE_SELECTOR_MODEL_DENSE;
  try {
    await assertSelectorHeldOut({
      offline: committed && !opts.plan,
      evidence: opts.evidence,
      tools: opts.methods,
      retrievers: idx.retrievers,
      questions: opts.questions,
      ...opts.from,
      hint:
        opts.heldOutHint ??
        `pass evidence: 'plan' (the query plan, trained on nothing), or evaluate the selector on the val or test split of split seed ${SELECTOR_TRAINING.splitSeed}`,
    });
  } catch (e) {
    await idx.docs.close?.();
    throw e;
  }
  // goldInIndex per item: a question whose gold passage is not in the index is said, not a silent miss (caseMetrics)
  const system = withGoldInIndex(
    createCase({ offline: true, k: opts.k, tools: opts.methods, plan: opts.plan, evidence: opts.evidence, selector: opts.selector }),
    idx.docs,
  );
  const records: ResultRecord[] = [];
  const traces = new Map<string, Record<string, unknown>>();
  let methods: string[] = [];
  let evidenceSelection = '';
  try {
    for (const q of opts.questions) {
      const t0 = performance.now();
      const out = await system(q, { seed: deriveSeed(seed, q.id), tools: [], retrievers: idx.retrievers, getPassage: idx.getPassage, options: {} });
      methods = (out.trace.methods as string[]) ?? methods;
      evidenceSelection = (out.trace.evidenceSelection as string) ?? evidenceSelection;
      traces.set(q.id, out.trace);
      records.push({
        id: q.id,
        prediction: out.prediction,
        gold: q.answer,
        correct: out.prediction === q.answer,
        ...(out.confidence ? { confidence: out.confidence } : {}),
        ...(out.metrics ? { metrics: out.metrics } : {}),
        ms: performance.now() - t0,
        ...(out.error ? { error: out.error } : {}),
      });
      opts.onProgress?.(records.length, opts.questions.length);
    }
  } finally {
    await idx.docs.close?.();
  }
  return { records, traces, metrics: caseMetrics(records, traces, seed), methods, evidenceSelection };
}
