/**
 * Vitest setup of both tiers, which run their files in shared workers (isolate: false, one module
 * graph per worker): each file starts from the process-wide settings a fresh process has, and what
 * it changed is put back when it ends — environment variables (and the real process.env object:
 * tests/support/real-env.ts), the working dir, and the progress switch and log level for tests that
 * set them directly, and which once-per-process warnings were said (an in-process CLI command puts back what its --json/--quiet/--debug set itself:
 * src/cli/action.ts).
 */
import { afterAll, beforeAll } from 'vitest';
import { getLogLevel, resetWarnedOnce, setLogLevel } from '../../core/log.js';
import { setProgressEnabled } from '../../core/progress.js';
import { keepRealEnv } from './real-env.js';

const g = globalThis as { __lexcaseFreshLogLevel?: ReturnType<typeof getLogLevel> };
g.__lexcaseFreshLogLevel ??= getLogLevel();
const fresh = g.__lexcaseFreshLogLevel;
keepRealEnv();
const env = { ...process.env };
const cwd = process.cwd();

beforeAll(() => {
  setProgressEnabled(true);
  setLogLevel(fresh);
  // once-per-process warnings (core/log.ts warnOnce): a file says each again, as a fresh process would
  resetWarnedOnce();
});

afterAll(() => {
  keepRealEnv();
  for (const k of Object.keys(process.env)) if (!(k in env)) delete process.env[k];
  for (const [k, v] of Object.entries(env)) if (process.env[k] !== v) process.env[k] = v;
  if (process.cwd() !== cwd) process.chdir(cwd);
  setProgressEnabled(true);
  setLogLevel(fresh);
});
