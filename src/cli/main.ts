#!/usr/bin/env node
/**
 * `lexcase` command-line entry point. Each command lives in its own file under ./commands and
 * exports `register(program)`; add new commands to the list below.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { VERSION } from '../../core/version.js';
import type { CommandModule } from './commands/types.js';
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
import * as mcp from './commands/mcp.js';
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
  mcp,
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
  const program = new Command('lexcase')
    .description('Retrieval-centric legal RAG with agentic advocates')
    .version(VERSION)
    .option('--json', 'machine-readable JSON on stdout; no progress bars')
    .option('-q, --quiet', 'only warnings and errors on stderr')
    .option('--debug', 'stack traces and debug logging')
    .showHelpAfterError("(add --help for this command's options)")
    .enablePositionalOptions(false);
  for (const m of modules) m.register(program, { buildProgram });
  return program;
}

function invokedDirectly(): boolean {
  try {
    return !!process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (invokedDirectly()) {
  await buildProgram().parseAsync(process.argv);
}
