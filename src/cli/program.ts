/**
 * The whole `lexcase` program, every command registered (command-groups.ts lists them): for tests,
 * for `--help`, and for commands that run other commands in this process (`reproduce`). The CLI
 * entry (main.ts) builds only the part a command line needs.
 */
import type { Command } from 'commander';
import { loadCommands, registerCommands, rootProgram } from './command-groups.js';
import type { CliContext } from './commands/types.js';

const modules = (await loadCommands())!;

export function buildProgram(): Command {
  const ctx: CliContext = { fullProgram: async () => buildProgram() };
  return registerCommands(rootProgram(), modules, ctx);
}
