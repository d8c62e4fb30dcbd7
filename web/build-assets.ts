/**
 * `npm run build` step: bundle the explorer's browser app (web/app) into dist/web/app
 * (index.html, app.css, app.js, with .br and .gz copies of each) so `lexcase serve` works from the built package, offline.
 */
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { APP_DIST, APP_SRC, bundleApp, precompressedFiles } from './server/assets.js';

mkdirSync(APP_DIST, { recursive: true });
writeFileSync(join(APP_DIST, 'app.js'), await bundleApp());
for (const f of ['index.html', 'app.css']) copyFileSync(join(APP_SRC, f), join(APP_DIST, f));
// brotli and gzip copies, served by Accept-Encoding (web/server/content-encoding.ts)
for (const f of ['index.html', 'app.css', 'app.js'])
  for (const [name, bytes] of precompressedFiles(f, readFileSync(join(APP_DIST, f)))) writeFileSync(join(APP_DIST, name), bytes);
process.stdout.write(`explorer assets → ${APP_DIST}\n`);
