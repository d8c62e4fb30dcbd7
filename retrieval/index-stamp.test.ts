/**
 * indexStamp: what the opened-index caches and servers key on. Unchanged files give the same stamp;
 * a new version of the lancedb-fts table (LanceDB writes one for a row deleted or added, the
 * manifest unchanged) changes it; a dir without a manifest has none. The manifest and data-file
 * cases are in manifest-keyed-cache.test.ts and serve/query/index-rebuilt.test.ts.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { tempDir } from '../indexer/build-test-helpers.js';
import { indexStamp } from './index-stamp.js';

const tmp = tempDir('lexcase-stamp-');
afterAll(() => tmp.cleanup());

it('changes when the lancedb-fts table gets a new version; the same files keep the same stamp; no manifest, no stamp', () => {
  const dir = join(tmp.dir, 'idx');
  const versions = join(dir, 'lancedb-fts', 'passages.lance', '_versions');
  mkdirSync(versions, { recursive: true });
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ methods: ['bm25', 'lancedb-fts'], checksums: { 'docs/ids.bin': 'x' } }));
  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'docs', 'ids.bin'), 'ids');
  writeFileSync(join(versions, '1.manifest'), 'v1');
  const first = indexStamp(dir);
  expect(first).toBeDefined();
  expect(indexStamp(dir)).toBe(first);
  writeFileSync(join(versions, '2.manifest'), 'v2'); // a row deleted: LanceDB's next version
  expect(indexStamp(dir)).not.toBe(first);
  expect(indexStamp(join(tmp.dir, 'none'))).toBeUndefined();
});
