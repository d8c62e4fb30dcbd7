/**
 * The sha256 of a model file, computed once and cached beside the file's size and mtime, so a
 * run's config names the exact weights without hashing gigabytes every time: the cache
 * (<cache>/lexcase/model-sha256.json, next to the LLM response cache's default folder) maps the
 * file's real path to { size, mtimeMs, sha256 }; an entry whose size or mtime no longer match
 * is computed again. A cache that cannot be read or written only costs the hashing.
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
}

type CacheFile = { version: 1; files: Record<string, FileHash> };

/** The cache file: $XDG_CACHE_HOME/lexcase/model-sha256.json (or ~/.cache/lexcase/…). */
export function modelHashCacheFile(env: NodeJS.ProcessEnv = process.env): string {
  return join(dirname(defaultCacheDir(env)), 'model-sha256.json');
}

function readCache(file: string): CacheFile {
  try {
    const c = JSON.parse(readFileSync(file, 'utf8')) as CacheFile;
    if (c?.version === 1 && c.files && typeof c.files === 'object') return c;
  } catch {
    /* absent or unreadable: start empty */
  }
  return { version: 1, files: {} };
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

/** sha256, size and mtime of `file`, from the cache when its size and mtime match (`cacheFile` false: no cache). */
export function modelFileHash(file: string, cacheFile: string | false = modelHashCacheFile()): FileHash & { cached: boolean } {
  const real = realpathSync(file);
  const st = statSync(real);
  const cache = cacheFile ? readCache(cacheFile) : undefined;
  const hit = cache?.files[real];
  if (hit && hit.size === st.size && hit.mtimeMs === st.mtimeMs && /^[0-9a-f]{64}$/.test(hit.sha256)) return { ...hit, cached: true };
  if (st.size > 256 << 20) log.info(`hashing the model file ${file} (${(st.size / 2 ** 30).toFixed(1)} GiB; once: the sha256 is cached)`);
  const entry: FileHash = { sha256: hashFile(real), size: st.size, mtimeMs: st.mtimeMs };
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
