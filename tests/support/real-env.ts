/**
 * The worker's real process.env: writes to it reach the process's environment (setenv), which native
 * code reads — LanceDB's Rust S3 client takes AWS_ENDPOINT / AWS_REGION from there. A test file that
 * replaced it (`process.env = { ...copy }`) leaves a plain object in its place, whose writes reach no
 * one but JavaScript; in the slow tier's shared workers s3-object-storage.test.ts then ran after
 * run-emar.test.ts had done that, and Lance never saw the local S3 server ("Failed to resolve region").
 * tests/support/shared-state-setup.ts calls this before and after each file.
 */
const g = globalThis as { __lexcaseRealEnv?: NodeJS.ProcessEnv };
g.__lexcaseRealEnv ??= process.env;
const realEnv = g.__lexcaseRealEnv;

/** Puts the real process.env back if a file replaced it; says whether it had to. */
export function keepRealEnv(): boolean {
  if (process.env === realEnv) return false;
  process.env = realEnv;
  return true;
}
