/**
 * Start a worker thread from a sibling module, under tsx/vitest (.ts sources) and from dist (.js).
 * Node 20 does not apply `--import tsx` from a Worker's execArgv to its entry module, so for .ts
 * entries the worker is an eval stub that registers tsx's ESM hooks and then imports the entry.
 */
import { Worker } from 'node:worker_threads';
import { workerEntry } from '../../src/worker-url.js';

export function spawnWorker(fromUrl: string, relJs: string): Worker {
  const { url } = workerEntry(fromUrl, relJs);
  if (!url.pathname.endsWith('.ts')) return new Worker(url);
  const api = import.meta.resolve('tsx/esm/api');
  const code =
    `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(url.href)}); })` +
    `.catch((e) => { process.nextTick(() => { throw e; }); });`;
  return new Worker(code, { eval: true });
}
