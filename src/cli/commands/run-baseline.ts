/**
 * `lexcase run baseline --mode llm-only|bm25-rag|qld-rag|dense-rag|hybrid-rag|oracle --k 3|5|10 …`:
 * the CASE paper's single-path baselines on the same runner and run-dir layout as `run case`.
 * Only the oracle puts the gold passage in the prompt.
 */
import type { Command } from 'commander';
import { BASELINE_MODES, type BaselineMode } from '../../../agents/baselines/baseline-modes.js';
import { errors } from '../../../core/errors.js';
import { log } from '../../../core/log.js';
import { action, output, type GlobalOpts } from '../action.js';
import { addLlmOptions, resolveLlm, runModelConfig } from '../llm-options.js';
import { addRunOptions, formatRun, runCommand, type RunFlags } from './run-case.js';
import { exitWhenNoItemSucceeded } from '../run-command.js';

interface RunBaselineFlags extends RunFlags {
  mode: string;
}

export function register(program: Command): void {
  addLlmOptions(
    addRunOptions(
      runCommand(program).command('baseline').description('single-path baselines: LLM-only, BM25/QLD/dense/hybrid RAG, gold oracle'),
    ).requiredOption('--mode <mode>', BASELINE_MODES.join(' | ')),
    { offline: false },
  ).action(
    action(async (flags: RunBaselineFlags, cmd: Command) => {
      const g = cmd.optsWithGlobals() as GlobalOpts;
      if (!BASELINE_MODES.includes(flags.mode as BaselineMode))
        throw errors.invalidInput('--mode', `"${flags.mode}"; expected one of ${BASELINE_MODES.join(', ')}`);
      if (flags.offline) throw errors.usage('baselines need an LLM; --offline is only for `lexcase run case`');
      const llm = await resolveLlm(flags, { paper: 'baseline' });
      const [{ ensureDefaultIndex, runCaseExperiment }, { parseSplit }] = await Promise.all([
        import('../../../agents/case/experiment.js'),
        import('../../../corpora/splits.js'),
      ]);
      const index = flags.index ?? (await ensureDefaultIndex(undefined, (l) => log.info(l)));
      const r = await runCaseExperiment({
        system: 'baseline',
        mode: flags.mode as BaselineMode,
        dataset: flags.dataset,
        split: parseSplit(flags.split),
        splitSeed: flags.splitSeed,
        index,
        llm: llm.model,
        model: runModelConfig(llm),
        usage: llm.usage,
        k: flags.k,
        seed: flags.seed,
        limit: flags.limit,
        concurrency: flags.concurrency,
        retryFailed: flags.retryFailed,
        runDir: flags.runDir,
      });
      output(g, { runDir: r.runDir, ran: r.ran, skipped: r.skipped, failed: r.failed, metrics: r.metrics }, () => formatRun(r, `baseline ${flags.mode}`));
      await exitWhenNoItemSucceeded(r.runDir);
    }),
  );
}
