/**
 * `lexcase run baseline --mode …` after parsing (its flags: agents/case/baselines/plugin.ts `cli`): the CASE
 * paper's single-path baselines on the same runner and run-dir layout as `run case`. Only the
 * oracle puts the gold passage in the prompt.
 */
import type { CliRunContext, CliRunResult } from '../../../eval/cli-schema.js';
import { runModelConfig } from '../../../core/llm/resolved-llm.js';
import { errors } from '../../../core/errors.js';
import { log } from '../../../core/log.js';
import { formatRun, runSummary, type RunOptionFlags } from '../cli-run.js';
import { BASELINE_MODES, type BaselineMode } from './baseline-modes.js';

interface BaselineFlags extends RunOptionFlags {
  mode: string;
}

export async function cliRun(ctx: CliRunContext): Promise<CliRunResult> {
  const flags = ctx.flags as unknown as BaselineFlags;
  if (!BASELINE_MODES.includes(flags.mode as BaselineMode))
    throw errors.invalidInput('--mode', `"${flags.mode}"; expected one of ${BASELINE_MODES.join(', ')}`);
  if (flags.offline) throw errors.usage('baselines need an LLM; --offline is only for `lexcase run case`');
  const llm = await ctx.resolveLlm({ paper: 'baseline' });
  const [{ ensureDefaultIndex, runCaseExperiment }, { parseSplit }] = await Promise.all([import('../experiment.js'), import('../../../corpora/splits.js')]);
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
  return { json: runSummary(r), human: () => formatRun(r, `baseline ${flags.mode}`), runDirs: [r.runDir] };
}
