/**
 * Worker threads that work both from TypeScript sources (vitest, tsx) and from the built dist/.
 * `spawnWorker(import.meta.url, './build-worker.js')` starts the sibling module as a worker.
 * Node 20 does not apply `--import tsx` from a Worker's execArgv to its entry module, so for a .ts
 * entry the worker is an eval stub that registers tsx's ESM hooks and then imports the entry.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';

/** URL of the sibling worker module: the .ts source when running from sources, else the .js. */
export function workerEntry(fromUrl: string, relJs: string): URL {
  const fromTs = fileURLToPath(fromUrl).endsWith('.ts');
  return new URL(fromTs ? relJs.replace(/\.js$/, '.ts') : relJs, fromUrl);
}

export function spawnWorker(fromUrl: string, relJs: string, opts: WorkerOptions = {}): Worker {
  const url = workerEntry(fromUrl, relJs);
  if (!url.pathname.endsWith('.ts')) return new Worker(url, opts);
  const api = import.meta.resolve('tsx/esm/api');
  const code =
    `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); })` +
    `.catch((e) => { process.nextTick(() => { throw e; }); });`;
  return new Worker(code, { ...opts, eval: true });
}
