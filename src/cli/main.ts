#!/usr/bin/env node
/**
 * `lexcase` command-line entry point. It loads only what the command line needs
 * (command-groups.ts): `lexcase search …` registers the search command alone, `lexcase --version`
 * not even commander; help, no command or an unknown one get the whole program (program.ts). Commands that run
 * other commands in this process (`reproduce`) get the whole program through ctx.fullProgram.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Command } from 'commander';
import type { CliContext } from './commands/types.js';

const fullProgram = async (): Promise<Command> => (await import('./program.js')).buildProgram();

/** The program for one command line (process.argv without node and the script). */
export async function programFor(args: readonly string[]): Promise<Command> {
  const { commandLineNeeds, loadCommands, registerCommands, rootProgram } = await import('./command-groups.js');
  const needs = commandLineNeeds(args);
  if (needs === 'version') return rootProgram();
  if (needs === 'all') return fullProgram();
  const ctx: CliContext = { fullProgram };
  return registerCommands(rootProgram(), (await loadCommands(needs.group))!, ctx);
}

function invokedDirectly(): boolean {
  try {
    return !!process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

/** `lexcase --version` / `-V` alone: what commander would print, without loading commander (~35 ms of CPU). */
const versionOnly = (args: readonly string[]) => args.length === 1 && (args[0] === '--version' || args[0] === '-V');

if (invokedDirectly()) {
  // core/log.ts CLI_ENTRY (not imported here: that would load the logger first): the commands refuse a bad LEXCASE_LOG_LEVEL, so the library's warning is not printed as well
  (globalThis as Record<symbol, unknown>)[Symbol.for('lexcase.cli-entry')] = true;
  const args = process.argv.slice(2);
  if (versionOnly(args)) process.stdout.write(`${(await import('../../core/version.js')).VERSION}\n`);
  else await (await programFor(args)).parseAsync(process.argv);
}
