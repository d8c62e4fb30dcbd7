/**
 * `lexcase run case --dataset barexam --split val [--index DIR] [--offline] [--tools bm25,qld,dense,hybrid,rewrite]
 *  [--jurors 3] [--k 5] [--seed 13] [--limit N] [--hypotheses direct|exploratory] [--run-dir runs/NAME]`:
 * the CASE pipeline over a dataset split on the experiment runner (resumable run dir), then its
 * metrics. Without --index, the bundled default index (.lexcase/demo/index) is used, built if absent.
 * Without --offline and without a configured LLM it stops at once with how to configure one.
 */
import type { Command } from 'commander';
import type { CaseExperimentResult } from '../../../agents/case/experiment.js';
import { errors } from '../../../core/errors.js';
import { log } from '../../../core/log.js';
import { action, output, parseIntOpt, parseListOpt, type GlobalOpts } from '../action.js';
import { degeneracyWarnings } from '../../../agents/common/paper-settings.js';
import { addLlmOptions, resolveLlm, runModelConfig, warnValidity, type LlmCliOpts } from '../llm-options.js';
import { DEFAULT_K } from '../../../retrieval/default-k.js';
import { AGENT_DEFAULTS } from '../../../agents/common/defaults.js';
import { exitWhenNoItemSucceeded, runCommand } from '../run-command.js';

export interface RunFlags extends LlmCliOpts {
  dataset: string;
  split: string;
  splitSeed: number;
  index?: string;
  k: number;
  seed: number;
  limit?: number;
  runDir?: string;
  concurrency: number;
  /** commander's --no-retry-failed sets retryFailed=false. */
  retryFailed?: boolean;
}

interface RunCaseFlags extends RunFlags {
  tools?: string[];
  evidence: string;
  jurors: number;
  hypotheses: string;
  maxSteps: number;
  maxTokens: number;
}

export { runCommand } from '../run-command.js';

export function addRunOptions(cmd: Command): Command {
  return cmd
    .option('--dataset <name>', 'dataset', 'barexam')
    .option('--split <split>', 'train | val | test | all', 'val')
    .option('--split-seed <n>', 'seed of the dataset split', parseIntOpt('split-seed'), 13)
    .option('--index <dir>', 'index directory (default: the bundled default index, built if absent)')
    .option('-k, --k <n>', 'passages per advocate / in the RAG context', parseIntOpt('k', { min: 1 }), DEFAULT_K)
    .option('--seed <n>', 'run seed (jury panels, bootstrap)', parseIntOpt('seed'), 13)
    .option('--limit <n>', 'only the first N questions of the split', parseIntOpt('limit', { min: 1 }))
    .option('--run-dir <dir>', 'run directory (default runs/<system>-<mode>-<dataset>-<split>-k<k>-s<seed>)')
    .option('--concurrency <n>', 'questions run at once', parseIntOpt('concurrency', { min: 1 }), 1)
    .option('--no-retry-failed', 'on resume, keep failed items as they are (default: run them again)');
}

export function formatRun(r: CaseExperimentResult, title: string): string {
  return [
    `${title}: ${r.runDir}`,
    `ran ${r.ran}${r.retried ? ` (${r.retried} failed earlier, retried)` : ''}, skipped ${r.skipped} (already done), failed ${r.failed}`,
    '',
    r.markdown,
  ].join('\n');
}

export function register(program: Command): void {
  addLlmOptions(
    addRunOptions(runCommand(program).command('case').description('CASE: hypotheses → advocates (tool loops) → persona jury'))
      .option('--tools <list>', 'advocate tools: bm25,qld,dense,hybrid,rewrite (default: all the index has)', parseListOpt)
      .option(
        '--evidence <how>',
        "offline evidence: learned (the learned selector, trained on train; needs bm25 + qld, no --tools; with a use-lite dense part it also reads dense and phrase signals) | plan (the query plan's top k)",
        'learned',
      )
      .option('--jurors <n>', 'jurors per question (from the 5 personas)', parseIntOpt('jurors', { min: 1, max: 5 }), AGENT_DEFAULTS.jurors)
      .option('--hypotheses <how>', 'direct (options are the hypotheses) | exploratory (LLM proposes them)', 'direct')
      .option('--max-steps <n>', 'model calls per advocate', parseIntOpt('max-steps', { min: 1 }), AGENT_DEFAULTS.maxSteps)
      .option('--max-tokens <n>', 'tokens per advocate loop', parseIntOpt('max-tokens', { min: 1 }), AGENT_DEFAULTS.maxTokens),
  ).action(
    action(async (flags: RunCaseFlags, cmd: Command) => {
      const g = cmd.optsWithGlobals() as GlobalOpts;
      if (flags.evidence !== 'learned' && flags.evidence !== 'plan') throw errors.invalidInput('--evidence', `"${flags.evidence}"; expected learned or plan`);
      if (flags.hypotheses !== 'direct' && flags.hypotheses !== 'exploratory')
        throw errors.invalidInput('--hypotheses', `"${flags.hypotheses}"; expected direct or exploratory`);
      const llm = await resolveLlm(flags, { paper: 'case' });
      const warnings = llm.offline ? [] : warnValidity(degeneracyWarnings('case', { temperature: llm.config.llm.temperature, jurors: flags.jurors }));
      const [{ ensureDefaultIndex, runCaseExperiment }, { parseSplit }, { OFFLINE_LABEL }] = await Promise.all([
        import('../../../agents/case/experiment.js'),
        import('../../../corpora/splits.js'),
        import('../../../agents/case/advocate-offline.js'),
      ]);
      const index = flags.index ?? (await ensureDefaultIndex(undefined, (l) => log.info(l)));
      const r = await runCaseExperiment({
        system: 'case',
        dataset: flags.dataset,
        split: parseSplit(flags.split),
        splitSeed: flags.splitSeed,
        index,
        offline: llm.offline,
        llm: llm.model,
        model: runModelConfig(llm),
        warnings,
        usage: llm.usage,
        tools: flags.tools,
        evidence: flags.evidence as 'learned' | 'plan',
        jurors: flags.jurors,
        k: flags.k,
        seed: flags.seed,
        limit: flags.limit,
        hypotheses: flags.hypotheses,
        maxSteps: flags.maxSteps,
        maxTokens: flags.maxTokens,
        concurrency: flags.concurrency,
        retryFailed: flags.retryFailed,
        runDir: flags.runDir,
      });
      output(g, { runDir: r.runDir, ran: r.ran, skipped: r.skipped, failed: r.failed, metrics: r.metrics }, () =>
        formatRun(r, `CASE${llm.offline ? ` (${OFFLINE_LABEL})` : ''}`),
      );
      await exitWhenNoItemSucceeded(r.runDir);
    }),
  );
}
