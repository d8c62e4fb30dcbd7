/**
 * A damaged index never answers silently: for every data file (postings, offsets, ids, doc store
 * columns, manifest) flipped bytes and truncation are reported by `verifyChecksums` /
 * `lexcase index verify` / `index info` naming the file; truncation and header damage are refused on
 * every open even with checksum verification off; and the first open in a process verifies checksums.
 */
import { cpSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LexcaseError } from '../core/errors.js';
import { closeSparseIndexes, openRetriever } from '../retrieval/open.js';
import { runCli } from '../tests/support/run-cli.js';
import type { Passage } from '../corpora/types.js';
import { buildIndex } from './build.js';
import { fromArray, tempDir } from './build-test-helpers.js';
import { expectedFiles, verifyChecksums } from './integrity.js';
import { readManifest } from './manifest.js';

const tmp = tempDir('lexcase-integrity-');
const PASSAGES: Passage[] = gunzipSync(readFileSync(join(import.meta.dirname, '../corpora/data/legal_corpus/passages.jsonl.gz')))
  .toString('utf8')
  .split('\n')
  .filter(Boolean)
  .slice(0, 400)
  .map((l) => JSON.parse(l) as { id: string; text: string; title?: string })
  .map((r) => ({ id: r.id, text: r.text, title: r.title, source: 'legal_corpus' }));
let good = '';
let files: string[] = [];
let n = 0;

beforeAll(async () => {
  good = join(tmp.dir, 'good');
  await buildIndex(fromArray(PASSAGES), { out: good, corpusName: 'legal', workers: 0 });
  // Every file with bytes to damage (docs/docid.bin is empty: these passages carry no doc ids).
  files = [...expectedFiles(await readManifest(good)), 'manifest.json'].filter((f) => statSync(join(good, f)).size > 0);
});
afterAll(async () => {
  await closeSparseIndexes();
  tmp.cleanup();
});

/** A copy of the good index with `damage` applied to one file. */
function damaged(rel: string, damage: (file: string) => void): string {
  const dir = join(tmp.dir, `case-${n++}`);
  cpSync(good, dir, { recursive: true });
  damage(join(dir, rel));
  return dir;
}
const flip = (file: string) => {
  const b = readFileSync(file);
  for (const at of [0.1, 0.5, 0.9].map((f) => Math.floor(f * (b.length - 1)))) b[at] ^= 0xff;
  writeFileSync(file, b);
};
const truncate = (file: string) => truncateSync(file, Math.floor(readFileSync(file).length / 2));

async function openError(dir: string): Promise<LexcaseError> {
  try {
    const r = await openRetriever(dir, 'bm25');
    await r.search('contract consideration negligence');
  } catch (e) {
    expect(e).toBeInstanceOf(LexcaseError);
    return e as LexcaseError;
  } finally {
    await closeSparseIndexes(dir);
  }
  throw new Error(`opening ${dir} did not fail`);
}

async function verifyMessage(dir: string): Promise<string> {
  try {
    const r = await verifyChecksums(dir, await readManifest(dir));
    return r.problems.map((p) => `${p.file}: ${p.message}`).join('\n');
  } catch (e) {
    return (e as Error).message;
  }
}

describe('every data file, flipped or truncated', () => {
  it('the intact index verifies clean and answers', async () => {
    const r = await verifyChecksums(good, await readManifest(good));
    expect(r.problems).toEqual([]);
    expect(r.files).toBe(expectedFiles(await readManifest(good)).length);
    expect((await (await openRetriever(good, 'bm25')).search('contract')).length).toBeGreaterThan(0);
  });

  it('verify names the damaged file in every case', async () => {
    expect(files).toEqual(expect.arrayContaining(['sparse/postings.bin', 'sparse/offsets.f64', 'sparse/terms.txt', 'docs/ids.bin', 'docs/ids.off', 'docs/text.dfl', 'docs/title.bin', 'docs/source.u32', 'manifest.json']));
    for (const rel of files) {
      for (const [how, damage] of [['flip', flip], ['truncate', truncate]] as const) {
        const dir = damaged(rel, damage);
        const msg = await verifyMessage(dir);
        expect(msg, `${how} ${rel}`).toContain(join(dir, rel));
        expect(msg, `${how} ${rel}`).toMatch(/corrupt|sha256|expected \d+ bytes|seal/);
      }
    }
  });

  it('the first open in a process verifies checksums: flipped bytes are INDEX_CORRUPT naming the file', async () => {
    for (const rel of files) {
      const dir = damaged(rel, flip);
      const e = await openError(dir);
      expect(e.code, rel).toBe('INDEX_CORRUPT');
      expect(e.message, rel).toContain(join(dir, rel));
    }
  });

  it('with verification on open off, truncation and header damage are still refused on open', async () => {
    process.env.LEXCASE_VERIFY_MAX_MB = '0';
    try {
      for (const rel of files) {
        const e = await openError(damaged(rel, truncate));
        expect(e.code, rel).toBe('INDEX_CORRUPT');
        expect(e.message, rel).toContain(rel);
      }
      // Offsets that stop rising (a flipped header value) are caught without any checksum.
      const dir = damaged('sparse/offsets.f64', (f) => {
        const b = readFileSync(f);
        new Float64Array(b.buffer, b.byteOffset, b.length / 8)[3] = 1e12;
        writeFileSync(f, b);
      });
      expect((await openError(dir)).message).toMatch(/offsets\.f64: index file is corrupt: /);
      const ids = damaged('docs/ids.off', (f) => {
        const b = readFileSync(f);
        new Float64Array(b.buffer, b.byteOffset, b.length / 8)[5] = 3.5;
        writeFileSync(f, b);
      });
      expect((await openError(ids)).message).toMatch(/ids\.off: index file is corrupt: offset 5/);
    } finally {
      delete process.env.LEXCASE_VERIFY_MAX_MB;
    }
  });
});

describe('lexcase index verify / index info', () => {
  it('verify: exit 0 on the intact index; exit 1 naming the damaged file; info fails the same way', async () => {
    const ok = await runCli(['index', 'verify', good]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/integrity ok: manifest seal and sha256 of \d+ files/);
    const dir = damaged('sparse/postings.bin', flip);
    const bad = await runCli(['index', 'verify', dir]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`${join(dir, 'sparse/postings.bin')}: index file is corrupt: sha256`);
    expect(bad.stderr).not.toMatch(/ at .*\.ts:\d+/);
    const info = await runCli(['index', 'info', dir]);
    expect(info.code).toBe(1);
    expect(info.stderr).toContain('postings.bin');
    const m = damaged('manifest.json', (f) => writeFileSync(f, readFileSync(f, 'utf8').replace(/"passages": \d+/, '"passages": 399')));
    const edited = await runCli(['index', 'info', m]);
    expect(edited.code).toBe(1);
    expect(edited.stderr).toMatch(/manifest\.json: index file is corrupt: its content does not match its seal/);
  });
});
