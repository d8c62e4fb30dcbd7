/**
 * Verification records: a small file OUTSIDE the index dir saying "the data files of the index at
 * this realpath, with these manifest checksums and sizes, were sha256-verified while each had exactly this (size, mtime,
 * ctime, inode, device)". A later open whose files still stat the same skips re-hashing; any change
 * to a file through the OS (a write moves mtime and ctime, even `touch -d`/utimes moves ctime; a
 * copy or replacement changes the inode) no longer matches and the files are hashed again.
 *
 * Limit: damage below the filesystem (bit rot on the medium, a disk written behind the OS's back)
 * keeps every stat field, so a record cannot see it: `lexcase index verify` (always hashes) or
 * LEXCASE_VERIFY=always (never trusts a record) do.
 *
 * Records live in LEXCASE_VERIFY_CACHE_DIR, else $XDG_CACHE_HOME/lexcase/verified, else
 * ~/.cache/lexcase/verified (`off` turns them off). They are written atomically (temp file +
 * rename), one per index dir (and one per dense table dir, `<uri>/<table>.lance`, whose recorded
 * files a dense open verifies: dense/verify-dense.ts), and never inside an index dir or a table
 * dir. Reading or writing one never fails an open: an unreadable or unwritable cache just means the
 * files are hashed again.
 */
import { randomBytes, createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, realpathSync, renameSync, statSync, unlinkSync, writeFileSync, existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import { log } from '../core/log.js';
import type { Manifest } from './manifest.js';

/** The recorded digests a record is about: an index's manifest, or a dense table's recorded files (as checksums and sizes). */
type Digests = Pick<Manifest, 'checksums' | 'sizes'>;

const RECORD_VERSION = 1;
/** Above this many records, writing one first drops those whose index dir no longer exists. */
const PRUNE_ABOVE = 200;

/** The directory records live in, or undefined when they are turned off. */
export function verifyCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const own = env.LEXCASE_VERIFY_CACHE_DIR;
  if (own !== undefined && own !== '') return /^(off|false|0|none|no)$/i.test(own) ? undefined : resolve(own);
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'lexcase', 'verified');
}

/** (size, mtime, ctime, inode, device) of every data file, keyed by relative path; undefined when one is missing. */
export function fingerprint(dir: string, m: Digests): Record<string, string> | undefined {
  return statFiles(dir, m).files;
}

/**
 * One stat of every data file: their fingerprint (undefined when one is missing) and the total
 * size of those present.
 */
export function statFiles(dir: string, m: Pick<Manifest, 'checksums'>): { files: Record<string, string> | undefined; bytes: number } {
  let files: Record<string, string> | undefined = {};
  let bytes = 0;
  for (const rel of Object.keys(m.checksums).sort()) {
    const s = statSync(join(dir, rel), { bigint: true, throwIfNoEntry: false });
    if (!s) {
      files = undefined;
      continue;
    }
    bytes += Number(s.size);
    if (files) files[rel] = `${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}:${s.dev}`;
  }
  return { files, bytes };
}

/**
 * What a record must match besides the files: the manifest's checksums and sizes (the rest of the
 * manifest is checked against its seal on every read; adding a dense table changes neither).
 */
export function manifestKey(m: Digests): string {
  return createHash('sha256')
    .update(JSON.stringify([m.checksums, m.sizes ?? {}]))
    .digest('hex');
}

interface VerifyRecord {
  version: number;
  dir: string;
  manifest: string;
  files: Record<string, string>;
  verifiedAt: string;
}

const recordFile = (cache: string, real: string) => join(cache, `${createHash('sha256').update(real).digest('hex').slice(0, 32)}.json`);

const sameFiles = (a: Record<string, string>, b: Record<string, string>) => {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
};

/** True when a record says these exact files (same manifest, same stat of every file) were verified. `key` is manifestKey(m). */
export function hasVerifiedRecord(real: string, m: Digests, files: Record<string, string>, key = manifestKey(m)): boolean {
  const cache = verifyCacheDir();
  if (!cache) return false;
  try {
    const r = JSON.parse(readFileSync(recordFile(cache, real), 'utf8')) as Partial<VerifyRecord>;
    return r.version === RECORD_VERSION && r.dir === real && r.manifest === key && !!r.files && sameFiles(r.files, files);
  } catch {
    return false;
  }
}

/**
 * Record that the index at `real` (its realpath) with manifest `m` verified while its files had the
 * stats `files` (`key` is manifestKey(m)). `keepOut`: realpaths of other dirs no record may be
 * written inside (a dense table's index dir). Best effort: any failure is a debug line, never an error.
 */
export function writeVerifiedRecord(real: string, m: Digests, files: Record<string, string>, key = manifestKey(m), keepOut: readonly string[] = []): void {
  const cache = verifyCacheDir();
  if (!cache) return;
  try {
    mkdirSync(cache, { recursive: true });
    const cacheReal = realpathSync(cache);
    // Never write inside an index dir (a search must leave it byte-for-byte unchanged).
    const inside = [real, ...keepOut].find((d) => cacheReal === d || cacheReal.startsWith(d + sep));
    if (inside) {
      log.debug(`index ${real}: verification cache ${cache} is inside ${inside}; no record written`);
      return;
    }
    prune(cache);
    const record: VerifyRecord = { version: RECORD_VERSION, dir: real, manifest: key, files, verifiedAt: new Date().toISOString() };
    const file = recordFile(cache, real);
    const tmp = `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
    writeFileSync(tmp, JSON.stringify(record) + '\n');
    try {
      renameSync(tmp, file);
    } catch (e) {
      try {
        unlinkSync(tmp);
      } catch {
        /* already gone */
      }
      throw e;
    }
  } catch (e) {
    log.debug(`index ${real}: no verification record written in ${cache}: ${(e as Error).message}`);
  }
}

/** Drop records of index dirs that no longer exist, once there are more than PRUNE_ABOVE. */
function prune(cache: string): void {
  const names = readdirSync(cache).filter((n) => n.endsWith('.json'));
  if (names.length <= PRUNE_ABOVE) return;
  for (const n of names) {
    try {
      const r = JSON.parse(readFileSync(join(cache, n), 'utf8')) as Partial<VerifyRecord>;
      if (typeof r.dir !== 'string' || !existsSync(r.dir)) unlinkSync(join(cache, n));
    } catch {
      /* another process removed or is replacing it */
    }
  }
}
