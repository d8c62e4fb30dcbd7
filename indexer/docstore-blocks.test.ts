/**
 * Doc store v2 (texts in deflated blocks): the same passages come back as from the plain v1 layout
 * (get, at, entries, across block boundaries, empty and non-ASCII texts), the corpus checksum does
 * not depend on the layout, the texts take much less space, v1 dirs still open, and a newer or
 * damaged doc store gives a clear error.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import type { Passage } from '../corpora/types.js';
import { LEGAL_CORPUS_PASSAGES, bundledLines } from '../tests/support/bundled-data.js';
import { buildIndex } from './build.js';
import { fromArray, tempDir } from './build-test-helpers.js';
import { BLOCK_PASSAGES, defaultDeflateOn } from './docstore-blocks.js';
import { openDocStore } from './docstore.js';
import { readManifest, writeManifest } from './manifest.js';

const tmp = tempDir('lexcase-docblocks-');
afterAll(() => tmp.cleanup());

const REAL: Passage[] = bundledLines(LEGAL_CORPUS_PASSAGES)
  .slice(0, 3 * BLOCK_PASSAGES + 5)
  .map((l) => JSON.parse(l) as { id: string; text: string; title?: string; doc_id?: string })
  .map((r) => ({ id: r.id, text: r.text, title: r.title, docId: r.doc_id, source: 'legal_corpus' }));
REAL[BLOCK_PASSAGES - 1] = { ...REAL[BLOCK_PASSAGES - 1], text: '' };
REAL[BLOCK_PASSAGES] = { ...REAL[BLOCK_PASSAGES], text: 'Café — § 1983 «naïve» 法律 😀' };

async function build(name: string, compressDocs: boolean): Promise<string> {
  const out = join(tmp.dir, name);
  await buildIndex(fromArray(REAL), { out, corpusName: 'legal', workers: 0, compressDocs });
  return out;
}

const all = async (dir: string) => {
  const ds = await openDocStore(dir);
  const out: Passage[] = [];
  for await (const p of ds.entries()) out.push(p);
  await ds.close();
  return out;
};

it('block-compressed and plain doc stores return the same passages; the corpus checksum is layout-independent', async () => {
  const z = await build('z', true);
  const plain = await build('plain', false);
  const mz = await readManifest(z);
  expect(mz.docstore).toEqual({ version: 2, text: 'deflate-raw-1', blockPassages: BLOCK_PASSAGES });
  expect((await readManifest(plain)).docstore).toEqual({ version: 1, text: 'plain' });
  expect(mz.corpus.checksum).toBe((await readManifest(plain)).corpus.checksum);
  const [a, b] = [await all(z), await all(plain)];
  expect(a).toEqual(b);
  expect(a.map((p) => p.text)).toEqual(REAL.map((p) => p.text));
  // Random access, out of order, across block boundaries (block cache evictions included).
  const ds = await openDocStore(z);
  for (const i of [BLOCK_PASSAGES, 0, REAL.length - 1, BLOCK_PASSAGES - 1, 2 * BLOCK_PASSAGES + 1, 1, BLOCK_PASSAGES])
    expect((await ds.at(i)).text).toBe(REAL[i].text);
  expect((await ds.get(REAL[7].id))?.text).toBe(REAL[7].text);
  await ds.close();
  const zBytes = statSync(join(z, 'docs/text.dfl')).size;
  const rawBytes = statSync(join(plain, 'docs/text.bin')).size;
  expect(zBytes).toBeLessThan(rawBytes * 0.5);
});

it("text blocks deflated on the calling thread and on zlib's thread pool are the same bytes; 2 usable cores or fewer deflate on the calling thread, LEXCASE_DEFLATE chooses", async () => {
  const files: Buffer[] = [];
  const saved = process.env.LEXCASE_DEFLATE;
  try {
    for (const on of ['calling', 'pool']) {
      process.env.LEXCASE_DEFLATE = on;
      expect(defaultDeflateOn()).toBe(on);
      files.push(readFileSync(join(await build(`deflate-${on}`, true), 'docs/text.dfl')));
    }
  } finally {
    if (saved === undefined) delete process.env.LEXCASE_DEFLATE;
    else process.env.LEXCASE_DEFLATE = saved;
  }
  expect(files[0].length).toBeGreaterThan(0);
  expect(files[0].equals(files[1])).toBe(true);
  expect(defaultDeflateOn(1, {})).toBe('calling');
  expect(defaultDeflateOn(2, {})).toBe('calling');
  expect(defaultDeflateOn(3, {})).toBe('pool');
  expect(defaultDeflateOn(2, { LEXCASE_DEFLATE: 'POOL' })).toBe('pool');
  expect(() => defaultDeflateOn(2, { LEXCASE_DEFLATE: 'threads' })).toThrow(/LEXCASE_DEFLATE.*pool, calling/);
});

it('a newer doc store version or a damaged block gives a clear error', async () => {
  const z = await build('bad', true);
  const mfile = join(z, 'manifest.json');
  const m = JSON.parse(readFileSync(mfile, 'utf8'));
  await writeManifest(z, { ...m, docstore: { version: 3, text: 'zstd' } });
  await expect(openDocStore(z)).rejects.toMatchObject({ code: 'INDEX_INCOMPATIBLE' });
  writeFileSync(mfile, JSON.stringify(m));
  const dfl = join(z, 'docs/text.dfl');
  const bytes = readFileSync(dfl);
  bytes.fill(0xff, 0, 64);
  writeFileSync(dfl, bytes);
  // By default an open does the structural checks only: the open succeeds and the block itself is
  // found bad when it is read.
  const ds = await openDocStore(z);
  await expect(ds.at(0)).rejects.toMatchObject({ code: 'INDEX_CORRUPT' });
  await ds.close();
  // With LEXCASE_VERIFY=1: the build recorded its files as verified, but writeFileSync moved
  // text.dfl's mtime and ctime, so the first open in a process hashes it again and refuses it.
  process.env.LEXCASE_VERIFY = '1';
  try {
    await expect(openDocStore(z)).rejects.toThrow(/text\.dfl: index file is corrupt: sha256/);
  } finally {
    delete process.env.LEXCASE_VERIFY;
  }
});

it('prefix reads (snippets) give the first bytes of a text cut at a character boundary, for small blocks and a 12 MB passage read as a stream', async () => {
  const big = 'é😀a'.repeat(1_700_000); // 2+4+1 bytes per repeat: ~11.9 MB, a block over the 8 MiB streamed-read threshold
  const ps: Passage[] = [...REAL.slice(0, 5), { id: 'big', text: big, source: 'legal_corpus' }, { id: 'after', text: 'tail passage', source: 'legal_corpus' }];
  for (const [name, compressDocs] of [
    ['pz', true],
    ['pplain', false],
  ] as const) {
    const out = join(tmp.dir, name);
    await buildIndex(fromArray(ps), { out, corpusName: 'legal', workers: 0, compressDocs });
    const ds = await openDocStore(out);
    const expectPrefix = (text: string, bytes: number) => {
      const cut = Buffer.from(text)
        .subarray(0, bytes)
        .toString('utf8')
        .replace(/\uFFFD$/, '');
      return text.startsWith(cut) ? cut : '';
    };
    for (const bytes of [1, 2, 3, 5, 6, 7, 8, 65_536, 1 << 20]) {
      const got = (await ds.get('big', { maxTextBytes: bytes }))!.text;
      expect(big.startsWith(got)).toBe(true);
      expect(Buffer.byteLength(got)).toBeGreaterThan(bytes - 4);
      expect(got).toBe(expectPrefix(big, bytes));
    }
    expect((await ds.get('after', { maxTextBytes: 4 }))!.text).toBe('tail');
    expect((await ds.get(REAL[1].id, { maxTextBytes: 1e9 }))!.text).toBe(REAL[1].text);
    expect((await ds.get('big', { maxTextBytes: 1e9 }))!.text).toBe(big);
    await ds.close();
  }
}, 120_000);
