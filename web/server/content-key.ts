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
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { readRegularBytes, regularFileSha256 } from '../../core/read-regular.js';

export async function contentKey(file: string): Promise<string> {
  try {
    return await regularFileSha256(file);
  } catch {
    return '-';
  }
}

/** A file read once: the key of its bytes (`contentKey`'s) and their text, or '-' and the error that stopped the read. */
export type KeyedText = { key: string; text: string } | { key: '-'; error: unknown };

/**
 * `file`'s text and the key of those very bytes, for a cache that parses the file on a miss: one read
 * on a hit and on a miss, and what is kept is of the bytes its key names (hashed, then read again,
 * a file rewritten in between was kept under the key of the bytes before).
 */
export async function readKeyed(file: string): Promise<KeyedText> {
  try {
    const bytes = await readRegularBytes(file);
    return { key: createHash('sha256').update(bytes).digest('hex'), text: bytes.toString('utf8') };
  } catch (error) {
    return { key: '-', error };
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
