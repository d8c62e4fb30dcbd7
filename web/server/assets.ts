/**
 * The browser app's assets: index.html, app.css and app.js (web/app/*.ts bundled by esbuild).
 * Built ones come from dist/web/app (written by `npm run build`, see web/build-assets.ts); when
 * running from the TypeScript sources (tsx, vitest) the app is bundled in memory when the process
 * starts its first server, so the page matches the sources the process runs. No CDN: everything is served by this process.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../../core/version.js';
import { compress, ENCODINGS, MIN_COMPRESS_BYTES, type Encoding } from './content-encoding.js';

export interface Asset {
  type: string;
  body: Buffer;
  /** The same bytes brotli- and gzip-compressed (content-encoding.ts), for bodies worth it. */
  encoded: Partial<Record<Encoding, Buffer>>;
}
export interface Assets {
  [path: string]: Asset;
}

const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/** An asset's compressed copies: the build's precompressed files when given (dir), else made now, once (fast: content-encoding.ts). */
export function encodedCopies(body: Buffer, dir?: string, name?: string): Partial<Record<Encoding, Buffer>> {
  if (body.byteLength < MIN_COMPRESS_BYTES) return {};
  const out: Partial<Record<Encoding, Buffer>> = {};
  for (const e of ENCODINGS) {
    const pre = dir && name ? join(dir, name + SUFFIX[e]) : undefined;
    out[e] = pre && existsSync(pre) ? readFileSync(pre) : compress(body, e, { fast: true });
  }
  return out;
}

/** Write `<name>.br` and `<name>.gz` beside a built asset (npm run build). */
export function precompressedFiles(name: string, body: Buffer): [string, Buffer][] {
  if (body.byteLength < MIN_COMPRESS_BYTES) return [];
  return ENCODINGS.map((e) => [name + SUFFIX[e], compress(body, e)]);
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

/** The assets bundled from the sources, once per process: every server a process starts (the tests start several) serves the same bundle. */
let bundled: Promise<Assets> | undefined;

export async function loadAssets(): Promise<Assets> {
  const read = (dir: string, name: string) => readFileSync(join(dir, name));
  if (!fromSources() && existsSync(join(APP_DIST, 'app.js'))) {
    return Object.fromEntries(
      Object.keys(TYPES).map((n) => {
        const body = read(APP_DIST, n);
        return [n, { type: TYPES[n], body, encoded: encodedCopies(body, APP_DIST, n) }];
      }),
    );
  }
  bundled ??= bundleFromSources().catch((e: Error) => {
    bundled = undefined; // a later start tries again
    throw e;
  });
  return bundled;
}

async function bundleFromSources(): Promise<Assets> {
  const read = (dir: string, name: string) => readFileSync(join(dir, name));
  const js = await bundleApp().catch((e: Error) => {
    throw new Error(`the explorer's browser app is not built (run \`npm run build\`) and bundling it failed: ${e.message}`);
  });
  const asset = (n: string, body: Buffer): Asset => ({ type: TYPES[n], body, encoded: encodedCopies(body) });
  return {
    'index.html': asset('index.html', read(APP_SRC, 'index.html')),
    'app.css': asset('app.css', read(APP_SRC, 'app.css')),
    'app.js': asset('app.js', Buffer.from(js)),
  };
}
