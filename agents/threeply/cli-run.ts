/**
 * `lexcase run threeply` after parsing (its flags: agents/threeply/plugin.ts `cli`): builds seeded
 * case triples from the CATO factor model, runs a 3-ply system over them through the common
 * experiment runner (resume, results.jsonl, traces) and writes the per-scenario table of
 * hallucination accuracy, factor utilization recall and abstention ratio into the run's report.md/json.
 */
import { join } from 'node:path';
import type { CliRunContext, CliRunResult } from '../../eval/cli-schema.js';
import { errors } from '../../core/errors.js';
import { readRunUnderWay, runCountsText, runTokensText, runTokenTotal, runUncountedRequests } from '../../eval/run-counts.js';
import { runModelConfigFor } from '../../core/llm/resolved-llm.js';
import { EVALUATOR_TEMPERATURE, THREEPLY_PAPER } from './paper.js';
import { SCENARIO_MODES, type ScenarioMode } from './scenario-modes.js';
import type { ScenarioSource } from './scenarios.js';
import { THREEPLY_SYSTEMS, type ThreePlySystemKind } from './types.js';

/** The paper's generation limit (max_tokens 1000: paper.ts). */
export const THREEPLY_MAX_TOKENS = THREEPLY_PAPER.maxTokens!;

interface ThreeplyFlags {
  scenarios: string[];
  n: number;
  limit?: number;
  seed: number;
  complexity: number;
  source: string;
  system: string;
  evaluatorModel?: string;
  runDir?: string;
  concurrency: number;
  retryFailed?: boolean;
  offline?: boolean;
}

function check(o: ThreeplyFlags): { modes: ScenarioMode[]; kind: ThreePlySystemKind; source: ScenarioSource } {
  const bad = o.scenarios.filter((s) => !(SCENARIO_MODES as readonly string[]).includes(s));
  if (bad.length || !o.scenarios.length)
    throw errors.usage(`--scenarios: unknown scenario "${bad[0] ?? ''}"`, `use a comma-separated list of ${SCENARIO_MODES.join(', ')}`);
  if (!(THREEPLY_SYSTEMS as readonly string[]).includes(o.system))
    throw errors.usage(`--system: unknown system "${o.system}"`, `use one of ${THREEPLY_SYSTEMS.join(', ')}`);
  if (o.source !== 'synthetic' && o.source !== 'casebase') throw errors.usage(`--source must be synthetic or casebase, got "${o.source}"`);
  if (o.offline) throw errors.usage('run threeply needs an LLM; it has no offline path', 'drop --offline and configure an endpoint');
  return { modes: [...new Set(o.scenarios)] as ScenarioMode[], kind: o.system as ThreePlySystemKind, source: o.source };
}

export async function cliRun(ctx: CliRunContext): Promise<CliRunResult> {
  const o = ctx.flags as unknown as ThreeplyFlags;
  const { modes, kind, source } = check(o);
  // real cases keep their own factors (3–7): --complexity only reseeded their order, while config.json and
  // report.md recorded it as if it had set them
  if (source === 'casebase' && ctx.given('complexity'))
    throw errors.usage(
      `--complexity ${o.complexity}: it sets the factor counts of synthetic triples (k-1..k+1 a case); --source casebase runs real CATO cases with their own factors, so it does nothing there`,
      'leave it out with --source casebase',
    );
  // the paper's sampling (top_p 1, max_tokens 1000) where the config leaves it unset: before, top_p was declared
  // and never sent, so servers whose default is not 1 (llama.cpp 0.95, Ollama 0.9) sampled otherwise (helper audit)
  const llm = await ctx.resolveLlm({ paper: 'threeply' });
  const { config, usage } = llm;
  const [{ runThreeplyExperiment }, { summaryMarkdown }] = await Promise.all([import('./experiment.js'), import('./summary.js')]);
  const llmCfg = { ...config.llm, maxTokens: config.llm.maxTokens ?? THREEPLY_MAX_TOKENS };
  const model = llm.makeModel(llmCfg);
  // The paper's evaluator ran at temperature 0; it may be another model on the same endpoint.
  const evaluatorModel = o.evaluatorModel ?? config.llm.model!;
  const evaluator = llm.makeModel({ ...llmCfg, model: evaluatorModel, temperature: EVALUATOR_TEMPERATURE });

  const runDir = o.runDir ?? join('runs', `threeply-${kind}-${source}-s${o.seed}`);
  const { run, summary } = await runThreeplyExperiment({
    runDir,
    kind,
    source,
    modes,
    n: o.n,
    limit: o.limit,
    complexity: o.complexity,
    seed: o.seed,
    model,
    evaluator,
    usage,
    concurrency: o.concurrency,
    retryFailed: o.retryFailed,
    modelConfig: runModelConfigFor(llm, llmCfg),
    llm: {
      model: config.llm.model,
      evaluatorModel,
      temperature: llmCfg.temperature,
      evaluatorTemperature: EVALUATOR_TEMPERATURE,
      maxTokens: llmCfg.maxTokens,
      ...(llm.local ? { local: llm.local } : {}),
    },
  });
  // the requests of items under way at an interrupt (config.json `interrupts`): in no results.jsonl line, said on the counts line
  const underWay = await readRunUnderWay(runDir);
  return {
    json: {
      runDir,
      system: kind,
      ran: run.ran,
      skipped: run.skipped,
      keptFailed: run.keptFailed,
      failed: run.failed,
      runTokens: runTokenTotal(run.results),
      tokens: usage.snapshot(),
      requests: runUncountedRequests(run.results, underWay),
      scenarios: summary,
    },
    human: () =>
      `${summaryMarkdown(kind, summary)}\n\nrun dir: ${runDir}: ${runCountsText(run)}; ${runTokensText(run.results, usage.snapshot().total, underWay)}`,
    runDirs: [runDir],
  };
}
