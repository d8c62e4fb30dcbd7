/**
 * `lexcase run baseline --mode …` after parsing (its flags: agents/case/baselines/plugin.ts `cli`): the CASE
 * paper's single-path baselines on the same runner and run-dir layout as `run case`. Only the
 * oracle puts the gold passage in the prompt.
 */
import type { CliRunContext, CliRunResult } from '../../../eval/cli-schema.js';
import { errors } from '../../../core/errors.js';
import { log } from '../../../core/log.js';
import { runOptions, runOptionsWithoutIndex, type RunOptionFlags } from '../../common/run-options.js';
import { formatRun, runSummary } from '../cli-run.js';
import { BASELINE_MODES, type BaselineMode } from './baseline-modes.js';

interface BaselineFlags extends RunOptionFlags {
  mode: string;
}

export async function cliRun(ctx: CliRunContext): Promise<CliRunResult> {
  const flags = ctx.flags as unknown as BaselineFlags;
  if (!BASELINE_MODES.includes(flags.mode as BaselineMode))
    throw errors.invalidInput('--mode', `"${flags.mode}"; expected one of ${BASELINE_MODES.join(', ')}`);
  if (flags.offline) throw errors.usage('baselines need an LLM; --offline is only for `lexcase run case`');
  // llm-only retrieves nothing: `-k 7` was dropped without a word (config.json k 0); said as eval retrieval says an ignored --fusion
  if (flags.mode === 'llm-only' && ctx.given('k')) log.warn(`-k ${flags.k} is ignored: --mode llm-only retrieves no passage (config.json records k 0)`);
  // the oracle shows each question's gold passage(s), whatever k: `-k 1` and `-k 10` sent the same prompts (helper audit).
  // config.json keeps the k given (its run dir name and a resume's check use it), so the run says it here
  if (flags.mode === 'oracle' && ctx.given('k'))
    log.warn(
      `-k ${flags.k} changes nothing: --mode oracle shows each question's gold passage(s), not a search's top k (config.json records k ${flags.k} as given)`,
    );
  // a baseline draws nothing (no panel, order or tie) and its requests carry no seed: `--seed 13` and `--seed 999` sent
  // byte-identical prompts, two unseeded samples read as seeded replicates (helper audit); the seed stays recorded as given
  if (ctx.given('seed'))
    log.warn(
      `--seed ${flags.seed} changes nothing: a baseline draws nothing and its requests carry no seed (LEXCASE_LLM_SEED sets one); config.json and the run dir name record it as given`,
    );
  // nor does it read an index: none is built or opened, and config.json records none (a reproduction gives every run its --index)
  if (flags.mode === 'llm-only' && flags.index !== undefined)
    log.info(`--index ${flags.index} is not read: --mode llm-only retrieves no passage (config.json records no index)`);
  const llm = await ctx.resolveLlm({ paper: 'baseline' });
  const { runCaseExperiment } = await import('../experiment.js');
  const r = await runCaseExperiment({
    ...(flags.mode === 'llm-only' ? await runOptionsWithoutIndex(flags, llm) : await runOptions(flags, llm)),
    system: 'baseline',
    mode: flags.mode as BaselineMode,
  });
  return { json: runSummary(r), human: () => formatRun(r, `baseline ${flags.mode}`), runDirs: [r.runDir] };
}
