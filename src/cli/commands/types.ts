import type { Command } from 'commander';

/** A CLI command file exports one of these; src/cli/main.ts lists them. */
export interface CommandModule {
  register(program: Command): void;
}
