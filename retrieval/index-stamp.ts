/**
 * What an index dir holds now, as one string that changes whenever what a search reads changes:
 * the sha256 of manifest.json's bytes (its checksums, sizes, methods: a rewrite at the same size, in
 * the same mtime tick, into a reused inode still changes it), one stat (size, mtime, ctime, inode,
 * device, in ns) of every data file the manifest lists (a file copied in or rewritten without the
 * manifest changing), and the names in the lancedb-fts table's version list when the index has that
 * table (a row deleted or added writes a new version file). The opened-index caches (manifest-keyed-cache.ts) and
 * OpenedIndex.assertCurrent (open-index.ts) key on it. Cost per call: one read of manifest.json
 * (a few KiB) and one stat per data file (about 20); the manifest is parsed once per content.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANCE_FTS_DIR, LANCE_FTS_TABLE } from '../indexer/lancedb-fts-names.js';
import { statFiles } from '../indexer/verify-record.js';

/** What the stamp reads of a manifest, by its content's sha256 (parsed once per content). */
const parsed = new Map<string, { checksums: Record<string, string>; fts: boolean }>();
const PARSED_MAX = 256;

function filesOf(digest: string, bytes: Buffer): { checksums: Record<string, string>; fts: boolean } {
  let p = parsed.get(digest);
  if (!p) {
    let m: { checksums?: unknown; methods?: unknown } = {};
    try {
      m = JSON.parse(bytes.toString('utf8')) as typeof m;
    } catch {
      // not JSON: opening it fails (INDEX_CORRUPT); the stamp is its bytes' digest alone
    }
    const checksums = typeof m.checksums === 'object' && m.checksums !== null ? (m.checksums as Record<string, string>) : {};
    p = { checksums, fts: Array.isArray(m.methods) && m.methods.includes('lancedb-fts') };
    if (parsed.size >= PARSED_MAX) parsed.clear();
    parsed.set(digest, p);
  }
  return p;
}

/** The names in a LanceDB table's version list (one file per version: a new one for each change). */
const versionsOf = (path: string): string => {
  try {
    return readdirSync(path).sort().join('/');
  } catch {
    return 'missing';
  }
};

/** The stamp of the index in `dir` (absolute or relative); undefined when its manifest.json cannot be read. */
export function indexStamp(dir: string): string | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(join(dir, 'manifest.json'));
  } catch {
    return undefined;
  }
  const digest = createHash('sha256').update(bytes).digest('hex');
  const { checksums, fts } = filesOf(digest, bytes);
  const { files } = statFiles(dir, { checksums });
  const table = fts ? `\0${versionsOf(join(dir, LANCE_FTS_DIR, `${LANCE_FTS_TABLE}.lance`, '_versions'))}` : '';
  return `${digest}\0${files ? JSON.stringify(files) : 'missing'}${table}`;
}
