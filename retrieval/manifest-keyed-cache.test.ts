/**
 * manifestKeyedCache: one opened value per index dir and content (index-stamp.ts); a rewritten
 * manifest (even at the same size, mtime and inode) or a replaced data file reopens and closes the
 * stale value; a missing manifest is INDEX_MISSING; failed opens are not kept.
 */
import { copyFileSync, mkdirSync, openSync, rmSync, statSync, utimesSync, writeFileSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../indexer/build-test-helpers.js';
import { manifestKeyedCache } from './manifest-keyed-cache.js';

const tmp = tempDir('lexcase-mkc-');
afterAll(() => tmp.cleanup());

function indexDir(name: string, manifest: object): string {
  const dir = join(tmp.dir, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  return dir;
}

/** A cache whose values record which dir/version they were opened for, and which got closed. */
function recording() {
  const opened: string[] = [];
  const closed: string[] = [];
  let n = 0;
  const cache = manifestKeyedCache(
    async (abs) => {
      const v = `${abs}#${++n}`;
      opened.push(v);
      return v;
    },
    async (v: string) => void closed.push(v),
  );
  return { cache, opened, closed };
}

describe('manifestKeyedCache', () => {
  it('opens a dir once while its manifest is unchanged (relative and absolute paths share the entry)', async () => {
    const dir = indexDir('same', { version: 1 });
    const { cache, opened } = recording();
    const a = await cache.get(dir);
    const b = await cache.get(join(dir, '..', 'same'));
    expect(b).toBe(a);
    expect(opened).toHaveLength(1);
  });

  it('reopens when the manifest is rewritten and closes the stale value', async () => {
    const dir = indexDir('rebuilt', { version: 1 });
    const { cache, opened, closed } = recording();
    const first = await cache.get(dir);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ version: 2, rebuilt: true })); // size changes
    const second = await cache.get(dir);
    expect(second).not.toBe(first);
    expect(opened).toEqual([first, second]);
    await new Promise((r) => setTimeout(r, 0));
    expect(closed).toEqual([first]);
  });

  it('reopens when the manifest is rewritten in place at the same size with its mtime put back (same inode)', async () => {
    const dir = indexDir('same-size', { checksums: { 'a.bin': 'aaaa' } });
    const file = join(dir, 'manifest.json');
    const tick = 1_700_000_000; // a whole second: set back exactly
    utimesSync(file, tick, tick);
    const { cache, opened } = recording();
    const first = await cache.get(dir);
    const before = statSync(file);
    // another index's checksums, same length, written into the same inode; the mtime put back
    const fd = openSync(file, 'r+');
    writeSync(fd, JSON.stringify({ checksums: { 'a.bin': 'bbbb' } }), 0);
    closeSync(fd);
    utimesSync(file, tick, tick);
    expect(statSync(file).ino).toBe(before.ino);
    expect(statSync(file).size).toBe(before.size);
    expect(statSync(file).mtimeMs).toBe(before.mtimeMs);
    const second = await cache.get(dir);
    expect(second).not.toBe(first); // before: the value opened for the other checksums
    expect(opened).toHaveLength(2);
  });

  it('reopens when a data file the manifest lists is replaced while the manifest stays the same', async () => {
    const dir = indexDir('data-file', { checksums: { 'postings.bin': 'cccc' } });
    writeFileSync(join(dir, 'postings.bin'), 'one index');
    writeFileSync(join(tmp.dir, 'other-postings.bin'), 'another one');
    const { cache, opened } = recording();
    const first = await cache.get(dir);
    expect(await cache.get(dir)).toBe(first);
    copyFileSync(join(tmp.dir, 'other-postings.bin'), join(dir, 'postings.bin')); // a user copies in another index's file
    const second = await cache.get(dir);
    expect(second).not.toBe(first); // before: the value opened from the old file, served on
    expect(opened).toHaveLength(2);
  });

  it('throws INDEX_MISSING naming the dir when there is no manifest', async () => {
    const { cache, opened } = recording();
    const dir = join(tmp.dir, 'nothing-here');
    await expect(cache.get(dir)).rejects.toMatchObject({ code: 'INDEX_MISSING', message: expect.stringContaining(dir) });
    expect(opened).toEqual([]);
  });

  it('does not keep a failed open: the next get tries again', async () => {
    const dir = indexDir('flaky', { version: 1 });
    let calls = 0;
    const cache = manifestKeyedCache(
      async () => {
        if (++calls === 1) throw new Error('disk hiccup');
        return 'ok';
      },
      async () => undefined,
    );
    await expect(cache.get(dir)).rejects.toThrow('disk hiccup');
    await expect(cache.get(dir)).resolves.toBe('ok');
    expect(calls).toBe(2);
  });

  it('close(dir) closes only that dir; close() closes the rest; a later get reopens', async () => {
    const d1 = indexDir('one', { version: 1 });
    const d2 = indexDir('two', { version: 1 });
    const { cache, opened, closed } = recording();
    const v1 = await cache.get(d1);
    const v2 = await cache.get(d2);
    await cache.close(d1);
    expect(closed).toEqual([v1]);
    expect(await cache.get(d2)).toBe(v2);
    await cache.close();
    expect(closed).toEqual([v1, v2]);
    const again = await cache.get(d2);
    expect(again).not.toBe(v2);
    expect(opened).toHaveLength(3);
    rmSync(join(d2, 'manifest.json'));
    await expect(cache.get(d2)).rejects.toMatchObject({ code: 'INDEX_MISSING' });
  });
});
