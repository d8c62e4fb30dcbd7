/**
 * `lexcase run threeply --scenarios arguable,mismatched,non-arguable --n 90 [--system reflective]`:
 * builds seeded case triples from the CATO factor model, runs a 3-ply system over them through the
 * common experiment runner (resume, results.jsonl, traces) and writes the per-scenario table of
 * hallucination accuracy, factor utilization recall and abstention ratio into the run's report.md/json.
 */
import { join } from 'node:path';
import type { Command } from 'commander';
import { SCENARIO_MODES, type ScenarioMode } from '../../../agents/threeply/scenario-modes.js';
import type { ScenarioSource } from '../../../agents/threeply/scenarios.js';
import { THREEPLY_SYSTEMS, type ThreePlySystemKind } from '../../../agents/threeply/types.js';
import { errors } from '../../../core/errors.js';
import { action, output, parseIntOpt, parseListOpt, type GlobalOpts } from '../action.js';
import { addLlmOptions, resolveLlm, type LlmCliOpts } from '../llm-options.js';
import { addRunDirOption, exitWhenNoItemSucceeded, runCommand, runDirFlag } from '../run-command.js';

/** The paper's generation limit (max_tokens 1000). */
export const THREEPLY_MAX_TOKENS = 1000;

interface ThreeplyOpts extends GlobalOpts, LlmCliOpts {
  scenarios: string[];
  n: number;
  limit?: number;
  seed: number;
  complexity: number;
  source: string;
  system: string;
  evaluatorModel?: string;
  out?: string;
  runDir?: string;
  concurrency: number;
  retryFailed?: boolean;
}

function check(o: ThreeplyOpts): { modes: ScenarioMode[]; kind: ThreePlySystemKind; source: ScenarioSource } {
  const bad = o.scenarios.filter((s) => !(SCENARIO_MODES as readonly string[]).includes(s));
  if (bad.length || !o.scenarios.length)
    throw errors.usage(`--scenarios: unknown scenario "${bad[0] ?? ''}"`, `use a comma-separated list of ${SCENARIO_MODES.join(', ')}`);
  if (!(THREEPLY_SYSTEMS as readonly string[]).includes(o.system))
    throw errors.usage(`--system: unknown system "${o.system}"`, `use one of ${THREEPLY_SYSTEMS.join(', ')}`);
  if (o.source !== 'synthetic' && o.source !== 'casebase') throw errors.usage(`--source must be synthetic or casebase, got "${o.source}"`);
  if (o.offline) throw errors.usage('run threeply needs an LLM; it has no offline path', 'drop --offline and configure an endpoint');
  return { modes: [...new Set(o.scenarios)] as ScenarioMode[], kind: o.system as ThreePlySystemKind, source: o.source };
}

export async function runThreeplyCommand(o: ThreeplyOpts): Promise<void> {
  const { modes, kind, source } = check(o);
  const llm = await resolveLlm(o);
  const { config, usage } = llm;
  const [{ runThreeplyExperiment }, { summaryMarkdown }] = await Promise.all([
    import('../../../agents/threeply/experiment.js'),
    import('../../../agents/threeply/summary.js'),
  ]);
  const llmCfg = { ...config.llm, maxTokens: config.llm.maxTokens ?? THREEPLY_MAX_TOKENS };
  const model = llm.makeModel(llmCfg);
  // The paper's evaluator ran at temperature 0; it may be another model on the same endpoint.
  const evaluatorModel = o.evaluatorModel ?? config.llm.model!;
  const evaluator = llm.makeModel({ ...llmCfg, model: evaluatorModel, temperature: 0 });

  const runDir = runDirFlag(o) ?? join('runs', `threeply-${kind}-${source}-s${o.seed}`);
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
    llm: { model: config.llm.model, evaluatorModel, temperature: llmCfg.temperature, maxTokens: llmCfg.maxTokens, ...(llm.local ? { local: llm.local } : {}) },
  });
  output(
    o,
    { runDir, system: kind, ran: run.ran, skipped: run.skipped, failed: run.failed, tokens: usage.snapshot(), scenarios: summary },
    () =>
      `${summaryMarkdown(kind, summary)}\n\nrun dir: ${runDir} (ran ${run.ran}, resumed past ${run.skipped}, failed ${run.failed}); tokens ${usage.snapshot().total}`,
  );
  await exitWhenNoItemSucceeded(runDir);
}

export function register(program: Command): void {
  addLlmOptions(
    addRunDirOption(runCommand(program).command('threeply'), 'runs/threeply-<system>-<source>-s<seed>')
      .description('reflective 3-ply legal arguments on CATO trade-secret case triples (hallucination accuracy, factor utilization recall, abstention)')
      .option('--scenarios <list>', `comma-separated: ${SCENARIO_MODES.join(', ')}`, parseListOpt, [...SCENARIO_MODES])
      .option('--n <n>', 'triples per scenario (the paper: 90)', parseIntOpt('n', { min: 1 }), 90)
      .option('--limit <n>', 'first N triples only (in --scenarios order), as on the other systems', parseIntOpt('limit', { min: 1 }))
      .option('--system <kind>', THREEPLY_SYSTEMS.join(' | '), 'reflective')
      .option('--seed <n>', 'seed for the triples and the run', parseIntOpt('seed'), 13)
      .option('--complexity <k>', 'each case gets k-1..k+1 factors (the paper: 5)', parseIntOpt('complexity', { min: 1 }), 5)
      .option('--source <s>', 'synthetic (random factor sets, as the paper) | casebase (real CATO cases)', 'synthetic')
      .option('--evaluator-model <id>', 'model for the Factor Distiller, on the same endpoint (default: the run model), at temperature 0')
      .option('--concurrency <n>', 'triples run at once', parseIntOpt('concurrency', { min: 1 }), 1)
      .option('--no-retry-failed', 'on resume, keep failed items as they are (default: run them again)'),
    { offline: false },
  ).action(
    action(async (opts: ThreeplyOpts, cmd: Command) => {
      await runThreeplyCommand({ ...cmd.optsWithGlobals(), ...opts });
    }),
  );
}
