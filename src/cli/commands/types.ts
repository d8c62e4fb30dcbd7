import type { Command } from 'commander';

/** What a command file may use besides the program it registers on (given by src/cli/program.ts). */
export interface CliContext {
  /** A fresh, whole `lexcase` program, for a command that runs other commands in this process (`reproduce`). */
  fullProgram(): Promise<Command>;
}

/** A CLI command file exports one of these; src/cli/command-groups.ts lists them. */
export interface CommandModule {
  register(program: Command, ctx: CliContext): void;
}
