/**
 * The `lexcase` program: the root command with its global flags and every command file's
 * `register(program, ctx)`. Add new commands to the list below. src/cli/main.ts runs it; tests
 * build it in-process. Command files get `ctx.buildProgram` (a fresh program, for commands that run
 * other commands in this process — `reproduce`) instead of importing this module, so no command
 * file imports its way back here.
 */
import type { Command } from 'commander';
import { VERSION } from '../../core/version.js';
import type { CliContext, CommandModule } from './commands/types.js';
import { LexcaseCommand } from './lexcase-command.js';
import * as acalContest from './commands/acal-contest.js';
import * as compare from './commands/compare.js';
import * as demo from './commands/demo.js';
import * as evalRetrieval from './commands/eval-retrieval.js';
import * as evalRun from './commands/eval-run.js';
import * as evidence from './commands/evidence.js';
import * as indexCmd from './commands/index-cmd.js';
import * as indexDense from './commands/index-dense.js';
import * as indexLanceFts from './commands/index-lancedb-fts.js';
import * as indexVerify from './commands/index-verify.js';
import * as merge from './commands/merge.js';
import * as report from './commands/report.js';
import * as reproduce from './commands/reproduce.js';
import * as runAcal from './commands/run-acal.js';
import * as runBaseline from './commands/run-baseline.js';
import * as runCase from './commands/run-case.js';
import * as runEmar from './commands/run-emar.js';
import * as runMad from './commands/run-mad.js';
import * as runThreeply from './commands/run-threeply.js';
import * as search from './commands/search.js';
import * as serve from './commands/serve.js';

const modules: CommandModule[] = [
  // one import per command file, kept in alphabetical order
  acalContest,
  compare,
  demo,
  evalRetrieval,
  evalRun,
  evidence,
  indexCmd,
  indexDense,
  indexLanceFts,
  indexVerify,
  merge,
  report,
  reproduce,
  runAcal,
  runBaseline,
  runCase,
  runEmar,
  runMad,
  runThreeply,
  search,
  serve,
];

export function buildProgram(): Command {
  const program = new LexcaseCommand('lexcase')
    .description('Retrieval-centric legal RAG with agentic advocates')
    .version(VERSION)
    .option('--json', 'machine-readable JSON on stdout; no progress bars')
    .option('-q, --quiet', 'only warnings and errors on stderr')
    .option('--debug', 'stack traces and debug logging')
    .showHelpAfterError("(add --help for this command's options)")
    .enablePositionalOptions(false);
  const ctx: CliContext = { buildProgram };
  for (const m of modules) m.register(program, ctx);
  return program;
}
