/**
 * The runner tests' plainest system: every item answered with one letter (default "A"), gold its
 * `answer`, run through the real runner (`runExperiment`, seed 13). For tests of what a run dir
 * records and what a report or a resume reads from it, not of a system's own answers; pass
 * `lexcaseSystem` where the run stands in for a lexcase system's, as that system's experiment does.
 */
import { contextFrom, runExperiment, type RunExperimentResult } from '../runner.js';

export interface ConstantRun<Item extends { id: string; answer: string }> {
  runDir: string;
  items: Item[];
  config: Record<string, unknown>;
  lexcaseSystem?: string;
  prediction?: string;
  confidence?: string;
  trace?: Record<string, unknown>;
}

export function runConstantSystem<Item extends { id: string; answer: string }>(o: ConstantRun<Item>): Promise<RunExperimentResult> {
  return runExperiment({
    runDir: o.runDir,
    system: async () => ({ prediction: o.prediction ?? 'A', ...(o.confidence ? { confidence: o.confidence } : {}), trace: { ...o.trace } }),
    items: o.items,
    gold: (q) => q.answer,
    makeContext: contextFrom(),
    config: o.config,
    seed: 13,
    ...(o.lexcaseSystem ? { lexcaseSystem: o.lexcaseSystem } : {}),
  });
}
