/**
 * Run the BUILT `lexcase` (node dist/src/cli/main.js) as a child process, the way a user meets it:
 * exit code, stdout, stderr; a clean environment (no LEXCASE_/OPENAI_ variables of the developer's
 * shell, HOME and caches in a temp dir) plus what the test passes.
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

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const MAIN = join(ROOT, 'dist/src/cli/main.js');
const SOURCE_DIRS = ['core', 'corpora', 'indexer', 'retrieval', 'eval', 'agents', 'src', 'web'];

export interface ProcResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

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

/** The environment a child gets: the test's PATH etc., none of the developer's lexcase/LLM settings. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(LEXCASE_|OPENAI_|AWS_|VITEST|npm_)/.test(k)) env[k] = v;
  const home = mkdtempSync(join(tmpdir(), 'lexcase-cli-home-'));
  return { ...env, HOME: home, LEXCASE_CACHE_DIR: join(home, 'llm-cache'), LEXCASE_VERIFY_CACHE_DIR: join(home, 'verified'), NO_COLOR: '1', ...extra };
}

export interface SpawnOpts {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  input?: string;
}

/** `lexcase …args` in a child process; resolves when it exits (or is killed at timeoutMs). */
export function lexcase(args: string[], o: SpawnOpts = {}): Promise<ProcResult> {
  const t0 = performance.now();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [MAIN, ...args], { cwd: o.cwd ?? ROOT, env: o.env ?? cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end(o.input ?? '');
    const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 120_000);
    child.on('error', fail);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      done({ code, signal, stdout, stderr, ms: performance.now() - t0 });
    });
  });
}

export interface Running {
  child: ChildProcess;
  readonly stdout: string;
  readonly stderr: string;
  /** Resolves with the first match of `re` in stdout (rejects when the process exits first or after timeoutMs). */
  waitFor(re: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** SIGTERM, then the result once it exits (SIGKILL after 10 s). */
  stop(signal?: NodeJS.Signals): Promise<ProcResult>;
}

/** A long-running `lexcase …` (serve). */
export function startLexcase(args: string[], o: SpawnOpts = {}): Running {
  const t0 = performance.now();
  const child = spawn(process.execPath, [MAIN, ...args], { cwd: o.cwd ?? ROOT, env: o.env ?? cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const exited = new Promise<ProcResult>((r) => child.on('close', (code, signal) => r({ code, signal, stdout, stderr, ms: performance.now() - t0 })));
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
        if (child.exitCode !== null || child.signalCode !== null) throw new Error(`lexcase ${args.join(' ')} exited (${child.exitCode ?? child.signalCode}) before printing ${re}:\n${stderr}`);
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
