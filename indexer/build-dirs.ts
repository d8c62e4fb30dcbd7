/**
 * The directories an index build makes and removes, under the rule "delete only what you can prove
 * you made" (core/owned-dir.ts):
 *
 *   <out>.tmp-<pid>   the build's temp dir, marked kind "index-build" with the pid and a token;
 *   <out>.old-<pid>   the replaced index between the two renames, marked kind "index-old";
 *   <out>             the index, marked kind "index".
 *
 * A sibling named like a leftover (`q.old-2024`, `idx.tmp-999999`) is touched only when its marker
 * has the expected kind and that very pid, and the process is gone; removal then goes through
 * `removeOwnedTree` with the index layout, so a user file inside is kept (with a warning).
 */
import { existsSync, mkdirSync, readdirSync, renameSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { basename, dirname, join, relative } from 'node:path';
import { errors } from '../core/errors.js';
import { log } from '../core/log.js';
import { ownedBy, readOwnerMark, removeOwnedTree, writeOwnerMark, type OwnerMark } from '../core/owned-dir.js';
import { indexLayout, readLooseManifest } from './out-dir.js';

export type IndexDirKind = 'index-build' | 'index-old' | 'index';

/** Create `dir` and mark it; a marker that cannot be written leaves no directory behind. */
export function createMarkedDir(dir: string, kind: IndexDirKind): OwnerMark {
  mkdirSync(dir);
  try {
    return writeOwnerMark(dir, kind);
  } catch (e) {
    try {
      removeOwnedTree(dir, (rel) => rel === '.lexcase-owner');
    } catch {
      /* best effort: an empty dir */
    }
    throw e;
  }
}

export const markIndexDir = (dir: string, kind: IndexDirKind, token?: string): OwnerMark => writeOwnerMark(dir, kind, token);

/** Remove the index files of `dir`, which is `root` or a folder inside it (the layout is `root`'s, so paths are taken from `root`). */
function removeIndexTree(dir: string, build: boolean, root = dir): string[] {
  const layout = indexLayout(readLooseManifest(root), { build });
  const prefix = relative(root, dir).split('\\').join('/');
  return removeOwnedTree(dir, prefix ? (rel, isDir) => layout(rel ? `${prefix}/${rel}` : prefix, isDir) : layout);
}

function warnKept(dir: string, kept: string[]): void {
  if (kept.length)
    log.warn(
      `${dir}: kept ${kept.length} file(s) lexcase did not make (${kept.slice(0, 3).join(', ')}${kept.length > 3 ? ', …' : ''}); remove the directory yourself once you have saved them`,
    );
}

/**
 * Remove `dir` (the build's temp dir `root`, or a folder inside it) if `root`'s marker is this
 * build's (kind index-build, this pid, `token`); only build files are removed.
 */
export function removeTempDir(dir: string, root: string, token: string | undefined): void {
  if (!token || !ownedBy(root, 'index-build', process.pid, token)) return;
  try {
    warnKept(dir, removeIndexTree(dir, true, root));
  } catch (e) {
    log.warn(`${dir}: could not remove the build's temp dir: ${(e as Error).message}`);
  }
}

/**
 * `<out>.tmp-<this pid>` must not exist when a build starts. One left by an earlier process that
 * had the same pid (its marker says index-build, this pid, and predates this process) is removed;
 * anything else there is refused, never deleted.
 */
export function clearOwnTempName(tmp: string): void {
  if (!existsSync(tmp)) return;
  const m = readOwnerMark(tmp);
  const started = Date.now() - process.uptime() * 1000;
  if (m && m.kind === 'index-build' && m.pid === process.pid && Date.parse(m.createdAt) < started) {
    const kept = removeIndexTree(tmp, true);
    if (!kept.length) return;
  }
  throw errors.outDirRefused(tmp, 'the build needs this temp dir name, and a directory lexcase did not make is there', `move ${tmp} away`);
}

/**
 * Clean up after builds whose process is gone: their `<out>.tmp-<pid>` dirs are removed, and an
 * `<out>.old-<pid>` (a crash between the two renames of swapIntoPlace) is put back when `<out>` is
 * missing, else removed. Only directories whose marker has the kind and pid their name says.
 */
export function removeStaleBuildDirs(out: string): void {
  const parent = dirname(out);
  if (!existsSync(parent)) return;
  for (const name of readdirSync(parent)) {
    const m = /^(.*)\.(tmp|old)-(\d+)$/.exec(name);
    if (!m || m[1] !== basename(out)) continue;
    const pid = Number(m[3]);
    if (pid === process.pid) continue;
    const path = join(parent, name);
    const kind: IndexDirKind = m[2] === 'tmp' ? 'index-build' : 'index-old';
    if (!ownedBy(path, kind, pid)) continue; // not provably a dead build's: a user's folder, or a live build
    try {
      if (kind === 'index-old' && !existsSync(out)) {
        markIndexDir(path, 'index');
        renameSync(path, out);
        log.info(`${out}: put back the index a killed build (pid ${pid}) had moved aside`);
      } else warnKept(path, removeIndexTree(path, kind === 'index-build'));
    } catch (e) {
      log.warn(`${path}: could not clean up after the killed build (pid ${pid}): ${(e as Error).message}`);
    }
  }
}

/**
 * Rename the finished `tmp` to `out`. An existing `out` (an index, checked by checkOutDir) is
 * marked index-old and moved aside to `<out>.old-<pid>` first, and removed afterwards through the
 * index layout: a file that appeared inside meanwhile is kept, with a warning.
 */
export async function swapIntoPlace(tmp: string, out: string): Promise<void> {
  const old = `${out}.old-${process.pid}`;
  const hadOld = existsSync(out);
  let oldToken: string | undefined;
  if (hadOld) {
    oldToken = markIndexDir(out, 'index-old').token;
    await rename(out, old);
  }
  try {
    await rename(tmp, out);
  } catch (e) {
    if (hadOld) {
      await rename(old, out);
      markIndexDir(out, 'index');
    }
    throw e;
  }
  try {
    markIndexDir(out, 'index');
  } catch (e) {
    log.debug(`${out}: marker not rewritten: ${(e as Error).message}`);
  }
  if (hadOld && ownedBy(old, 'index-old', process.pid, oldToken)) {
    try {
      warnKept(old, removeIndexTree(old, false));
    } catch (e) {
      log.warn(`${old}: the replaced index could not be removed: ${(e as Error).message}`);
    }
  }
}
