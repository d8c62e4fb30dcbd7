/**
 * lexcase deletes only what it can prove it made. Every temp, old and index directory it creates
 * carries a marker file, `.lexcase-owner`, holding what made it (`kind`), the pid of the process
 * and a random token:
 *
 *   { "format": "lexcase-owner", "kind": "index-build", "pid": 4242, "token": "9f…", "createdAt": "…" }
 *
 * Before anything is removed, `ownedBy` checks the marker (a user's `q.old-2024`, even a copy of an
 * index, has no marker of the expected kind and pid), and `removeOwnedTree` walks the tree at every
 * depth and removes only the entries the caller's layout predicate accepts: a file a user put
 * anywhere inside (`idx/docs/notes.txt`, an empty `idx/sparse/mydata/`) is kept, and with it every
 * directory above it. Symbolic links are never followed.
 */
import { randomBytes } from 'node:crypto';
import { lstatSync, readdirSync, readFileSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const OWNER_MARKER = '.lexcase-owner';

export interface OwnerMark {
  format: 'lexcase-owner';
  /** What the directory is: index-build (a build's temp dir), index-old (an index being replaced), index. */
  kind: string;
  pid: number;
  token: string;
  createdAt: string;
}

/** A random token (hex) for markers and locks. */
export const newToken = (): string => randomBytes(12).toString('hex');

/** Is a process with this pid running on this machine? (EPERM: it exists, owned by another user.) */
export function processAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Write `dir/.lexcase-owner` (replacing one there) and return the mark. */
export function writeOwnerMark(dir: string, kind: string, token = newToken()): OwnerMark {
  const mark: OwnerMark = { format: 'lexcase-owner', kind, pid: process.pid, token, createdAt: new Date().toISOString() };
  writeFileSync(join(dir, OWNER_MARKER), JSON.stringify(mark) + '\n');
  return mark;
}

/** The marker of `dir`, or undefined when there is none or it is not a lexcase marker. */
export function readOwnerMark(dir: string): OwnerMark | undefined {
  try {
    const st = lstatSync(join(dir, OWNER_MARKER));
    if (!st.isFile() || st.size > 4096) return undefined;
    const m = JSON.parse(readFileSync(join(dir, OWNER_MARKER), 'utf8')) as Partial<OwnerMark>;
    if (m?.format !== 'lexcase-owner' || typeof m.kind !== 'string' || !Number.isInteger(m.pid) || typeof m.token !== 'string') return undefined;
    return m as OwnerMark;
  } catch {
    return undefined;
  }
}

/**
 * Did lexcase make `dir` as a `kind` directory of process `pid`, and is it free to remove? True when
 * its marker has that kind and pid, and either that process is gone, or it is this process and the
 * token is `token` (the mark this process wrote).
 */
export function ownedBy(dir: string, kind: string, pid: number, token?: string): boolean {
  const m = readOwnerMark(dir);
  if (!m || m.kind !== kind || m.pid !== pid) return false;
  if (pid === process.pid) return token !== undefined && m.token === token;
  return !processAlive(pid);
}

/** Whether a path (relative to the tree's root, `/`-separated) belongs to the layout being removed. */
export type LayoutPredicate = (rel: string, isDir: boolean) => boolean;

/**
 * Every path under `root` the predicate does not accept (symlinks and other non-regular entries
 * count as foreign unless accepted), at every depth; [] when the whole tree is the layout's.
 */
export function foreignEntries(root: string, owns: LayoutPredicate, limit = 20): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    let names: string[];
    try {
      names = readdirSync(rel ? join(root, rel) : root);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      if (out.length >= limit) return;
      const r = rel ? `${rel}/${name}` : name;
      let st;
      try {
        st = lstatSync(join(root, r));
      } catch {
        continue;
      }
      const isDir = st.isDirectory();
      if (!owns(r, isDir) || (!isDir && !st.isFile())) {
        out.push(isDir ? `${r}/` : r);
        continue;
      }
      if (isDir) walk(r);
    }
  };
  walk('');
  return out;
}

/**
 * Remove what `owns` accepts under `root`, depth first, then `root` itself when it is left empty.
 * A foreign entry (and so each directory above it) is kept. Returns the kept foreign paths.
 */
export function removeOwnedTree(root: string, owns: LayoutPredicate): string[] {
  const kept: string[] = [];
  const walk = (rel: string): boolean => {
    const abs = rel ? join(root, rel) : root;
    let names: string[];
    try {
      names = readdirSync(abs);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return true;
      throw e;
    }
    let empty = true;
    // The root's marker goes last, so a removal cut short leaves a tree that is still provably ours.
    const markerHere = !rel && names.includes(OWNER_MARKER);
    for (const name of names) {
      if (!rel && name === OWNER_MARKER) continue;
      const r = rel ? `${rel}/${name}` : name;
      const p = join(root, r);
      let st;
      try {
        st = lstatSync(p);
      } catch {
        continue;
      }
      const isDir = st.isDirectory();
      if (!owns(r, isDir) || (!isDir && !st.isFile())) {
        kept.push(isDir ? `${r}/` : r);
        empty = false;
      } else if (isDir) {
        if (walk(r)) rmdirSync(p);
        else empty = false;
      } else unlinkSync(p);
    }
    if (markerHere) {
      if (empty && owns(OWNER_MARKER, false)) unlinkSync(join(root, OWNER_MARKER));
      else empty = false;
    }
    return empty;
  };
  if (walk('')) rmdirSync(root);
  return kept;
}
