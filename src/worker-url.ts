/**
 * Worker threads that work both from TypeScript sources (vitest, tsx) and from the built dist/.
 * `workerEntry(import.meta.url, './build-worker.js')` returns the URL and execArgv to pass to
 * `new Worker(url, { execArgv })`.
 */
import { fileURLToPath } from 'node:url';

export function workerEntry(fromUrl: string, relJs: string): { url: URL; execArgv: string[] } {
  const fromTs = fileURLToPath(fromUrl).endsWith('.ts');
  const rel = fromTs ? relJs.replace(/\.js$/, '.ts') : relJs;
  return { url: new URL(rel, fromUrl), execArgv: fromTs ? ['--import', 'tsx'] : [] };
}
