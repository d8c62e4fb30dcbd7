/**
 * What a file holds now, as the key of something the explorer computed from it and keeps (a run's
 * summary and figures, a user set's topics and qrels): the sha256 of its bytes, '-' when it cannot
 * be read (absent, unreadable, or not a regular file: a FIFO is never opened for reading).
 *
 * A key made from the file's stat (size, mtime, inode) stays the same when the file is rewritten
 * in place at the same size within one tick of the file system's clock (a resume replacing a line
 * by one of the same length, a qrels grade 1 → 0) or when its mtime is set back (`touch -r`): the
 * figures of the file as it was would be shown, with nothing to say so. The content is what the
 * figures are of, so it is the key. Its cost is one read of the file, which these requests make
 * anyway: the runs list parses every results.jsonl, an evaluation searches every topic.
 */
import { statSync } from 'node:fs';
import { regularFileSha256 } from '../../core/read-regular.js';

export async function contentKey(file: string): Promise<string> {
  try {
    return await regularFileSha256(file);
  } catch {
    return '-';
  }
}

/** How long after a file's last change its stat is not trusted to tell a later change (a file system's clock tick is at most 2 s, FAT's). */
const SETTLE_MS = 2_000;

/**
 * A key from the file's stat, for a cache whose value is itself a hash of the bytes (where hashing
 * them to make the key would leave nothing to save): size, mtime, ctime, inode and device, to the
 * nanosecond ('-' when it cannot be read). ctime moves on every write and every mtime set (`touch
 * -r` included) and cannot be set back. A rewrite within the same clock tick as the last change
 * keeps every field, so `settled` is false while the last change is less than 2 s old: a value
 * computed then is not kept (git's rule for "racily clean" files).
 */
export function statKey(file: string): { key: string; settled: boolean } {
  try {
    const s = statSync(file, { bigint: true });
    return {
      key: `${s.size}:${s.mtimeNs}:${s.ctimeNs}:${s.ino}:${s.dev}`,
      settled: Date.now() - Number(s.ctimeMs) > SETTLE_MS && Date.now() - Number(s.mtimeMs) > SETTLE_MS,
    };
  } catch {
    return { key: '-', settled: false };
  }
}
