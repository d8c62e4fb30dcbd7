/**
 * Output files named by flags (--out, --run-file, --plot, --qrels-file): checked before any work
 * starts, so a typo costs no evaluation, and the error is one line naming the flag and the path
 * (not a raw EISDIR / EEXIST from deep inside a write).
 */
import { accessSync, constants, statSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { errors } from '../../core/errors.js';

function statOrNull(p: string) {
  try {
    return statSync(p);
  } catch {
    return null;
  }
}

/** Throws OUT_FILE_REFUSED when `file` names a directory, lies under a file, or its nearest existing folder is not writable. */
export function assertOutFile(flag: string, file: string | undefined, example = 'out.json'): void {
  if (file === undefined) return;
  if (file === '') throw errors.outFileRefused(flag, '""', 'empty path');
  const s = statOrNull(file);
  if (s?.isDirectory()) throw errors.outFileRefused(flag, file, 'is a directory; give a file path', `e.g. ${flag} ${file.replace(/\/+$/, '')}/${example}`);
  let dir = dirname(resolve(file));
  for (;;) {
    const d = statOrNull(dir);
    if (d) {
      if (!d.isDirectory()) throw errors.outFileRefused(flag, file, `${dir} is a file, not a folder, so ${basename(file)} cannot be written under it`);
      try {
        accessSync(dir, constants.W_OK);
      } catch {
        throw errors.outFileRefused(flag, file, `the folder ${dir} is not writable`);
      }
      return;
    }
    const up = dirname(dir);
    if (up === dir) return;
    dir = up;
  }
}
