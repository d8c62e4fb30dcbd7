/**
 * Advisory locks for long-lived writers: an index build holds `<out>.lock`, a run holds
 * `<run dir>/run.lock`, so a second writer gets one clear LOCKED error instead of both writing.
 *
 * A lock is a small JSON file created exclusively (O_EXCL): { format: "lexcase-lock", pid, start,
 * token, host, what, since }. Released by its holder (only when the token is still its own). A lock
 * whose process is gone (same host, pid not running: killed, crashed) is stale: the next writer
 * takes it over. A pid is reused, so "running" means that very process: `start` names it (boot and
 * start time, core/process-identity.ts; Linux), and a lock without one (an older lexcase, a hand-made
 * file) is stale when the process now holding its pid started after the lock was written. Taking over is serialised through a second exclusive file (`<lock>.break`) so two
 * writers that find the same stale lock cannot both win. A file at the lock's path that is not a
 * lexcase lock is never removed (LOCKED, naming it). Locks from another host are never broken.
 */
import { hostname } from 'node:os';
import { closeSync, lstatSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { errors } from './errors.js';
import { newToken } from './owned-dir.js';
import { processStartedAt, processStartId, sameProcessRunning } from './process-identity.js';

export interface LockInfo {
  format: 'lexcase-lock';
  pid: number;
  /** The holder's identity beyond its pid (processStartId), where the platform tells it. */
  start?: string;
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
/** A process that started this long after a lock was written cannot be its holder (clock steps allowed for). */
const STARTED_AFTER_SLACK_MS = 60_000;

function stale(l: LockInfo): boolean {
  if (l.pid === -1) return Date.now() - Date.parse(l.since) > EMPTY_LOCK_STALE_MS;
  if (l.host !== hostname()) return false;
  if (!sameProcessRunning(l.pid, typeof l.start === 'string' ? l.start : undefined)) return true;
  if (typeof l.start === 'string') return false;
  // No identity recorded: the pid's process is the holder only if it was running when the lock was written.
  const started = processStartedAt(l.pid);
  const since = Date.parse(l.since);
  return started !== undefined && Number.isFinite(since) && started > since + STARTED_AFTER_SLACK_MS;
}

const newInfo = (what: string): LockInfo => {
  const start = processStartId(process.pid);
  return { format: 'lexcase-lock', pid: process.pid, ...(start ? { start } : {}), token: newToken(), host: hostname(), what, since: new Date().toISOString() };
};

/** Block this thread for `ms` (a lock held by another process for a few milliseconds). */
const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Remove the stale lock at `path` (still the one with `token`), serialised by `<path>.break`. */
function breakStale(path: string, token: string): void {
  const brk = `${path}.break`;
  const me = newInfo('breaking a stale lock');
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

export interface AcquireOptions {
  /**
   * Wait up to this long for a live holder to release it (short read-modify-writes: `acal
   * contest`), then LOCKED saying how long it waited. Default 0: LOCKED at once.
   */
  waitMs?: number;
}

/**
 * Take the lock at `lockPath` for `what` (e.g. "index build"), naming `dir` in errors. Throws
 * LOCKED when a live process holds it (after `waitMs`) or the path holds a file that is not a
 * lexcase lock.
 */
export function acquireLock(lockPath: string, dir: string, what: string, opts: AcquireOptions = {}): DirLock {
  const info = newInfo(what);
  const waitMs = Math.max(0, opts.waitMs ?? 0);
  const t0 = Date.now();
  let changes = 0;
  /** After 20 changes seen: give up, or (waiting) pause before the next try. */
  const keepsChanging = (): boolean => {
    if (++changes <= 20) return false;
    if (Date.now() - t0 >= waitMs) return true;
    sleepSync(10);
    return false;
  };
  for (let attempt = 0; ; attempt++) {
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
    if (cur === undefined) {
      if (keepsChanging()) break;
      continue; // released meanwhile
    }
    if (cur === 'foreign') throw errors.locked(dir, `${lockPath} exists and is not a lexcase lock`, `move ${lockPath} away, or choose another directory`);
    if (cur.pid === process.pid && cur.token !== '' && held.has(lockPath)) throw errors.locked(dir, `this process already holds it (${cur.what})`);
    if (!stale(cur)) {
      const waited = Date.now() - t0;
      if (waited < waitMs) {
        sleepSync(Math.min(waitMs - waited, 5 + Math.floor(Math.random() * Math.min(100, 5 * (attempt + 1)))));
        continue;
      }
      const who =
        cur.pid === -1 ? 'another lexcase process' : `${cur.what} (pid ${cur.pid}${cur.host !== hostname() ? ` on ${cur.host}` : ''}, since ${cur.since})`;
      const after = waitMs ? `; still held after waiting ${(waited / 1000).toFixed(1)} s` : '';
      throw errors.locked(dir, `it is in use by ${who}${after}`, `wait for it to finish; if no lexcase process is using it, delete ${lockPath}`);
    }
    breakStale(lockPath, cur.token);
    if (keepsChanging()) break;
  }
  throw errors.locked(dir, `could not take ${lockPath} (it keeps changing)`, 'another process is taking it; try again');
}

/**
 * The live process holding the lock at `lockPath` (a reader's question: is a writer at work on
 * this dir?), or undefined: no lock, a stale one, or a file that is not a lexcase lock.
 */
export function liveHolder(lockPath: string): LockInfo | undefined {
  const cur = readLock(lockPath);
  return cur && cur !== 'foreign' && cur.pid !== -1 && !stale(cur) ? cur : undefined;
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
