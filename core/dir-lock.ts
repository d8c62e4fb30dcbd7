/**
 * Advisory locks for long-lived writers: an index build holds `<out>.lock`, a run holds
 * `<run dir>/run.lock`, so a second writer gets one clear LOCKED error instead of both writing.
 *
 * A lock is a small JSON file created exclusively (O_EXCL): { format: "lexcase-lock", pid, token,
 * host, what, since }. Released by its holder (only when the token is still its own). A lock whose
 * process is gone (same host, pid not running: killed, crashed) is stale: the next writer takes
 * it over. Taking over is serialised through a second exclusive file (`<lock>.break`) so two
 * writers that find the same stale lock cannot both win. A file at the lock's path that is not a
 * lexcase lock is never removed (LOCKED, naming it). Locks from another host are never broken.
 */
import { hostname } from 'node:os';
import { closeSync, lstatSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { errors } from './errors.js';
import { newToken, processAlive } from './owned-dir.js';

export interface LockInfo {
  format: 'lexcase-lock';
  pid: number;
  token: string;
  host: string;
  /** What holds it, e.g. "index build", "run case". */
  what: string;
  since: string;
}

export interface DirLock {
  path: string;
  info: LockInfo;
  /** Remove the lock if it is still this holder's (idempotent). */
  release(): void;
}

const held = new Map<string, LockInfo>();
let exitHook = false;

function readLock(path: string): LockInfo | 'foreign' | undefined {
  let text: string;
  try {
    const st = lstatSync(path);
    if (!st.isFile() || st.size > 8192) return 'foreign';
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : 'foreign';
  }
  // A lock being written (created, not yet filled) reads empty: held, unless a crash left it so long ago.
  if (text === '') {
    let mtime = Date.now();
    try {
      mtime = lstatSync(path).mtimeMs;
    } catch {
      /* gone */
    }
    return { format: 'lexcase-lock', pid: -1, token: '', host: hostname(), what: 'a lexcase process', since: new Date(mtime).toISOString() };
  }
  try {
    const v = JSON.parse(text) as Partial<LockInfo>;
    if (v?.format === 'lexcase-lock' && Number.isInteger(v.pid) && typeof v.token === 'string') return v as LockInfo;
  } catch {
    /* not ours */
  }
  return 'foreign';
}

function createExclusive(path: string, info: LockInfo): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  try {
    writeSync(fd, JSON.stringify(info) + '\n');
  } catch (e) {
    closeSync(fd);
    unlinkSync(path);
    throw e;
  }
  closeSync(fd);
  return true;
}

const EMPTY_LOCK_STALE_MS = 10_000;
const stale = (l: LockInfo) =>
  l.pid === -1 ? Date.now() - Date.parse(l.since) > EMPTY_LOCK_STALE_MS : l.host === hostname() && !processAlive(l.pid);

/** Remove the stale lock at `path` (still the one with `token`), serialised by `<path>.break`. */
function breakStale(path: string, token: string): void {
  const brk = `${path}.break`;
  const me: LockInfo = { format: 'lexcase-lock', pid: process.pid, token: newToken(), host: hostname(), what: 'breaking a stale lock', since: new Date().toISOString() };
  if (!createExclusive(brk, me)) {
    const other = readLock(brk);
    // A breaker that died mid-break leaves its file: remove it (only a lexcase lock of a dead process).
    if (other && other !== 'foreign' && stale(other)) {
      try {
        unlinkSync(brk);
      } catch {
        /* another process did */
      }
    }
    return;
  }
  try {
    const now = readLock(path);
    if (now && now !== 'foreign' && now.token === token && stale(now)) unlinkSync(path);
  } finally {
    unlinkSync(brk);
  }
}

/**
 * Take the lock at `lockPath` for `what` (e.g. "index build"), naming `dir` in errors. Throws
 * LOCKED when a live process holds it or the path holds a file that is not a lexcase lock.
 */
export function acquireLock(lockPath: string, dir: string, what: string): DirLock {
  const info: LockInfo = { format: 'lexcase-lock', pid: process.pid, token: newToken(), host: hostname(), what, since: new Date().toISOString() };
  for (let attempt = 0; attempt < 20; attempt++) {
    if (createExclusive(lockPath, info)) {
      held.set(lockPath, info);
      if (!exitHook) {
        exitHook = true;
        // process.exit() skips finally blocks: release what this process still holds.
        process.once('exit', () => {
          for (const [p, i] of held) releaseIfOwn(p, i.token);
        });
      }
      return { path: lockPath, info, release: () => releaseIfOwn(lockPath, info.token) };
    }
    const cur = readLock(lockPath);
    if (cur === undefined) continue; // released meanwhile
    if (cur === 'foreign') throw errors.locked(dir, `${lockPath} exists and is not a lexcase lock`, `move ${lockPath} away, or choose another directory`);
    if (cur.pid === process.pid && cur.token !== '' && held.has(lockPath))
      throw errors.locked(dir, `this process already holds it (${cur.what})`);
    if (!stale(cur)) {
      const who = cur.pid === -1 ? 'another lexcase process' : `${cur.what} (pid ${cur.pid}${cur.host !== hostname() ? ` on ${cur.host}` : ''}, since ${cur.since})`;
      throw errors.locked(dir, `it is in use by ${who}`, `wait for it to finish; if no lexcase process is using it, delete ${lockPath}`);
    }
    breakStale(lockPath, cur.token);
  }
  throw errors.locked(dir, `could not take ${lockPath} (it keeps changing)`, 'another process is taking it; try again');
}

function releaseIfOwn(path: string, token: string): void {
  held.delete(path);
  const cur = readLock(path);
  if (cur && cur !== 'foreign' && cur.token === token) {
    try {
      unlinkSync(path);
    } catch {
      /* already gone */
    }
  }
}
