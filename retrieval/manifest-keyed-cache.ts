/**
 * A per-index-dir cache of something opened from the dir (the sparse index, the doc store), keyed
 * on what the dir holds (index-stamp.ts: manifest.json's content and a stat of every data file it
 * lists): the same dir and files give the same opened value; a rebuilt index, a method added or a
 * data file replaced is reopened (its files checked again) and the stale value closed in the background.
 * A failed open is not kept. Used by retrieval/open.ts and retrieval/hit-text.ts.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { errors } from '../core/errors.js';
import { indexStamp } from './index-stamp.js';

export interface ManifestKeyedCache<T> {
  /** The value for index dir `dir`, opened once per index content (indexStamp); INDEX_MISSING without a manifest. */
  get(dir: string): Promise<T>;
  /** Drop and close the cached values (all, or one dir's); close errors are ignored. */
  close(dir?: string): Promise<void>;
}

export function manifestKeyedCache<T>(open: (absDir: string) => Promise<T>, close: (value: T) => Promise<unknown>): ManifestKeyedCache<T> {
  const entries = new Map<string, { key: string; value: Promise<T> }>();
  const closeQuietly = (value: Promise<T>) =>
    value.then(close).then(
      () => undefined,
      () => undefined,
    );
  return {
    async get(dir) {
      const abs = resolve(dir);
      const key = indexStamp(abs);
      if (key === undefined) throw errors.indexMissing(dir, statSync(dir, { throwIfNoEntry: false })?.isFile() ?? false);
      const hit = entries.get(abs);
      if (hit && hit.key === key) return hit.value;
      if (hit) void closeQuietly(hit.value);
      const entry = { key, value: open(abs) };
      entries.set(abs, entry);
      entry.value.catch(() => {
        if (entries.get(abs) === entry) entries.delete(abs);
      });
      return entry.value;
    },
    async close(dir) {
      const only = dir === undefined ? undefined : resolve(dir);
      for (const [k, v] of [...entries]) {
        if (only !== undefined && k !== only) continue;
        entries.delete(k);
        await closeQuietly(v.value);
      }
    },
  };
}
