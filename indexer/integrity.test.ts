/**
 * A damaged index never answers silently: for every data file (postings, offsets, ids, doc store
 * columns, manifest) flipped bytes and truncation are reported by `verifyChecksums` /
 * `lexcase index verify` / `index info` naming the file; truncation and header damage are refused on
 * every open; by default an open hashes nothing (structural checks only), and with LEXCASE_VERIFY=1
 * (set for most of this file) the first open in a process verifies checksums unless a verification
 * record (kept outside the index dir) shows the very same files, unchanged since (size, mtime, ctime,
 * inode, device), already verified.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, readdirSync, realpathSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LexcaseError } from '../core/errors.js';
import { closeSparseIndexes, openRetriever } from '../retrieval/open.js';
import { runCli } from '../tests/support/run-cli.js';
import type { Passage } from '../corpora/types.js';
import { buildIndex } from './build.js';
import { fromArray, tempDir } from './build-test-helpers.js';
import { expectedFiles, forgetVerifiedOpens, hashStats, recordVerified, verifyChecksums } from './integrity.js';
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
  process.env.LEXCASE_VERIFY = '1'; // checksums on first open; the default (structural only) is tested below
  good = join(tmp.dir, 'good');
  await buildIndex(fromArray(PASSAGES), { out: good, corpusName: 'legal', workers: 0 });
  // Every file with bytes to damage (docs/docid.bin is empty: these passages carry no doc ids).
  files = [...expectedFiles(await readManifest(good)), 'manifest.json'].filter((f) => statSync(join(good, f)).size > 0);
});
afterAll(async () => {
  delete process.env.LEXCASE_VERIFY;
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

/** `dir` as an index built before block checksums: no `blocks` section, no blocks.crc32, an unsealed manifest. */
function withoutBlockChecksums(dir: string): string {
  const mfile = join(dir, 'manifest.json');
  const m = JSON.parse(readFileSync(mfile, 'utf8'));
  const file = m.blocks.file as string;
  delete m.blocks;
  delete m.seal;
  delete m.checksums[file];
  delete m.sizes[file];
  writeFileSync(mfile, JSON.stringify(m, null, 2));
  rmSync(join(dir, file));
  return dir;
}

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

/** Open `dir` and search it; it must answer. */
async function openOk(dir: string): Promise<void> {
  try {
    expect((await (await openRetriever(dir, 'bm25')).search('contract consideration negligence')).length).toBeGreaterThan(0);
  } finally {
    await closeSparseIndexes(dir);
  }
}

/** Bytes of data files (what a checksum verification hashes). */
const dataBytes = (dir: string, rel: string[]) => rel.reduce((t, f) => t + statSync(join(dir, f)).size, 0);

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
    expect(files).toEqual(
      expect.arrayContaining([
        'sparse/postings.bin',
        'sparse/offsets.f64',
        'sparse/terms.txt',
        'docs/ids.bin',
        'docs/ids.off',
        'docs/text.dfl',
        'docs/title.bin',
        'docs/source.u32',
        'manifest.json',
      ]),
    );
    for (const rel of files) {
      for (const [how, damage] of [
        ['flip', flip],
        ['truncate', truncate],
      ] as const) {
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

  it("a file flipped (by a real write) after the index was verified is refused on the next process's first open", async () => {
    for (const rel of files) {
      const dir = damaged(rel, () => undefined);
      await openOk(dir); // verified and recorded
      flip(join(dir, rel)); // writeFileSync: a new mtime and ctime, so the record no longer matches
      forgetVerifiedOpens(); // as a new process
      const e = await openError(dir);
      expect(e.code, rel).toBe('INDEX_CORRUPT');
      expect(e.message, rel).toContain(join(dir, rel));
    }
  });

  it('by default (LEXCASE_VERIFY unset) an open hashes nothing, and truncation and header damage are still refused on open', async () => {
    delete process.env.LEXCASE_VERIFY;
    try {
      const copy = damaged('manifest.json', () => undefined); // a fresh copy: no verification record names it
      forgetVerifiedOpens();
      const s0 = hashStats();
      await openOk(copy);
      expect(hashStats().bytes).toBe(s0.bytes);
      expect(hashStats().recordHits).toBe(s0.recordHits);
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
      const badOffset = (f: string) => {
        const b = readFileSync(f);
        new Float64Array(b.buffer, b.byteOffset, b.length / 8)[5] = 3.5;
        writeFileSync(f, b);
      };
      // The block checksum of docs/ids.off catches it first; an index built without block
      // checksums (before they existed) still gets the structural check.
      expect((await openError(damaged('docs/ids.off', badOffset))).message).toMatch(
        /ids\.off: index file is corrupt: block 0 \(bytes 0–\d+\) does not match its checksum/,
      );
      const ids = withoutBlockChecksums(damaged('docs/ids.off', badOffset));
      expect((await openError(ids)).message).toMatch(/ids\.off: index file is corrupt: offset 5/);
    } finally {
      process.env.LEXCASE_VERIFY = '1';
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

  // before: `--json` printed nothing on stdout for a damaged index (a script read an empty document), and
  // the damaged file's reason was printed twice on stderr ("damaged: …" then the error)
  it('verify --json on a damaged index prints ok false and each damaged file; the reason is printed once', async () => {
    const dir = damaged('sparse/postings.bin', flip);
    const bad = await runCli(['index', 'verify', dir, '--json']);
    expect(bad.code).toBe(1);
    const out = JSON.parse(bad.stdout) as { ok: boolean; files: number; damaged: { file: string; message: string }[] };
    expect(out.ok).toBe(false);
    expect(out.files).toBeGreaterThan(5);
    expect(out.damaged).toEqual([
      { file: join(dir, 'sparse/postings.bin'), message: expect.stringMatching(/^sha256 \w+… does not match the manifest's \w+…$/) },
    ]);
    const plain = await runCli(['index', 'verify', dir]);
    expect(plain.stderr.match(/does not match the manifest/g)).toHaveLength(1);
    const info = await runCli(['index', 'info', dir, '--json']);
    expect(info.code).toBe(1);
    expect((JSON.parse(info.stdout) as { integrity: { ok: boolean; damaged: unknown[] } }).integrity).toMatchObject({
      ok: false,
      damaged: [{ file: join(dir, 'sparse/postings.bin') }],
    });
    // a manifest that fails its seal: the manifest is the damaged file
    const m = damaged('manifest.json', (f) => writeFileSync(f, readFileSync(f, 'utf8').replace(/"passages": \d+/, '"passages": 399')));
    const edited = await runCli(['index', 'verify', m, '--json']);
    expect(edited.code).toBe(1);
    expect(JSON.parse(edited.stdout)).toEqual({
      dir: m,
      ok: false,
      damaged: [{ file: join(m, 'manifest.json'), message: expect.stringMatching(/^its content does not match its seal/) }],
    });
  });
});

describe('verification records: an unchanged verified index is not hashed again', () => {
  const cacheFiles = () => readdirSync(process.env.LEXCASE_VERIFY_CACHE_DIR!).filter((f) => f.endsWith('.json'));

  it('a second open (as a new process) of the unchanged index hashes nothing; a modified file is hashed again and refused', async () => {
    const dir = damaged('manifest.json', () => undefined);
    const data = expectedFiles(await readManifest(dir));
    forgetVerifiedOpens();
    const s0 = hashStats();
    await openOk(dir);
    const s1 = hashStats();
    expect(s1.bytes - s0.bytes).toBe(dataBytes(dir, data));
    // The record is outside the index dir and names its realpath.
    const records = cacheFiles().map((f) => JSON.parse(readFileSync(join(process.env.LEXCASE_VERIFY_CACHE_DIR!, f), 'utf8')) as { dir: string });
    expect(records.map((r) => r.dir)).toContain(realpathSync(dir));
    expect(readdirSync(dir).some((f) => /verif|\.tmp/.test(f))).toBe(false);

    forgetVerifiedOpens();
    await openOk(dir);
    const s2 = hashStats();
    expect(s2.bytes).toBe(s1.bytes);
    expect(s2.recordHits).toBe(s1.recordHits + 1);

    // A rewrite with the same bytes still counts as a change (new mtime): re-hashed, clean.
    const postings = join(dir, 'sparse/postings.bin');
    writeFileSync(postings, readFileSync(postings));
    forgetVerifiedOpens();
    await openOk(dir);
    const s3 = hashStats();
    expect(s3.bytes - s2.bytes).toBe(dataBytes(dir, data));

    flip(postings);
    forgetVerifiedOpens();
    const e = await openError(dir);
    expect(e.message).toContain(postings);
    expect(hashStats().bytes).toBeGreaterThan(s3.bytes);
  });

  it('the same holds across real processes: the second CLI-like process hashes 0 bytes', async () => {
    const dir = damaged('manifest.json', () => undefined);
    const script = `
      const { hashStats } = await import('./indexer/integrity.ts');
      const { openRetriever, closeSparseIndexes } = await import('./retrieval/open.ts');
      const hits = await (await openRetriever(process.argv[1], 'bm25')).search('contract');
      await closeSparseIndexes();
      console.log(JSON.stringify({ ...hashStats(), hits: hits.length }));`;
    const run = async () => {
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, dir], {
        cwd: join(import.meta.dirname, '..'),
        env: process.env,
      });
      return JSON.parse(stdout.trim().split('\n').pop()!) as { bytes: number; recordHits: number; hits: number };
    };
    const first = await run();
    expect(first.bytes).toBe(dataBytes(dir, expectedFiles(await readManifest(dir))));
    const second = await run();
    expect(second).toMatchObject({ bytes: 0, recordHits: 1 });
    expect(second.hits).toBe(first.hits);
  }, 60_000);

  it('the build records the files it wrote: its index is not hashed on the first open', async () => {
    const out = join(tmp.dir, 'fresh');
    await buildIndex(fromArray(PASSAGES.slice(0, 50)), { out, corpusName: 'legal', workers: 0 });
    forgetVerifiedOpens();
    const s0 = hashStats();
    await openOk(out);
    expect(hashStats().bytes).toBe(s0.bytes);
    expect(hashStats().recordHits).toBe(s0.recordHits + 1);
  });

  it('bit flips with the mtime put back are still caught (ctime moves); damage no stat shows is caught by index verify and LEXCASE_VERIFY=always', async () => {
    const dir = damaged('manifest.json', () => undefined);
    await openOk(dir);
    const postings = join(dir, 'sparse/postings.bin');
    const { atime, mtime } = statSync(postings);
    flip(postings);
    utimesSync(postings, atime, mtime);
    // utimes takes a Date (ms); the float mtimeMs may read back as …950.999 for …951.
    expect(Math.abs(statSync(postings).mtimeMs - mtime.getTime())).toBeLessThan(1);
    forgetVerifiedOpens();
    expect((await openError(dir)).message).toContain(postings);

    // Damage below the filesystem keeps every stat field; the OS cannot produce that, so simulate it
    // by recording the damaged files as verified. This is the documented limit of records:
    await recordVerified(dir, await readManifest(dir));
    forgetVerifiedOpens();
    await openRetriever(dir, 'bm25');
    await closeSparseIndexes(dir);
    // ...which `index verify` (always hashes) and LEXCASE_VERIFY=always (ignores records) catch.
    const v = await runCli(['index', 'verify', dir]);
    expect(v.code).toBe(1);
    expect(v.stderr).toContain(`${postings}: index file is corrupt: sha256`);
    process.env.LEXCASE_VERIFY = 'always';
    try {
      forgetVerifiedOpens();
      expect((await openError(dir)).message).toContain(postings);
    } finally {
      process.env.LEXCASE_VERIFY = '1';
    }
  });

  it('an unwritable or disabled record cache never fails an open: the index is just hashed every time', async () => {
    const dir = damaged('manifest.json', () => undefined);
    const bytes = dataBytes(dir, expectedFiles(await readManifest(dir)));
    const saved = process.env.LEXCASE_VERIFY_CACHE_DIR;
    const blocker = join(tmp.dir, 'not-a-dir');
    writeFileSync(blocker, 'x');
    try {
      for (const cache of [join(blocker, 'verified'), 'off']) {
        process.env.LEXCASE_VERIFY_CACHE_DIR = cache;
        for (let i = 0; i < 2; i++) {
          forgetVerifiedOpens();
          const s0 = hashStats();
          await openOk(dir);
          expect(hashStats().bytes - s0.bytes, cache).toBe(bytes);
        }
      }
      // A cache dir inside the index dir is never written to.
      process.env.LEXCASE_VERIFY_CACHE_DIR = join(dir, 'cache');
      mkdirSync(join(dir, 'cache'));
      forgetVerifiedOpens();
      await openOk(dir);
      expect(readdirSync(join(dir, 'cache'))).toEqual([]);
    } finally {
      process.env.LEXCASE_VERIFY_CACHE_DIR = saved;
    }
  });

  it('LEXCASE_VERIFY other than 0/off/1/auto/always is INVALID_INPUT', async () => {
    process.env.LEXCASE_VERIFY = 'sometimes';
    try {
      expect((await openError(damaged('manifest.json', () => undefined))).code).toBe('INVALID_INPUT');
    } finally {
      process.env.LEXCASE_VERIFY = '1';
    }
  });
});
