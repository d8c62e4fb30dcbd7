import { afterEach, expect, it } from 'vitest';
import { keepRealEnv } from './real-env.js';

const real = process.env;
afterEach(() => {
  process.env = real;
  delete process.env.LEXCASE_REAL_ENV_PROBE;
});

// The real process.env turns every value into a string as it hands it to setenv; a plain object keeps it as given.
const reachesTheProcess = () => {
  (process.env as Record<string, unknown>).LEXCASE_REAL_ENV_PROBE = 1;
  return typeof process.env.LEXCASE_REAL_ENV_PROBE === 'string';
};

it('a file that replaced process.env with a copy gets the real one back: writes reach the process environment again', () => {
  expect(reachesTheProcess()).toBe(true);
  process.env = { ...process.env };
  expect(reachesTheProcess()).toBe(false);
  expect(keepRealEnv()).toBe(true);
  expect(process.env).toBe(real);
  expect(reachesTheProcess()).toBe(true);
  expect(keepRealEnv()).toBe(false);
});
