/**
 * `lexcase report <runDir> [--json] [--iterations N] [--seed N]` — read a run directory, write
 * report.md and report.json into it, print the Markdown (or the JSON with --json).
 */
import type { Command } from 'commander';
import { log } from '../../../core/log.js';
import { action, output, parseIntOpt, type GlobalOpts } from '../action.js';

interface ReportFlags {
  iterations?: number;
  seed?: number;
}

export function register(program: Command): void {
  program
    .command('report')
    .description('write report.md + report.json for a run dir: accuracy with 95% CI, by confidence, per-item metrics, tool usage, tokens, failures')
    .argument('<runDir>', 'run directory (config.json, results.jsonl, traces/)')
    .option('--iterations <n>', 'bootstrap resamples', parseIntOpt('iterations', { min: 1 }), 2000)
    .option('--seed <n>', 'bootstrap seed (default: the run seed)', parseIntOpt('seed'))
    .action(
      action(async (runDir: string, flags: ReportFlags, cmd: Command) => {
        const opts = cmd.optsWithGlobals() as GlobalOpts;
        // the agents' report sections register themselves on import (agents/report-sections.ts)
        const [{ writeReport }] = await Promise.all([import('../../../eval/report/write-report.js'), import('../../../agents/report-sections.js')]);
        const report = await writeReport(runDir, { iterations: flags.iterations, seed: flags.seed });
        output(opts, report.json, () => report.markdown);
        log.info(`wrote ${runDir}/report.md and report.json`);
      }),
    );
}
