/**
 * The build stamp: `npm run build` writes dist/build-stamp.json with lexcase's commit as the build
 * saw it (gitSha of the checkout, `-dirty` when its tracked files differed). The code a built
 * `lexcase` runs is dist/, which git does not track, so the checkout's commit at run time is not
 * always the code's: an installed package has no checkout (its runs recorded `unknown`), and a
 * checkout moved to another commit after its build recorded that commit for the older code. A run
 * of built code records the stamp's commit instead (eval/provenance.ts runGitSha).
 * Written by eval/write-build-stamp.ts, the last step of `npm run build`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../core/version.js';

export const BUILD_STAMP_FILE = join(PACKAGE_ROOT, 'dist', 'build-stamp.json');

export interface BuildStamp {
  /** lexcase's commit when dist/ was built (`unknown` when it was built outside a checkout). */
  gitSha: string;
  lexcaseVersion: string;
  builtAt: string;
}

/** Whether this module runs as built JavaScript (dist/), not from the TypeScript sources (tsx, vitest), which need no stamp. */
export const RUNNING_BUILT_CODE = !fileURLToPath(import.meta.url).endsWith('.ts');

/** The stamp in `file`, or undefined when there is none (or it is not a stamp). */
export function readBuildStamp(file = BUILD_STAMP_FILE): BuildStamp | undefined {
  try {
    const s = JSON.parse(readFileSync(file, 'utf8')) as Partial<BuildStamp>;
    return typeof s.gitSha === 'string' && s.gitSha ? (s as BuildStamp) : undefined;
  } catch {
    return undefined;
  }
}
