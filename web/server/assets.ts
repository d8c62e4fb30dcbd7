/**
 * The browser app's assets: index.html, app.css and app.js (web/app/*.ts bundled by esbuild).
 * Built ones come from dist/web/app (written by `npm run build`, see web/build-assets.ts); when
 * running from the TypeScript sources (tsx, vitest) the app is bundled in memory at start, so the
 * page always matches the sources. No CDN: everything is served by this process.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../../core/version.js';

export interface Assets {
  [path: string]: { type: string; body: Buffer };
}

export const APP_SRC = join(PACKAGE_ROOT, 'web', 'app');
export const APP_DIST = join(PACKAGE_ROOT, 'dist', 'web', 'app');

const TYPES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
};

/** Bundle web/app/main.ts with esbuild (a dev dependency) into one browser script. */
export async function bundleApp(): Promise<string> {
  const esbuild = await import('esbuild');
  const r = await esbuild.build({
    entryPoints: [join(APP_SRC, 'main.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    write: false,
    logLevel: 'silent',
  });
  return r.outputFiles[0].text;
}

const fromSources = () => fileURLToPath(import.meta.url).endsWith('.ts');

export async function loadAssets(): Promise<Assets> {
  const read = (dir: string, name: string) => readFileSync(join(dir, name));
  if (!fromSources() && existsSync(join(APP_DIST, 'app.js'))) {
    return Object.fromEntries(Object.keys(TYPES).map((n) => [n, { type: TYPES[n], body: read(APP_DIST, n) }]));
  }
  const js = await bundleApp().catch((e: Error) => {
    throw new Error(`the explorer's browser app is not built (run \`npm run build\`) and bundling it failed: ${e.message}`);
  });
  return {
    'index.html': { type: TYPES['index.html'], body: read(APP_SRC, 'index.html') },
    'app.css': { type: TYPES['app.css'], body: read(APP_SRC, 'app.css') },
    'app.js': { type: TYPES['app.js'], body: Buffer.from(js) },
  };
}
