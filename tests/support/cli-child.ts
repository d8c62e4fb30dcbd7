/**
 * Run `lexcase` as a user meets it: a separate Node process, exit code, stdout and stderr. The
 * built CLI (`node dist/src/cli/main.js`) is used when it is at least as new as every source
 * file; otherwise (sources edited since the last `npm run build`) the same entry point is run from
 * source through tsx, so a stale dist/ never passes a test for code it does not hold.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const REPO_ROOT = join(import.meta.dirname, '..', '..');
const DIST_CLI = join(REPO_ROOT, 'dist', 'src', 'cli', 'main.js');
const SRC_CLI = join(REPO_ROOT, 'src', 'cli', 'main.ts');
const SOURCE_ROOTS = ['core', 'corpora', 'indexer', 'retrieval', 'eval', 'agents', 'serve', 'web', 'src'];

function newestSource(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'fixtures' || e.name === 'test-support' || e.name.startsWith('.')) continue; // what the build leaves out (spawn-cli.ts ensureBuilt reads the same)
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

let argvCache: string[] | undefined;

// Children still running when the test process ends (a test that failed midway) are killed with it.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of running) c.kill('SIGKILL');
});

/**
 * The node arguments that start the CLI: the built one when fresh, else the source through tsx. Only
 * the built answer is kept: a dist/ found stale is looked at again on the next call (another test file
 * of a shared worker may have rebuilt it meanwhile: spawn-cli.ts ensureBuilt), where a kept "stale"
 * had the worker start every later child through tsx (~3× the memory, more CPU).
 */
export function cliArgv(): string[] {
  if (argvCache) return argvCache;
  const fresh = existsSync(DIST_CLI) && statSync(DIST_CLI).mtimeMs >= Math.max(...SOURCE_ROOTS.map((r) => newestSource(join(REPO_ROOT, r))));
  if (fresh) return (argvCache = [DIST_CLI]);
  return ['--import', import.meta.resolve('tsx'), SRC_CLI];
}

export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface CliChildOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Kill (SIGKILL) after this long; the result then has signal SIGKILL. Default 120 s. */
  timeoutMs?: number;
}

/** Start `lexcase <args>`; `done` resolves when it exits. */
export function startCli(args: string[], o: CliChildOptions = {}): { child: ChildProcess; done: Promise<ChildResult> } {
  const t0 = performance.now();
  const child = spawn(process.execPath, [...cliArgv(), ...args], {
    cwd: o.cwd ?? REPO_ROOT,
    env: { ...process.env, NO_COLOR: '1', ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 120_000);
  running.add(child);
  const done = new Promise<ChildResult>((resolve) =>
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ code, signal, stdout, stderr, ms: performance.now() - t0 });
    }),
  );
  return { child, done };
}

/** Run `lexcase <args>` to the end. */
export function cliChild(args: string[], o: CliChildOptions = {}): Promise<ChildResult> {
  return startCli(args, o).done;
}
