/**
 * `lexcase compare <runA> <runB> [--json] [--iterations N] [--seed N]` — the two runs on the item
 * ids both share, every difference B − A (runB minus runA) with its 95% paired-bootstrap interval
 * (none below 10 items) and the p of an exact paired test (McNemar for 0/1 outcomes, sign-flip for
 * graded values; macro-F1, no per-item mean, none): the systems' headline macro-F1 where both declare it,
 * accuracy and boolean per-item metrics, or a retrieval run's Recall@k and MRR
 * (eval/report/compare.ts over eval/stats/).
 */
import type { Command } from 'commander';
import { resamplesOpt, seedOpt } from '../numeric-options.js';
import { action, output, type GlobalOpts } from '../action.js';
import { RESAMPLES, SEED } from '../../../eval/stats/settings.js';

interface CompareFlags {
  iterations: number;
  seed: number;
}

export function register(program: Command): void {
  program
    .command('compare')
    .description(
      'paired comparison of two runs on their shared items: B − A (runB minus runA) per measure — the headline figure of both systems (macro-F1 for EMAR and ACAL runs) and accuracy, or Recall@k and MRR for retrieval runs — with a 95% paired-bootstrap interval and an exact test (McNemar / sign-flip)',
    )
    .argument('<runA>', 'first run directory')
    .argument('<runB>', 'second run directory')
    .option('--iterations <n>', 'bootstrap resamples for the interval of B − A', resamplesOpt(), RESAMPLES)
    .option('--seed <n>', 'bootstrap seed', seedOpt('seed'), SEED)
    .action(
      action(async (runA: string, runB: string, flags: CompareFlags, cmd: Command) => {
        const opts = cmd.optsWithGlobals() as GlobalOpts;
        const { compareRuns, formatComparison } = await import('../../../eval/report/compare.js');
        const c = await compareRuns(runA, runB, { iterations: flags.iterations, seed: flags.seed });
        output(opts, c, () => formatComparison(c));
      }),
    );
}
