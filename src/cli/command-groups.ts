/**
 * The `lexcase` commands: the root program (global flags, version) and, for each top-level command,
 * the command files that register it and its subcommands. Add a new command file to its group here.
 *
 * The CLI entry (main.ts) loads only the group its command line names (`lexcase search …` loads
 * commands/search.ts and what its options need; `lexcase --version` loads none), so start-up does not
 * grow with the number of commands; `--help`, no command, or an unknown one load all of them
 * (program.ts). Command files register cheaply: what their actions need is imported inside the
 * action (see docs/architecture.md, "Start-up").
 */
import type { Command } from 'commander';
import { VERSION } from '../../core/version.js';
import type { CliContext, CommandModule } from './commands/types.js';
import { LexcaseCommand } from './lexcase-command.js';

type Loader = () => Promise<CommandModule>;

/** Top-level command → the files that register it (and its subcommands), in alphabetical order. */
export const COMMAND_GROUPS: Readonly<Record<string, readonly Loader[]>> = {
  acal: [() => import('./commands/acal-contest.js')],
  compare: [() => import('./commands/compare.js')],
  demo: [() => import('./commands/demo.js')],
  eval: [() => import('./commands/eval-retrieval.js'), () => import('./commands/eval-run.js')],
  evidence: [() => import('./commands/evidence.js')],
  index: [
    () => import('./commands/index-cmd.js'),
    () => import('./commands/index-dense.js'),
    () => import('./commands/index-lancedb-fts.js'),
    () => import('./commands/index-verify.js'),
  ],
  mcp: [() => import('./commands/mcp.js')],
  merge: [() => import('./commands/merge.js')],
  report: [() => import('./commands/report.js')],
  reproduce: [() => import('./commands/reproduce.js')],
  // `run <id>` for every system of agents/systems.ts, from its plugin's flag schema
  run: [() => import('./commands/run-plugins.js')],
  search: [() => import('./commands/search.js')],
  serve: [() => import('./commands/serve.js')],
};

/** The command files of one group (undefined: no such command), or of all groups. */
export async function loadCommands(group?: string): Promise<CommandModule[] | undefined> {
  const loaders = group === undefined ? Object.values(COMMAND_GROUPS).flat() : Object.hasOwn(COMMAND_GROUPS, group) ? COMMAND_GROUPS[group] : undefined;
  // the one list of agent systems (metadata only; each system loads itself when used): every command that reads runs or recipes sees all of them
  if (loaders && (group === undefined || SYSTEM_LIST_GROUPS.has(group))) await import('../../agents/systems.js');
  return loaders && Promise.all(loaders.map((l) => l()));
}

/** The commands that read the system list (runs, reports, recipes, the explorer). */
const SYSTEM_LIST_GROUPS = new Set(['compare', 'eval', 'merge', 'report', 'reproduce', 'run', 'serve', 'mcp']);

/** The root `lexcase` command with its global flags and no subcommand. */
export function rootProgram(): Command {
  return new LexcaseCommand('lexcase')
    .description('Retrieval-centric legal RAG with agentic advocates')
    .version(VERSION)
    .option('--json', 'machine-readable JSON on stdout; no progress bars')
    .option('-q, --quiet', 'only warnings and errors on stderr')
    .option('--debug', 'stack traces and debug logging')
    .showHelpAfterError("(add --help for this command's options)")
    .enablePositionalOptions(false);
}

export function registerCommands(program: Command, modules: readonly CommandModule[], ctx: CliContext): Command {
  for (const m of modules) m.register(program, ctx);
  return program;
}

const GLOBAL_FLAGS = new Set(['--json', '-q', '--quiet', '--debug']);

/**
 * What a command line (process.argv without node and the script) asks the entry to load: the
 * group its first word names, 'version' for `--version` / `-V` alone, else 'all' (help, no
 * command, a mistyped one: commander then lists or suggests every command).
 */
export function commandLineNeeds(args: readonly string[]): { group: string } | 'version' | 'all' {
  const rest = args.filter((a) => !GLOBAL_FLAGS.has(a));
  if (rest.length === 1 && (rest[0] === '--version' || rest[0] === '-V')) return 'version';
  const first = rest[0];
  if (first !== undefined && !first.startsWith('-') && Object.hasOwn(COMMAND_GROUPS, first)) return { group: first };
  return 'all';
}
