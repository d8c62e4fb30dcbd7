/**
 * The CLI process tests' helpers, on top of tests/support/run-built-cli.ts (the built
 * `node dist/src/cli/main.js` in a child process): dist/ built when stale, an isolated HOME and
 * caches per call, long-running commands (serve), and the stack-trace pattern.
 *
 *   await ensureBuilt();                       // beforeAll: builds dist/ when missing or older than the sources
 *   const r = await lexcase(['search', 'q', '--index', idx], { cwd });
 *   expect(r.code, r.stderr).toBe(0);
 *   const s = await startLexcase(['serve', '--port', '0', ...]); await s.waitFor(/http:\/\/\S+/); await s.stop();
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILT_CLI, cleanEnv, runBuiltCli, type BuiltCliResult } from './run-built-cli.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const MAIN = BUILT_CLI;
const SOURCE_DIRS = ['core', 'corpora', 'indexer', 'retrieval', 'eval', 'agents', 'serve', 'web', 'src'];

/** A Node stack frame ("    at fn (file:///…:1:2)"): a user never sees one without --debug. */
export const STACK_TRACE = /^\s+at (?:async )?(?:\S+ \()?(?:file:|node:|\/|[A-Za-z]:\\)\S*:\d+:\d+\)?\s*$/m;

function newestSource(): number {
  let newest = 0;
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name === 'test-support' || e.name === 'fixtures') continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  for (const d of SOURCE_DIRS) if (existsSync(join(ROOT, d))) walk(join(ROOT, d));
  return newest;
}

/** dist/ is missing or older than a source file. */
export function distStale(): boolean {
  return !existsSync(MAIN) || statSync(MAIN).mtimeMs < newestSource();
}

/**
 * Make sure dist/ holds the current sources: `npm run build` when it is missing or stale, once
 * across the test files running in parallel (a lock directory; the others wait for it).
 */
export async function ensureBuilt(): Promise<void> {
  if (!distStale()) return;
  const lock = join(ROOT, 'dist.build-lock');
  mkdirSync(join(ROOT, 'dist'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 500));
      if (!existsSync(lock) && !distStale()) return;
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 10 * 60_000) rmdirSync(lock); // a build that died
    }
  }
  try {
    if (!distStale()) return;
    const r = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`npm run build failed (the CLI tests run dist/):\n${r.stdout}\n${r.stderr}`);
  } finally {
    rmdirSync(lock);
  }
}

/**
 * A child's environment: the test's (minus the developer's LLM settings: run-built-cli.ts), with
 * HOME, the LLM cache and the verification records in a fresh temp dir, plus `extra`.
 */
export function isolatedEnv(extra: Record<string, string | undefined> = {}): Record<string, string | undefined> {
  const home = mkdtempSync(join(tmpdir(), 'lexcase-cli-home-'));
  return {
    HOME: home,
    LEXCASE_CACHE_DIR: join(home, 'llm-cache'),
    LEXCASE_VERIFY_CACHE_DIR: join(home, 'verified'),
    LEXCASE_LEGALBENCH_DIR: undefined,
    NO_COLOR: '1',
    ...extra,
  };
}

export interface SpawnOpts {
  cwd?: string;
  /** The child's environment on top of the test's: default isolatedEnv(). */
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  input?: string;
}

/** `lexcase …args`: the built binary in a child process (tests/support/run-built-cli.ts); resolves when it exits. */
export function lexcase(args: string[], o: SpawnOpts = {}): Promise<BuiltCliResult> {
  return runBuiltCli(args, { cwd: o.cwd ?? ROOT, env: o.env ?? isolatedEnv(), timeoutMs: o.timeoutMs, input: o.input });
}

export interface Running {
  child: ChildProcess;
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves with the first match of `re` in stdout (rejects when the process exits first or after timeoutMs). */
  waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** SIGTERM, then the result once it exits (SIGKILL after 10 s). */
  stop(signal?: NodeJS.Signals): Promise<BuiltCliResult>;
}

/** A long-running `lexcase …` (serve). */
export function startLexcase(args: string[], o: SpawnOpts = {}): Running {
  const child = spawn(process.execPath, [MAIN, ...args], { cwd: o.cwd ?? ROOT, env: cleanEnv(o.env ?? isolatedEnv()), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<BuiltCliResult>((r) => child.on('close', (code, signal) => r({ code, signal, stdout, stderr })));
  return {
    child,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    async waitFor(re, timeoutMs = 60_000) {
      const end = Date.now() + timeoutMs;
      for (;;) {
        const m = stdout.match(re);
        if (m) return m;
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`lexcase ${args.join(' ')} exited (${child.exitCode ?? child.signalCode}) before printing ${re}:\n${stderr}`);
        if (Date.now() > end) throw new Error(`lexcase ${args.join(' ')} printed no ${re} in ${timeoutMs} ms:\n${stdout}\n${stderr}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      const r = await exited;
      clearTimeout(killer);
      return r;
    },
  };
}
