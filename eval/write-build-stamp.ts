/**
 * `node dist/eval/write-build-stamp.js`, the last step of `npm run build`: writes dist/build-stamp.json
 * (eval/build-stamp.ts) with the commit of the checkout being built.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { PACKAGE_ROOT, VERSION } from '../core/version.js';
import { BUILD_STAMP_FILE, type BuildStamp } from './build-stamp.js';
import { gitSha } from './provenance.js';

/** Write the stamp of the checkout at `root` into `file`. */
export function writeBuildStamp(file = BUILD_STAMP_FILE, root = PACKAGE_ROOT): BuildStamp {
  const stamp: BuildStamp = { gitSha: gitSha(root), lexcaseVersion: VERSION, builtAt: new Date().toISOString() };
  writeFileSync(file, JSON.stringify(stamp, null, 2) + '\n');
  return stamp;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const s = writeBuildStamp();
  console.log(`build stamp → ${BUILD_STAMP_FILE} (lexcase ${s.lexcaseVersion}, commit ${s.gitSha})`);
}
