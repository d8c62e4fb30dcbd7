import type { Command } from 'commander';

/** What main.ts hands every command file (so a command that runs others in process imports no main.ts: no import circle). */
export interface CommandContext {
  /** A fresh `lexcase` program with every command registered. */
  buildProgram(): Command;
}

/** A CLI command file exports one of these; src/cli/main.ts lists them. */
export interface CommandModule {
  register(program: Command, ctx: CommandContext): void;
}
