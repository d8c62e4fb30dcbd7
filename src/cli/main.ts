#!/usr/bin/env node
/**
 * `lexcase` command-line entry point: builds the program (./program.ts, where the commands are
 * listed) and runs it on process.argv when this file is the process's entry script.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildProgram } from './program.js';

export { buildProgram };

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
