/**
 * The sha256 of a model file, computed once and cached beside what the file system says of the file,
 * so a run's config names the exact weights without hashing gigabytes every time: the cache
 * (<cache>/lexcase/model-sha256.json, next to the LLM response cache's default folder) maps the
 * file's real path to { size, mtimeMs, ctimeMs, ino, dev, sha256 }; an entry any of which no longer
 * matches is computed again. The mtime alone can be set back (cp -p, rsync -t, touch -d, a converter
 * that keeps it): a file rewritten with the same size and mtime would keep the old sha256, and the
 * response cache would serve the old model's replies. The ctime cannot: every write and every mtime
 * set makes it the time of that change, and a file written beside and renamed over (rsync) is another
 * inode. Reading them is one stat, no read of the file. A cache that cannot be read or written only
 * costs the hashing.
 */
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { defaultCacheDir } from '../../config.js';
import { log } from '../../log.js';

export interface FileHash {
  sha256: string;
  size: number;
  mtimeMs: number;
  /** Status-change time: set by the kernel at every write or metadata change, never set back by a user's tool. */
  ctimeMs: number;
  ino: number;
  dev: number;
}

type CacheFile = { version: 2; files: Record<string, FileHash> };

/** The cache file: $XDG_CACHE_HOME/lexcase/model-sha256.json (or ~/.cache/lexcase/…). */
export function modelHashCacheFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(dirname(defaultCacheDir(env)), 'model-sha256.json');
}

function readCache(file: string): CacheFile {
  try {
    const c = JSON.parse(readFileSync(file, 'utf8')) as CacheFile;
    // version 1 (size and mtime only): hashed again
    if (c?.version === 2 && c.files && typeof c.files === 'object') return c;
  } catch {
    /* absent or unreadable: start empty */
  }
  return { version: 2, files: {} };
}

function hashFile(path: string): string {
  const h = createHash('sha256');
  const buf = Buffer.allocUnsafe(8 << 20);
  const fd = openSync(path, 'r');
  try {
    for (;;) {
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      h.update(n === buf.length ? buf : buf.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  return h.digest('hex');
}

/** sha256 of `file` with its stat, from the cache when size, mtime, ctime, inode and device all match (`cacheFile` false: no cache). */
export function modelFileHash(file: string, cacheFile: string | false = modelHashCacheFile()): FileHash & { cached: boolean } {
  const real = realpathSync(file);
  const st = statSync(real);
  const now = { size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, ino: st.ino, dev: st.dev };
  const cache = cacheFile ? readCache(cacheFile) : undefined;
  const hit = cache?.files[real];
  const same = hit && (Object.keys(now) as (keyof typeof now)[]).every((k) => hit[k] === now[k]);
  if (hit && same && /^[0-9a-f]{64}$/.test(hit.sha256)) return { ...hit, cached: true };
  if (st.size > 256 << 20) log.info(`hashing the model file ${file} (${(st.size / 2 ** 30).toFixed(1)} GiB; once: the sha256 is cached)`);
  const entry: FileHash = { sha256: hashFile(real), ...now };
  if (cache && cacheFile) {
    try {
      // entries of files that are gone are dropped
      for (const k of Object.keys(cache.files)) if (!existsSync(k)) delete cache.files[k];
      cache.files[real] = entry;
      mkdirSync(dirname(cacheFile), { recursive: true });
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(cache, null, 1) + '\n');
      renameSync(tmp, cacheFile);
    } catch (e) {
      log.debug(`model hash cache ${cacheFile} not written: ${(e as Error).message}`);
    }
  }
  return { ...entry, cached: false };
}
