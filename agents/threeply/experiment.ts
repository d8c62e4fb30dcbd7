/**
 * A 3-ply experiment: seeded case triples from the CATO factor model, one 3-ply system over them
 * through the common runner (resume, results.jsonl, traces), then report.md/json with the
 * per-scenario section. `lexcase run threeply` parses flags and calls this.
 */
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { loadTradeSecretModel } from '../../corpora/trade-secret.js';
import { firstItems } from '../../corpora/registry.js';
import { writeReport } from '../../eval/report/write-report.js';
import { contextFrom, runExperiment, type RunExperimentResult } from '../../eval/runner.js';
import type { UsageMeter } from '../../core/llm/usage.js';
import { buildScenarios, expectedBehaviour, type CaseTriple, type ScenarioMode, type ScenarioSource } from './scenarios.js';
import { summarizeRun } from './summary.js';
import { FACTOR_MENTION_READING } from './metrics.js';
import { POLISHER_READING } from './argument-polisher.js';
import { TERMINATE_READING } from './format.js';
import { requestFingerprint } from '../../eval/request-fingerprint.js';
import { threeplyRequests } from './requests.js';
import { createThreePlySystem } from './system.js';
import type { ThreePlySystemKind } from './types.js';

export interface ThreeplyExperimentOptions {
  runDir: string;
  kind: ThreePlySystemKind;
  source: ScenarioSource;
  modes: ScenarioMode[];
  n: number;
  /** The first N triples only (scenario order, then triple order), as `--limit` on the other systems. */
  limit?: number;
  complexity: number;
  seed: number;
  model: BaseChatModel;
  /** The Factor Distiller's model (the paper: temperature 0). */
  evaluator: BaseChatModel;
  usage?: UsageMeter;
  concurrency?: number;
  /** On resume, run failed items again (default true). */
  retryFailed?: boolean;
  /** Recorded in config.json as `model`: the public (redacted) LLM settings the model is made with (resolved-llm.ts `runModelConfigFor`); without it, the model id. */
  modelConfig?: Record<string, unknown>;
  /**
   * Recorded in config.json: model ids and sampling, per role: `temperature` is the argument agents'
   * (the model's), `evaluatorTemperature` the Factor Distiller's (the evaluator's requests).
   */
  llm: { model?: string; evaluatorModel?: string; temperature?: number; evaluatorTemperature?: number; maxTokens?: number; local?: Record<string, unknown> };
}

export async function runThreeplyExperiment(o: ThreeplyExperimentOptions): Promise<{ run: RunExperimentResult; summary: ReturnType<typeof summarizeRun> }> {
  const factors = loadTradeSecretModel();
  const all: CaseTriple[] = o.modes.flatMap((mode) => buildScenarios({ mode, n: o.n, seed: o.seed, complexity: o.complexity, source: o.source }, factors));
  const items = firstItems(all, o.limit);
  const run = await runExperiment({
    lexcaseSystem: 'threeply',
    runDir: o.runDir,
    system: createThreePlySystem({ kind: o.kind, factors, evaluator: o.evaluator }),
    items,
    gold: (t) => expectedBehaviour(t.mode),
    // "<mode>-NNN" names a place in the seeded draw, not a triple: each result records its triple's checksum
    itemContent: (t) => ({ mode: t.mode, c1: t.c1, c2: t.c2, c3: t.c3 }),
    makeContext: contextFrom({ llm: o.model }),
    // the distiller's own model: its switch to prompt-only JSON is recorded beside the agents' (config.json, report.md)
    roleModels: { 'Factor Distiller': o.evaluator },
    config: {
      system: 'threeply',
      variant: o.kind,
      dataset: `trade-secret-${o.source}`,
      scenarios: o.modes,
      n: o.n,
      ...(o.limit !== undefined ? { limit: o.limit } : {}),
      complexity: o.complexity,
      model: o.modelConfig ?? o.llm.model,
      evaluatorModel: o.llm.evaluatorModel,
      temperature: o.llm.temperature,
      ...(o.llm.evaluatorTemperature !== undefined ? { evaluatorTemperature: o.llm.evaluatorTemperature } : {}),
      maxTokens: o.llm.maxTokens,
      ...(o.llm.local ? { local: o.llm.local } : {}),
      // what the roles send that decides the results: their prompts and reply schemas (requests.ts)
      prompts: requestFingerprint(threeplyRequests(o.kind, factors)),
      // how the Factor Distiller's strings are read into factor ids (metrics.ts): a resume of a run dir without it warns
      factorMentionReading: FACTOR_MENTION_READING,
      // how the reflective system's Polisher reply is read (argument-polisher.ts): a resume of a run dir without it warns
      ...(o.kind === 'reflective' ? { polisherReading: POLISHER_READING } : {}),
      // how a ply or reply is read as an abstention (format.ts isTerminate): a resume of a run dir without it warns
      terminateReading: TERMINATE_READING,
    },
    seed: o.seed,
    usage: o.usage,
    concurrency: o.concurrency,
    retryFailed: o.retryFailed,
    label: `threeply ${o.kind}`,
    // report.md / report.json in the common format, with the 3-ply section (report-section.ts), before the run dir is unlocked
    whileLocked: async () => {
      await writeReport(o.runDir);
    },
  });
  // the statistics module's seed and resamples, as report.md and the explorer: one interval per figure on every surface
  return { run, summary: summarizeRun(run.results) };
}
