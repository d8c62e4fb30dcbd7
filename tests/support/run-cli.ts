/**
 * Run the `lexcase` CLI in-process for tests: captures stdout/stderr, turns commander's exits into
 * an exit code (exitOverride on every command), and resets process.exitCode afterwards.
 */
import { Command, CommanderError } from 'commander';
import { vi } from 'vitest';
import { buildProgram } from '../../src/cli/program.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
  /** Aliases of stdout / stderr. */
  out: string;
  err: string;
}

/** A bare program with the global flags and one command module registered (to test it alone). */
export function programWith(register: (p: Command) => void): Command {
  const program = new Command('lexcase').option('--json').option('-q, --quiet').option('--debug');
  register(program);
  return program;
}

function exitOverrideAll(cmd: Command): void {
  cmd.exitOverride();
  for (const c of cmd.commands) exitOverrideAll(c);
}

export async function runCli(args: string[], program: Command = buildProgram()): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => ((stdout += String(s)), true));
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => ((stderr += String(s)), true));
  program.configureOutput({ writeOut: (s) => (stdout += s), writeErr: (s) => (stderr += s) });
  exitOverrideAll(program);
  process.exitCode = 0;
  let code = 0;
  try {
    await program.parseAsync(['node', 'lexcase', ...args]);
    code = Number(process.exitCode ?? 0);
  } catch (e) {
    if (e instanceof CommanderError) code = e.exitCode;
    else throw e;
  } finally {
    out.mockRestore();
    err.mockRestore();
    process.exitCode = 0;
  }
  return { code, stdout, stderr, out: stdout, err: stderr };
}
