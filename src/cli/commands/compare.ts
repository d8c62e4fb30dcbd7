/**
 * `lexcase compare <runA> <runB> [--json] [--iterations N] [--seed N]` — paired bootstrap on the
 * item ids both runs share: accuracy difference A − B, 95% CI, p-value; the same for boolean
 * per-item metrics both runs report.
 */
import type { Command } from 'commander';
import { action, output, parseIntOpt, type GlobalOpts } from '../action.js';

interface CompareFlags {
  iterations: number;
  seed: number;
}

export function register(program: Command): void {
  program
    .command('compare')
    .description('paired bootstrap comparison of two runs on their shared items (accuracy difference, 95% CI, p-value)')
    .argument('<runA>', 'first run directory')
    .argument('<runB>', 'second run directory')
    .option('--iterations <n>', 'bootstrap resamples', parseIntOpt('iterations', { min: 1 }), 10000)
    .option('--seed <n>', 'bootstrap seed', parseIntOpt('seed'), 13)
    .action(
      action(async (runA: string, runB: string, flags: CompareFlags, cmd: Command) => {
        const opts = cmd.optsWithGlobals() as GlobalOpts;
        const { compareRuns, formatComparison } = await import('../../../eval/report/compare.js');
        const c = await compareRuns(runA, runB, { iterations: flags.iterations, seed: flags.seed });
        output(opts, c, () => formatComparison(c));
      }),
    );
}
