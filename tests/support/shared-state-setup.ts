/**
 * Vitest setup of both tiers, which run their files in shared workers (isolate: false, one module
 * graph per worker): each file starts from the process-wide settings a fresh process has, and what
 * it changed is put back when it ends — the progress switch and log level that an in-process CLI
 * command's --json/--quiet/--debug set (src/cli/action.ts), environment variables, the working dir.
 */
import { afterAll, beforeAll } from 'vitest';
import { getLogLevel, setLogLevel } from '../../core/log.js';
import { setProgressEnabled } from '../../core/progress.js';

const g = globalThis as { __lexcaseFreshLogLevel?: ReturnType<typeof getLogLevel> };
g.__lexcaseFreshLogLevel ??= getLogLevel();
const fresh = g.__lexcaseFreshLogLevel;
const env = { ...process.env };
const cwd = process.cwd();

beforeAll(() => {
  setProgressEnabled(true);
  setLogLevel(fresh);
});

afterAll(() => {
  for (const k of Object.keys(process.env)) if (!(k in env)) delete process.env[k];
  for (const [k, v] of Object.entries(env)) if (process.env[k] !== v) process.env[k] = v;
  if (process.cwd() !== cwd) process.chdir(cwd);
  setProgressEnabled(true);
  setLogLevel(fresh);
});
