/**
 * `lexcase report <runDir> [--json] [--iterations N] [--seed N]` — read a run directory, write
 * report.md and report.json into it, print the Markdown (or the JSON with --json). Without
 * --iterations/--seed: the bootstrap the run recorded (eval/report/recorded-bootstrap.ts), else the shared one.
 */
import type { Command } from 'commander';
import { log } from '../../../core/log.js';
import { resamplesOpt, seedOpt } from '../numeric-options.js';
import { action, output, type GlobalOpts } from '../action.js';
import { RESAMPLES, SEED } from '../../../eval/stats/settings.js';

interface ReportFlags {
  iterations?: number;
  seed?: number;
}

export function register(program: Command): void {
  program
    .command('report')
    .description(
      'write report.md + report.json for a run dir: the headline figures (Recall@k/MRR for retrieval runs, accuracy for the rest) with named 95% intervals, by confidence, per-item metrics, tool usage, tokens, failures',
    )
    .argument('<runDir>', 'run directory (config.json, results.jsonl, traces/)')
    .option(
      '--iterations <n>',
      `bootstrap resamples (bootstrap intervals only; Wilson intervals take none; default: the run's recorded ones, e.g. run acal --iterations, else ${RESAMPLES})`,
      resamplesOpt(),
    )
    .option('--seed <n>', `bootstrap seed (default: the run's recorded one, else ${SEED}, as the explorer and every other surface)`, seedOpt('seed'))
    .action(
      action(async (runDir: string, flags: ReportFlags, cmd: Command) => {
        const opts = cmd.optsWithGlobals() as GlobalOpts;
        // the system list (agents/systems.ts) hands itself to eval: the report finds the run's system's section
        const [{ writeReport }] = await Promise.all([import('../../../eval/report/write-report.js'), import('../../../agents/systems.js')]);
        const report = await writeReport(runDir, { iterations: flags.iterations, seed: flags.seed });
        output(opts, report.json, () => report.markdown);
        log.info(`wrote ${runDir}/report.md and report.json`);
      }),
    );
}
