/**
 * Run the BUILT `lexcase` (dist/src/cli/main.js, what `npm ci` builds and the package's bin points
 * at) in a child process, the way a user runs it: exit code, stdout, stderr. Unlike run-cli.ts
 * (in-process), this catches what only a process shows: the entry's top-level await, unhandled
 * 'error' events, what is loaded at start-up, exit codes set by the runtime.
 *
 *   const r = await runBuiltCli(['search', 'q', '--index', idx], { cwd, env: { LEXCASE_LLM_API_KEY: 'sk-x' } });
 *   expect(r.code, r.stderr).toBe(0);
 *
 * The environment is the test's, minus LEXCASE_LLM_* / OPENAI_* (so a developer's own endpoint
 * never leaks into a test), plus `env`. Throws, saying to run `npm run build`, when dist is absent.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../core/version.js';

export const BUILT_CLI = join(PACKAGE_ROOT, 'dist', 'src', 'cli', 'main.js');

export interface BuiltCliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface BuiltCliOptions {
  cwd?: string;
  /** Added to (or, with undefined, removed from) the child's environment. */
  env?: Record<string, string | undefined>;
  /** Kill the child after this many ms (default 120 s); the result then has signal SIGKILL. */
  timeoutMs?: number;
  /** Written to the child's stdin, which is then closed. */
  input?: string;
  /** Another built entry to run, e.g. an installed tarball's (tests/support/installed-package.ts); default BUILT_CLI. */
  cli?: string;
}

export function cleanEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(LEXCASE_LLM_|LEXCASE_EMBED_|OPENAI_)/.test(k)) env[k] = v;
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export function runBuiltCli(args: string[], o: BuiltCliOptions = {}): Promise<BuiltCliResult> {
  const cli = o.cli ?? BUILT_CLI;
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd: o.cwd ?? PACKAGE_ROOT, env: cleanEnv(o.env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 120_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(o.input ?? '');
  });
}
